/**
 * Under GitHub Actions (`GITHUB_ACTIONS=true`): an annotation per cause of failure (`::error`,
 * `::warning` or `::notice` by its severity, the worst first, at most ten) and a Markdown job
 * summary (`GITHUB_STEP_SUMMARY`) of every cause, beside the reports.
 */
import * as Fs from "node:fs"
import * as Report from "../Report.js"

/** Whether the process runs as a GitHub Actions step. */
export const active = (): boolean => process.env.GITHUB_ACTIONS === "true"

// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C")

/** The most annotations written: GitHub shows ten of a kind per step; the rest are in the summary. */
export const MAX_ANNOTATIONS = 10

/** The annotation command of each severity. */
const LEVEL = { critical: "error", major: "warning", minor: "notice" } as const

/** One annotation per cause of failure, the worst first, at most `MAX_ANNOTATIONS`. */
export const annotations = (report: Report.Report, rerun: string | undefined): string =>
  Report.causesOf(report.findings)
    .slice(0, MAX_ANNOTATIONS)
    .map((c) => {
      const f = c.first
      const title = `${f.severity} · ${f.side === undefined ? "" : `${f.side} · `}${f.check} · ${f.cause}`
      const where = [...new Set(c.findings.map(Report.operationLabel))].join(", ")
      const replay =
        f.side === undefined ? `\nreplay: ${rerun ?? "contract-tests"} --replay ${f.replayId}` : ""
      return `::${LEVEL[f.severity]} title=${escapeProperty(title)}::${escapeData(`${f.message}\nrule ${f.rule}: ${f.source}\n${c.occurrences} occurrences on: ${where}${replay}`)}`
    })
    .join("\n")

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ")

/** The job summary: the verdict and why, what it covers, and a row per cause, the worst first. */
export const summary = (report: Report.Report, covers: string): string => {
  const causes = Report.causesOf(report.findings)
  const rows = causes.map((c) => {
    const f = c.first
    return `| ${f.severity} | ${cell(f.check)} | \`${cell(f.rule)}\` | ${cell([...new Set(c.findings.map(Report.operationLabel))].join(", "))} | ${c.occurrences} | ${cell(f.cause)} |`
  })
  return [
    `### contract-tests: ${Report.verdictText(Report.verdictOf(report))}`,
    "",
    `${Report.findingsCount(report.findings)} (${covers}) · ${report.requests} requests · seed ${report.seed} · ${report.target}`,
    "",
    ...(causes.length > MAX_ANNOTATIONS
      ? [`The first ${MAX_ANNOTATIONS} causes are annotated; all ${causes.length} are below.`, ""]
      : []),
    ...(rows.length === 0
      ? []
      : [
          "| severity | check | rule | operations | occurrences | cause |",
          "|---|---|---|---|---|---|",
          ...rows,
          ""
        ])
  ].join("\n")
}

/** Writes the annotations to stdout and appends the summary, when under GitHub Actions. */
export const publish = (
  report: Report.Report,
  covers: string,
  scrub: (text: string) => string
): void => {
  if (!active()) return
  const lines = annotations(report, report.rerun)
  if (lines !== "") process.stdout.write(scrub(lines) + "\n")
  const file = process.env.GITHUB_STEP_SUMMARY
  if (file !== undefined && file !== "")
    Fs.appendFileSync(file, scrub(summary(report, covers)) + "\n")
}
