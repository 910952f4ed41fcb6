import { NodeContext } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Cli from "../src/Cli.js"
import { undiciLayer } from "../src/internal/http.js"

/** Runs the command line in process, on the HTTP client of its executable, capturing what it writes to stdout and stderr. */
export const cli = (...args: Array<string>) =>
  Effect.gen(function* () {
    let out = ""
    let err = ""
    const stdout = process.stdout.write.bind(process.stdout)
    const stderr = process.stderr.write.bind(process.stderr)
    const code = yield* Effect.acquireUseRelease(
      Effect.sync(() => {
        process.stdout.write = ((chunk: string | Uint8Array) => (
          (out += String(chunk)),
          true
        )) as typeof process.stdout.write
        process.stderr.write = ((chunk: string | Uint8Array) => (
          (err += String(chunk)),
          true
        )) as typeof process.stderr.write
      }),
      () => Cli.main(["node", "contract-tests", ...args]),
      () =>
        Effect.sync(() => {
          process.stdout.write = stdout
          process.stderr.write = stderr
        })
    )
    return { code, out, err }
  }).pipe(Effect.provide(Layer.mergeAll(NodeContext.layer, undiciLayer)))
