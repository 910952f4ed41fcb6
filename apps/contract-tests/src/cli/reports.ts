/** The reports of `proxy`, `judge`, `replay` and `merge`: the files' options, how they are written, and the terminal report. */
import * as Options from "@effect/cli/Options"
import type * as FileSystem from "@effect/platform/FileSystem"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Path from "node:path"
import * as Curl from "../Curl.js"
import * as Report from "../Report.js"

/**
 * The option of a file written after the run: a path, not checked beforehand (its folder is made
 * when it is written, and a path that cannot be written is said then).
 */
export const outputFile = (flag: string) => Options.text(flag).pipe(Options.withPseudoName("file"))

/** `--junit`, `--json` and `--html`, each described with when it is written (`when`, or nothing). */
export const reportOptions = (when: string) => {
  const file = (flag: string, what: string) =>
    outputFile(flag).pipe(
      Options.optional,
      Options.withDescription(`Write ${what} to this file${when === "" ? "" : ` (${when})`}`)
    )
  return {
    junit: file("junit", "a JUnit XML report"),
    json: file("json", "a JSON report"),
    html: file("html", "a self-contained HTML report")
  }
}

/**
 * Writes `text` to `file`, its folder made first. A file that cannot be written is said on stderr
 * (after `command`, naming `what` and the file) and does not stop the others: the result says
 * whether it was written.
 */
export const writeFile = (
  fs: FileSystem.FileSystem,
  command: string,
  what: string,
  file: string,
  text: string
): Effect.Effect<boolean> => {
  const folder = Path.dirname(file)
  const fail = (why: string) =>
    Effect.sync(() => {
      process.stderr.write(`${command}: the ${what} could not be written to ${file}: ${why}\n`)
      return false
    })
  const reason = (e: { readonly message: string; readonly description?: string | undefined }) =>
    e.description ?? e.message
  return fs.makeDirectory(folder, { recursive: true }).pipe(
    Effect.matchEffect({
      onFailure: (e) => fail(`its folder ${folder} cannot be made (${reason(e)})`),
      onSuccess: () =>
        fs.writeFileString(file, text).pipe(
          Effect.as(true),
          Effect.catchAll((e) => fail(reason(e)))
        )
    })
  )
}

/** Writes `report` (through `scrub`) to each file the options name; false when one was not written. */
export const writeReports = (
  fs: FileSystem.FileSystem,
  command: string,
  files: {
    readonly junit: Option.Option<string> | string | undefined
    readonly json: Option.Option<string> | string | undefined
    readonly html: Option.Option<string> | string | undefined
  },
  report: Report.Report,
  scrub: (text: string) => string = (text) => text
) =>
  Effect.gen(function* () {
    const renderings = [
      [files.junit, "JUnit report", Report.toJUnit],
      [files.json, "JSON report", Report.toJson],
      [files.html, "HTML report", Report.toHtml]
    ] as const
    let written = true
    for (const [option, what, render] of renderings) {
      const file = Option.isOption(option) ? Option.getOrUndefined(option) : option
      if (file !== undefined)
        written = (yield* writeFile(fs, command, what, file, scrub(render(report)))) && written
    }
    return written
  })

/**
 * Writes the whole request body of each finding whose curl line reads it from a file
 * (`Curl.bodyFile`, under the working directory), through `scrub`.
 */
export const writeBodies = (
  fs: FileSystem.FileSystem,
  command: string,
  report: Report.Report,
  scrub: (text: string) => string = (text) => text
) =>
  Effect.forEach(
    new Set(
      [
        ...[...report.findings, ...report.known].map((f) => f.request.body),
        ...report.observations.map((o) => o.body)
      ].flatMap((body) => (body !== undefined && Curl.isLarge(body) ? [body] : []))
    ),
    (body) => writeFile(fs, command, "body of a curl line", Curl.bodyFile(body), scrub(body)),
    { discard: true }
  )

/** Prints the terminal report on stdout (`quiet`: its verdict line only), through `scrub`. */
export const printReport = (
  report: Report.Report,
  quiet: boolean,
  scrub: (text: string) => string = (text) => text
) => {
  const terminal = scrub(Report.toTerminal(report))
  process.stdout.write((quiet ? terminal.slice(terminal.lastIndexOf("\n") + 1) : terminal) + "\n")
}
