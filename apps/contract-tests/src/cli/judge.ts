/**
 * `contract-tests judge FILE.har`: recorded traffic judged with the proxy's oracles; exit code by
 * `--fail-on`, 2 for a file that is not HAR.
 */
import * as Args from "@effect/cli/Args"
import * as Options from "@effect/cli/Options"
import type * as Command from "@effect/cli/Command"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Har from "../Har.js"
import * as Report from "../Report.js"
import { readHar } from "./harFile.js"
import { printReport, reportOptions, writeBodies, writeReports } from "./reports.js"
import * as GitHub from "./github.js"
import { proxyOptions } from "./proxy.js"

const some = <A>(o: Option.Option<A>): A | undefined => Option.getOrUndefined(o)

export const judgeOptions = {
  baseUrl: Options.text("base-url").pipe(
    Options.optional,
    Options.withDescription(
      "Judge only entries under this URL (default: every origin that served an operation of the API; pages, scripts and fonts are left out)"
    )
  ),
  failOn: Options.choice("fail-on", ["any", "server", "client", "none"]).pipe(
    Options.withDefault("any" as const),
    Options.withDescription(
      "Which findings make the exit code 1: any (default), server, client or none"
    )
  ),
  strictClient: proxyOptions.strictClient,
  clockSkew: proxyOptions.clockSkew,
  ...reportOptions(""),
  quiet: Options.boolean("quiet").pipe(
    Options.withDescription("Print only the verdict line on stdout")
  )
}

export const judgeArgs = {
  file: Args.file({ name: "FILE.har", exists: "either" }).pipe(
    Args.withDescription("A HAR file (HAR 1.2)")
  )
}

type JudgeParsed = Command.Command.ParseConfig<typeof judgeOptions> &
  Command.Command.ParseConfig<typeof judgeArgs>

/** Recorded traffic judged with the proxy's oracles; exit code by --fail-on, 2 for a file that is not HAR. */
export const executeJudge = (args: JudgeParsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const har = yield* readHar(fs, args.file)
    const judged = Har.judge(har, {
      source: args.file,
      baseUrl: some(args.baseUrl),
      strictClient: args.strictClient,
      clockSkewMillis: args.clockSkew
    })
    const report = Report.withVerdict(judged, { failOn: args.failOn })
    yield* writeReports(fs, "contract-tests judge", args, report)
    yield* writeBodies(fs, "contract-tests judge", report)
    printReport(report, args.quiet)
    GitHub.publish(report, "client and server findings of the recorded traffic", (t) => t)
    yield* Ref.set(exitCode, Report.exitCode(report))
  }).pipe(
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests judge: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )
