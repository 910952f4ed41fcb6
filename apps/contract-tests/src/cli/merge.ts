/**
 * `contract-tests merge REPORT.json...`: the JSON reports of a sharded run's shares (each run with
 * `--shard i/n`) joined into the whole run's reports and exit code; 2 when a file is not a shard's
 * report or a share is missing or given twice.
 */
import * as Args from "@effect/cli/Args"
import * as Options from "@effect/cli/Options"
import type * as Command from "@effect/cli/Command"
import * as FileSystem from "@effect/platform/FileSystem"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import * as Report from "../Report.js"
import * as GitHub from "./github.js"
import { printReport, reportOptions, writeReports } from "./reports.js"
import { skipFailure } from "./run.js"

/** Reports that cannot be merged, and why. */
class MergeError extends Data.TaggedError("MergeError")<{ readonly message: string }> {}

export const mergeOptions = {
  ...reportOptions(""),
  failOnSkip: Options.boolean("fail-on-skip").pipe(
    Options.withDescription("Exit 1 when any example was skipped, even with no finding")
  ),
  quiet: Options.boolean("quiet").pipe(
    Options.withDescription("Print only the verdict line on stdout")
  )
}

export const mergeArgs = {
  files: Args.file({ name: "REPORT.json", exists: "yes" }).pipe(
    Args.repeated,
    Args.withDescription("The JSON report (--json) of each shard, every shard once")
  )
}

type MergeParsed = Command.Command.ParseConfig<typeof mergeOptions> &
  Command.Command.ParseConfig<typeof mergeArgs>

/** The shards' reports joined: the whole run's reports, verdict and exit code. */
export const executeMerge = (args: MergeParsed, exitCode: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const reports = yield* Effect.forEach(args.files, (file) =>
      Effect.gen(function* () {
        const text = yield* fs
          .readFileString(file)
          .pipe(
            Effect.mapError(
              (e) => new MergeError({ message: `${file} cannot be read: ${e.message}` })
            )
          )
        return yield* Either.mapLeft(
          Report.fromJson(text),
          (why) =>
            new MergeError({ message: `${file} is not a JSON report of contract-tests: ${why}` })
        )
      })
    )
    const merged = yield* Either.mapLeft(
      Report.merge(reports),
      (why) => new MergeError({ message: why })
    )
    const report = Report.withVerdict(merged, { failOnSkip: args.failOnSkip })
    yield* writeReports(fs, "contract-tests merge", args, report)
    printReport(report, args.quiet)
    GitHub.publish(report, "the server's answers", (t) => t)
    const skipped = args.failOnSkip ? skipFailure(report) : undefined
    if (skipped !== undefined) process.stderr.write(skipped + "\n")
    yield* Ref.set(exitCode, Report.exitCode(report))
  }).pipe(
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests merge: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )
