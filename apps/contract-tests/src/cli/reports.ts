/** The reports of `proxy`, `judge`, `replay` and `merge`: the files' options, how they are written, and the terminal report. */
import * as Options from "@effect/cli/Options"
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Report from "../Report.js"

/** `--junit`, `--json` and `--html`, each described with when it is written (`when`, or nothing). */
export const reportOptions = (when: string) => {
  const file = (flag: string, what: string) =>
    Options.file(flag).pipe(
      Options.optional,
      Options.withDescription(`Write ${what} to this file${when === "" ? "" : ` (${when})`}`)
    )
  return {
    junit: file("junit", "a JUnit XML report"),
    json: file("json", "a JSON report"),
    html: file("html", "a self-contained HTML report")
  }
}

/** Writes `report` to each file the options name. */
export const writeReports = (
  fs: FileSystem.FileSystem,
  files: {
    readonly junit: Option.Option<string>
    readonly json: Option.Option<string>
    readonly html: Option.Option<string>
  },
  report: Report.Report
) =>
  Effect.gen(function* () {
    const renderings = [
      [files.junit, Report.toJUnit],
      [files.json, Report.toJson],
      [files.html, Report.toHtml]
    ] as const
    for (const [file, render] of renderings)
      if (Option.isSome(file)) yield* fs.writeFileString(file.value, render(report))
  })

/** Prints the terminal report on stdout (`quiet`: its verdict line only), through `scrub`. */
export const printReport = (
  report: Report.Report,
  quiet: boolean,
  scrub: (text: string) => string = (text) => text
) => {
  const terminal = scrub(Report.toTerminal(report))
  process.stdout.write((quiet ? terminal.slice(terminal.lastIndexOf("\n") + 1) : terminal) + "\n")
}
