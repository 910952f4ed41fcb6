/**
 * What the command line prints, as a terminal user and a CI log each expect it: ANSI colour only
 * on a terminal and never under `NO_COLOR` (https://no-color.org), and @effect/cli's help without
 * the lines that only restate an option's type or that it is optional.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { cleanedConsole } from "@data-access/core/Terminal"

/** Runs `effect` with the command line's console. */
export const withConsole = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((base) =>
    Effect.withConsole(effect, cleanedConsole(base, Effect.sync, process.stdout, process.stderr))
  )
