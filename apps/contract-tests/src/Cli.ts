/**
 * The `contract-tests` command line: options, the run (embedded reference server or a target),
 * the reports and the exit code (0 all pass, 1 findings, 2 the run could not be made); the
 * `proxy`, `judge`, `list`, `replay` and `merge` subcommands.
 *
 * @since 0.1.0
 */
import type * as CliApp from "@effect/cli/CliApp"
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import type * as HelpDoc from "@effect/cli/HelpDoc"
import type * as Span from "@effect/cli/HelpDoc/Span"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import { executeJudge, judgeArgs, judgeOptions } from "./cli/judge.js"
import { executeMerge, mergeArgs, mergeOptions } from "./cli/merge.js"
import { executeList, listArgs, listOptions } from "./cli/list.js"
import { executeProxy, proxyOptions } from "./cli/proxy.js"
import { executeReplay, replayArgs, replayOptions } from "./cli/replay.js"
import { execute, runOptions } from "./cli/run.js"
import * as Settings from "./cli/settings.js"
import { argumentProblem } from "@data-access/core/Terminal"
import { withConsole } from "./cli/terminal.js"
import { version } from "./internal/version.js"

const NAME = "contract-tests"

/** A span's words, as the help shows them. */
const spanText = (span: Span.Span): string => {
  switch (span._tag) {
    case "Text":
    case "URI":
      return span.value
    case "Sequence":
      return spanText(span.left) + spanText(span.right)
    default:
      return spanText(span.value)
  }
}

/**
 * A help document's words in their order, without its layout: the options and the types it
 * names as its rendered text names them, for a fraction of what rendering it costs at each start.
 */
const helpText = (doc: HelpDoc.HelpDoc): string => {
  switch (doc._tag) {
    case "Empty":
      return ""
    case "Header":
    case "Paragraph":
      return `${spanText(doc.value)}\n`
    case "DescriptionList":
      return doc.definitions
        .map(([term, text]) => `${spanText(term)}\n${helpText(text)}`)
        .join("\n")
    case "Enumeration":
      return doc.elements.map(helpText).join("\n")
    case "Sequence":
      return `${helpText(doc.left)}\n${helpText(doc.right)}`
  }
}

/**
 * The first `--flag` of `args` that `command` does not know, with the nearest one it does (the
 * root command has subcommands, and @effect/cli then reports an unknown flag as an unknown
 * subcommand), or whose value is not the number it takes.
 */
const unknownFlag = <N extends string, R, E, A>(
  args: ReadonlyArray<string>,
  command: Command.Command<N, R, E, A>
): string | undefined =>
  argumentProblem(NAME, args, helpText(Command.getHelp(command, CliConfig.defaultConfig)))

/**
 * Runs the command line with `argv` (as `process.argv`) and returns the exit code: 0 all pass,
 * 1 findings, 2 the run could not be made (bad flags, target unreachable, key not accepted).
 *
 * @since 0.1.0
 * @category running
 */
export const main = (
  argv: ReadonlyArray<string>
): Effect.Effect<number, never, HttpClient.HttpClient | CliApp.CliApp.Environment> =>
  Effect.gen(function* () {
    // --help and --version run no command and leave 0.
    const exitCode = yield* Ref.make(0)
    const proxy = Command.make("proxy", proxyOptions, (args) => executeProxy(args, exitCode)).pipe(
      Command.withDescription(
        "A conformance proxy: relays every exchange to --target unchanged and checks it (client and server findings); reports at SIGINT/SIGTERM, on SIGUSR2 and at GET /__contract/report"
      )
    )
    const judge = Command.make("judge", { ...judgeOptions, ...judgeArgs }, (args) =>
      executeJudge(args, exitCode)
    ).pipe(
      Command.withDescription(
        "Judges recorded traffic (a HAR file: from --har, Playwright's recordHar, a browser's devtools, a recording proxy) with the proxy's oracles: client and server findings, the same reports, exit code by --fail-on (2 when the file is not HAR)"
      )
    )
    const list = Command.make("list", { ...listOptions, ...listArgs }, (args) =>
      executeList(args, exitCode)
    ).pipe(
      Command.withDescription(
        "Lists the checks, the rules (each quoting its must), the operations or the reference server's violations"
      )
    )
    const replay = Command.make("replay", { ...replayOptions, ...replayArgs }, (args) =>
      executeReplay(args, exitCode)
    ).pipe(
      Command.withDescription(
        "Sends the API calls of recorded traffic (a HAR file) again, one after the other, to --base-url (a new build) and judges its answers with the proxy's oracles: the same findings, reports and exit code as judge"
      )
    )
    const merge = Command.make("merge", { ...mergeOptions, ...mergeArgs }, (args) =>
      executeMerge(args, exitCode)
    ).pipe(
      Command.withDescription(
        "Joins the JSON reports of a sharded run's shares (each run with --shard i/n and the same --seed) into the whole run's reports and exit code (2 when a share is missing or given twice)"
      )
    )
    const root = Command.make(NAME, runOptions, (args) => execute(args, exitCode)).pipe(
      Command.withDescription(
        `Property-based contract tests of the data-access management API. Every run option can also be set in ${Settings.CONFIG_FILE} (its camelCase name) or in the environment (${Settings.ENV_PREFIX}_<NAME>): a flag wins over the environment, the environment over the file.`
      )
    )
    const command = root.pipe(Command.withSubcommands([proxy, judge, list, replay, merge]))
    const args = argv.slice(2)
    const subcommand = ["proxy", "judge", "list", "replay", "merge"].includes(args[0] ?? "")
    const misspelt = subcommand ? undefined : unknownFlag(args, root)
    if (misspelt !== undefined) {
      process.stderr.write(misspelt + "\n")
      return 2
    }
    const cli = Command.run(command, { name: NAME, version })
    const ok = yield* withConsole(cli(argv)).pipe(
      Effect.as(true),
      Effect.catchAll(() => Effect.succeed(false))
    )
    return ok ? yield* Ref.get(exitCode) : 2
  })
