#!/usr/bin/env node
/**
 * The `data-access-reference-server` executable.
 *
 * @since 0.1.0
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { argumentProblem, cleanedConsole } from "@data-access/core/Terminal"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { CliError, command, run } from "./Cli.js"

const NAME = "data-access-reference-server"

/** A bad option or value is one plain line on stderr and exit code 2, not a logged cause. */
const failed = (message: string | undefined) =>
  Effect.sync(() => {
    if (message !== undefined) process.stderr.write(`${message}\n`)
    process.exitCode = 2
  })

const misspelt = argumentProblem(
  NAME,
  process.argv.slice(2),
  HelpDoc.toAnsiText(Command.getHelp(command, CliConfig.defaultConfig))
)

;(misspelt !== undefined ? failed(misspelt) : run(process.argv)).pipe(
  Effect.catchIf(
    (e): e is CliError => e instanceof CliError,
    (e) => failed(`${NAME}: ${e.message}`)
  ),
  // @effect/cli has printed what was wrong with the arguments.
  Effect.catchIf(ValidationError.isValidationError, () => failed(undefined)),
  // The console of the command line: help and errors without colour off a terminal.
  (effect) =>
    Console.consoleWith((base) =>
      Effect.withConsole(effect, cleanedConsole(base, Effect.sync, process.stdout, process.stderr))
    ),
  Effect.provide(NodeContext.layer),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
