import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/** The installed package's executable, as `contract-tests` runs it (the bundled command line). */
export const bin = fileURLToPath(new URL("../bin/contract-tests.js", import.meta.url))

/** A fresh empty folder. */
export const tmp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-first-day-"))

/** What a process of the command line did: its exit code, stdout and stderr, and how long it took. */
export interface Ran {
  readonly code: number
  readonly out: string
  readonly err: string
  readonly millis: number
}

/** The built command line as a user runs it: a process of its own, its output piped (not a terminal). */
export const run = (
  args: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Record<string, string> } = {}
) =>
  Effect.async<Ran>((resume) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith("CONTRACT_TESTS_") && !k.startsWith("GITHUB_")
      )
    )
    const started = Date.now()
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { cwd: options.cwd, env: { ...env, ...options.env }, maxBuffer: 256 * 1024 * 1024 },
      (error, out, err) =>
        resume(
          Effect.succeed({
            code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
            out,
            err,
            millis: Date.now() - started
          })
        )
    )
    return Effect.sync(() => child.kill())
  })

/** The last line of a text. */
export const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? ""
