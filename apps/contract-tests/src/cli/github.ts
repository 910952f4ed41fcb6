/**
 * Under GitHub Actions (`GITHUB_ACTIONS=true`): an `::error` annotation per cause of failure and a
 * Markdown job summary (`GITHUB_STEP_SUMMARY`), beside the reports.
 */
import * as Fs from "node:fs"
import type * as Report from "../Report.js"

/** Whether the process runs as a GitHub Actions step. */
export const active = (): boolean => process.env.GITHUB_ACTIONS === "true"

// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
const escapeData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C")

/** The findings grouped by check and cause, the terminal report's grouping. */
const causes = (report: Report.Report) => {
  const groups = new Map<string, Array<Report.Finding>>()
  for (const f of report.findings) {
    const key = `${f.side ?? ""}\u0000${f.check}\u0000${f.cause}`
    groups.set(key, [...(groups.get(key) ?? []), f])
  }
  return [...groups.values()]
}

/** One `::error` line per cause of failure. */
export const annotations = (report: Report.Report, rerun: string | undefined): string =>
  causes(report)
    .map((fs) => {
      const f = fs[0]!
      const title = `${f.side === undefined ? "" : `${f.side} · `}${f.check} · ${f.cause}`
      const where = [...new Set(fs.map((x) => x.operation))].join(", ")
      const replay =
        f.side === undefined ? `\nreplay: ${rerun ?? "contract-tests"} --replay ${f.replayId}` : ""
      return `::error title=${escapeProperty(title)}::${escapeData(`${f.message}\nrule ${f.rule}: ${f.source}\noperations: ${where}${replay}`)}`
    })
    .join("\n")

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ")

/** The job summary: the verdict, what it covers, and a row per cause of failure. */
export const summary = (report: Report.Report, covers: string): string => {
  const verdict = report.findings.length === 0 ? "PASS" : "FAIL"
  const rows = causes(report).map((fs) => {
    const f = fs[0]!
    return `| ${f.severity} | ${cell(f.check)} | \`${cell(f.rule)}\` | ${cell([...new Set(fs.map((x) => x.operation))].join(", "))} | ${cell(f.cause)} |`
  })
  return [
    `### contract-tests: ${verdict}`,
    "",
    `${report.findings.length} findings (${covers}) · ${report.requests} requests · seed ${report.seed} · ${report.target}`,
    "",
    ...(rows.length === 0
      ? []
      : ["| severity | check | rule | operations | cause |", "|---|---|---|---|---|", ...rows, ""])
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
