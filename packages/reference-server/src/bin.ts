#!/usr/bin/env node
/**
 * The `data-access-reference-server` executable.
 *
 * @since 0.1.0
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { CliError, run } from "./Cli.js"

run(process.argv).pipe(
  // A bad option is a line on stderr and exit code 2, not a logged stack trace.
  Effect.catchIf(
    (e): e is CliError => e instanceof CliError,
    (e) =>
      Effect.sync(() => {
        process.stderr.write(`data-access-reference-server: ${e.message}\n`)
        process.exitCode = 2
      })
  ),
  Effect.provide(NodeContext.layer),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
