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
