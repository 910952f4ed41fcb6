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
import { argumentProblem, clean, colourAllowed } from "@data-access/core/Terminal"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { CliError, command, run } from "./Cli.js"

const NAME = "data-access-reference-server"

const write = (stream: NodeJS.WriteStream, args: ReadonlyArray<unknown>) =>
  Effect.sync(() => {
    stream.write(clean(args.map(String).join(" "), colourAllowed(stream)) + "\n")
  })

/** The console of the command line: help and errors without colour off a terminal. */
const cleaned = (base: Console.Console): Console.Console => ({
  ...base,
  log: (...args) => write(process.stdout, args),
  info: (...args) => write(process.stdout, args),
  error: (...args) => write(process.stderr, args),
  warn: (...args) => write(process.stderr, args)
})

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
  (effect) => Console.consoleWith((base) => Effect.withConsole(effect, cleaned(base))),
  Effect.provide(NodeContext.layer),
  Effect.provide(Logger.json),
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
