/**
 * What the command line prints, as a terminal user and a CI log each expect it: ANSI colour only
 * on a terminal and never under `NO_COLOR` (https://no-color.org), and @effect/cli's help without
 * the lines that only restate an option's type or that it is optional.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g

/** Whether colour may be written to `stream`: a terminal, and `NO_COLOR` unset or empty. */
export const colourAllowed = (stream: { readonly isTTY?: boolean }): boolean =>
  stream.isTTY === true && (process.env.NO_COLOR ?? "") === ""

/** @effect/cli's description of each option's type: a line that tells nothing the flag does not. */
const TYPE_LINES = new Set([
  "A user-defined piece of text.",
  "A user-defined piece of text that is confidential.",
  "An integer.",
  "A floating point number.",
  "An existing file.",
  "A file.",
  "A file or directory.",
  "A true or false value.",
  "A directory.",
  "This setting is optional."
])

/** The help and error text of @effect/cli as this command line prints it. */
export const clean = (text: string, colour: boolean): string => {
  const plain = colour ? text : text.replace(ANSI, "")
  return plain
    .split("\n")
    .filter((line) => !TYPE_LINES.has(line.replace(ANSI, "").trim()))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
}

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
