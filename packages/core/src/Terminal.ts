/**
 * What a command line prints, as a terminal user and a CI log each expect it: ANSI colour only on
 * a terminal and never under `NO_COLOR` (https://no-color.org), @effect/cli's help without the
 * lines that only restate an option's type, and one plain line for an option it does not know
 * or a value that is not the number an option takes.
 *
 * @since 0.1.0
 */
import { nearest } from "./Suggest.js"

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g

/**
 * Whether colour may be written to `stream`: a terminal, and `NO_COLOR` unset or empty.
 *
 * @example
 * ```ts
 * import { Terminal } from "@data-access/core"
 *
 * Terminal.colourAllowed({ isTTY: false }) // false: a pipe or a file
 * ```
 *
 * @since 0.1.0
 * @category output
 */
export const colourAllowed = (stream: { readonly isTTY?: boolean }): boolean =>
  stream.isTTY === true && (globalThis.process?.env?.NO_COLOR ?? "") === ""

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

/**
 * @effect/cli's help or error text as a command line prints it: without colour unless `colour`,
 * and without the lines that only name an option's type or say that it is optional.
 *
 * @example
 * ```ts
 * import { Terminal } from "@data-access/core"
 *
 * Terminal.clean("--port integer\n\n  An integer.\n\n  Port to listen on", false)
 * // "--port integer\n\n  Port to listen on"
 * ```
 *
 * @since 0.1.0
 * @category output
 */
export const clean = (text: string, colour: boolean): string => {
  const plain = colour ? text : text.replace(ANSI, "")
  return plain
    .split("\n")
    .filter((line) => !TYPE_LINES.has(line.replace(ANSI, "").trim()))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
}

/** The options @effect/cli gives every command. */
const BUILT_IN = ["--help", "--version", "--wizard", "--completions", "--log-level"]

/**
 * The options (`--port`, ...) a command's help text names, @effect/cli's built-in ones included.
 *
 * @since 0.1.0
 * @category options
 */
export const optionsOf = (help: string): ReadonlyArray<string> => [
  ...new Set([...help.replace(ANSI, "").matchAll(/--[a-z][a-z0-9-]*/g)].map((m) => m[0])),
  ...BUILT_IN
]

/** What a number option's value must look like, by the type its help names, and that in words. */
const NUMBERS: Readonly<Record<string, { readonly pattern: RegExp; readonly words: string }>> = {
  integer: { pattern: /^[+-]?\d+$/, words: "a whole number" },
  float: { pattern: /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, words: "a number" }
}

/**
 * The message for the first `--option` of `args` that the command's `help` does not name (with
 * the nearest one it does when it looks like a slip), or whose value is not the number its help
 * says it takes; `undefined` when the arguments are well formed.
 *
 * @example
 * ```ts
 * import { Terminal } from "@data-access/core"
 *
 * const help = "$ server [--port integer]"
 * Terminal.argumentProblem("server", ["--prot", "8080"], help)
 * // "server: unknown option --prot: did you mean --port? (server --help lists them)"
 * Terminal.argumentProblem("server", ["--port", "abc"], help)
 * // "server: --port takes a whole number, not 'abc'"
 * ```
 *
 * @since 0.1.0
 * @category options
 */
export const argumentProblem = (
  command: string,
  args: ReadonlyArray<string>,
  help: string
): string | undefined => {
  const known = optionsOf(help)
  const numbers = new Map(
    [...help.replace(ANSI, "").matchAll(/(--[a-z][a-z0-9-]*) (integer|float)\b/g)].map((m) => [
      m[1]!,
      NUMBERS[m[2]!]!
    ])
  )
  for (const [i, arg] of args.entries()) {
    if (arg === "--") break
    if (!arg.startsWith("--")) continue
    const [option, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, args[i + 1]]
    if (!known.includes(option)) {
      const near = nearest(option, known)
      return `${command}: unknown option ${option}${near === undefined ? "" : `: did you mean ${near}?`} (${command} --help lists them)`
    }
    const number = numbers.get(option)
    if (number !== undefined && inline !== undefined && !number.pattern.test(inline))
      return `${command}: ${option} takes ${number.words}, not '${inline}'`
  }
  return undefined
}

/**
 * Where a command line writes: a stream with `write`, a terminal when `isTTY`.
 *
 * @since 0.1.0
 * @category output
 */
export interface Output {
  readonly isTTY?: boolean
  readonly write: (text: string) => unknown
}

/** The printing methods of a console whose calls return `E` (an effect, with an Effect console). */
type Printing<E> = Readonly<
  Record<"log" | "info" | "error" | "warn", (...args: ReadonlyArray<any>) => E>
>

/**
 * `base` with `log` and `info` written to `out` and `error` and `warn` to `err`, each through
 * `clean` (colour only where `colourAllowed`); `suspend` makes a write a call's result, so that
 * an Effect console passes `Effect.sync` and the core stays free of `effect`.
 *
 * @example
 * ```ts
 * import { Terminal } from "@data-access/core"
 *
 * const lines: Array<string> = []
 * const out = { isTTY: false, write: (text: string) => lines.push(text) }
 * const ignore = (..._args: ReadonlyArray<unknown>) => undefined
 * const base = { log: ignore, info: ignore, error: ignore, warn: ignore }
 * const console = Terminal.cleanedConsole(base, (write) => write(), out, out)
 * console.log("\u001b[1m--port\u001b[0m integer")
 * // lines: ["--port integer\n"]
 * ```
 *
 * @since 0.1.0
 * @category output
 */
export const cleanedConsole = <C extends Printing<E>, E>(
  base: C,
  suspend: (write: () => void) => E,
  out: Output,
  err: Output
): C => {
  const to =
    (stream: Output) =>
    (...args: ReadonlyArray<unknown>) =>
      suspend(() => {
        stream.write(clean(args.map(String).join(" "), colourAllowed(stream)) + "\n")
      })
  return { ...base, log: to(out), info: to(out), error: to(err), warn: to(err) }
}
