/**
 * What the command line prints, as a terminal user and a CI log each expect it: ANSI colour only
 * on a terminal and never under `NO_COLOR` (https://no-color.org), and @effect/cli's help without
 * the lines that only restate an option's type or that it is optional.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { clean, colourAllowed } from "@data-access/core/Terminal"

export { clean, colourAllowed }

const write = (stream: NodeJS.WriteStream, args: ReadonlyArray<unknown>) =>
  Effect.sync(() => {
    stream.write(clean(args.map(String).join(" "), colourAllowed(stream)) + "\n")
  })

/** `base` with `log` and `error` written through `clean`. */
const cleaned = (base: Console.Console): Console.Console => ({
  ...base,
  log: (...args) => write(process.stdout, args),
  info: (...args) => write(process.stdout, args),
  error: (...args) => write(process.stderr, args),
  warn: (...args) => write(process.stderr, args)
})

/** Runs `effect` with the command line's console. */
export const withConsole = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((base) => Effect.withConsole(effect, cleaned(base)))
