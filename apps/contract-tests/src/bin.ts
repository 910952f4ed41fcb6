/**
 * The `contract-tests` executable.
 *
 * @since 0.1.0
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { main } from "./Cli.js"
import { undiciLayer } from "./internal/http.js"

/**
 * A signal that reaches the command twice at once (sent to its process group, as a CI runner
 * cancelling a job sends it, and passed on by bin/contract-tests.js) is one signal: a repeat within
 * `REPEAT_MS` of the first is ignored, so the first one's shutdown still writes the reports; a
 * later one ends the command at once. The runtime handles the first (it interrupts the command).
 */
const REPEAT_MS = 1_000
let signalledAt: number | undefined
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143]
] as const)
  process.on(signal, () => {
    const now = Date.now()
    if (signalledAt === undefined) signalledAt = now
    else if (now - signalledAt > REPEAT_MS) process.exit(code)
  })

main(process.argv).pipe(
  Effect.provide(Layer.mergeAll(NodeContext.layer, undiciLayer)),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    // `contract-tests proxy` ends when signalled: its finalizer leaves the exit code in process.exitCode.
    // Exits once stdout and stderr are written out: a pipe is written asynchronously, and an exit
    // before would cut a long report short.
    teardown: (exit, onExit) => {
      const code =
        Exit.isSuccess(exit) && typeof exit.value === "number"
          ? exit.value
          : Exit.isInterrupted(exit) && typeof process.exitCode === "number"
            ? process.exitCode
            : 2
      process.stdout.write("", () => process.stderr.write("", () => onExit(code)))
    }
  })
)
