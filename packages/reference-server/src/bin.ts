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
import { run } from "./Cli.js"

run(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
