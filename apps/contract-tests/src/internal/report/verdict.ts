/**
 * The one count of a report's findings and its one verdict: findings grouped by cause (the same
 * side, check and cause on any operation), their occurrences counted under each; and the verdict
 * word, the reason for it and the exit code it gives, which every rendering and the command line
 * read from here.
 */
import type { Finding, Report, Verdict } from "./model.js"

/** Severities, worst first: the order causes are listed in. */
export const SEVERITIES: ReadonlyArray<Finding["severity"]> = ["critical", "major", "minor"]

/**
 * One cause of failure: its findings (one per operation, the first shown in full) and its
 * occurrences (the examples it was seen in, over every operation).
 *
 * @since 0.7.0
 * @category models
 */
export interface Cause {
  readonly first: Finding
  readonly findings: ReadonlyArray<Finding>
  readonly occurrences: number
}

/** What findings of one cause share: their side, check and cause. */
export const causeKey = (f: Pick<Finding, "side" | "check" | "cause">): string =>
  `${f.side ?? ""}\u0000${f.check}\u0000${f.cause}`

/**
 * The findings grouped by cause, the worst severity first (in order of appearance within one).
 *
 * @since 0.7.0
 * @category rendering
 */
export const causesOf = (findings: ReadonlyArray<Finding>): Array<Cause> => {
  const groups = new Map<string, Array<Finding>>()
  for (const f of findings) {
    const key = causeKey(f)
    groups.set(key, [...(groups.get(key) ?? []), f])
  }
  return [...groups.values()]
    .map((fs) => ({
      first: fs[0]!,
      findings: fs,
      occurrences: fs.reduce((n, f) => n + Math.max(1, f.occurrences), 0)
    }))
    .sort((a, b) => SEVERITIES.indexOf(a.first.severity) - SEVERITIES.indexOf(b.first.severity))
}

/** `n thing`, with an s past one. */
export const plural = (n: number, thing: string): string => `${n} ${thing}${n === 1 ? "" : "s"}`

/**
 * The count of findings every rendering shows: causes, with their occurrences.
 *
 * @since 0.7.0
 * @category rendering
 */
export const findingsCount = (findings: ReadonlyArray<Finding>): string => {
  const causes = causesOf(findings)
  const occurrences = causes.reduce((n, c) => n + c.occurrences, 0)
  // "findings" whatever the number: CI log searches match `FAIL: 1 findings`.
  return `${causes.length} findings${causes.length === 0 ? "" : ` (${plural(occurrences, "occurrence")})`}`
}

/**
 * The policy a verdict is given under: `--fail-on-skip`, and the proxy's `--fail-on`.
 *
 * @since 0.7.0
 * @category models
 */
export interface Policy {
  readonly failOnSkip?: boolean | undefined
  readonly failOn?: "client" | "server" | "any" | "none" | undefined
}

/**
 * The verdict of a report under a policy: FAIL for a finding that counts (any, or only the side
 * `failOn` names), or for skipped examples under `failOnSkip`; the reason says which.
 *
 * @since 0.7.0
 * @category rendering
 */
export const judgeReport = (report: Report, policy: Policy = {}): Verdict => {
  const failOn = policy.failOn ?? "any"
  const counted =
    failOn === "any" ? report.findings : report.findings.filter((f) => f.side === failOn)
  const others = report.findings.length - counted.length
  const side = failOn === "any" ? "" : ` ${failOn}`
  const notCounted =
    others === 0 ? "" : `; ${plural(others, "other finding")} not failing it (--fail-on ${failOn})`
  if (failOn !== "none" && counted.length > 0)
    return {
      pass: false,
      why: `${findingsCount(counted)}${side === "" ? "" : ` of the${side} side (--fail-on${side})`}${notCounted}`
    }
  const skipped = report.cells.reduce((n, c) => n + c.skipped, 0)
  if (policy.failOnSkip === true && skipped > 0)
    return {
      pass: false,
      why: `0 findings, ${plural(skipped, "example")} skipped (--fail-on-skip)`
    }
  return {
    pass: true,
    why: `0 findings${side === "" ? "" : ` of the${side} side`}${failOn === "none" ? `; ${findingsCount(report.findings)} (--fail-on none)` : notCounted}`
  }
}

/**
 * A report's verdict: the one the command line set, else FAIL for any finding.
 *
 * @since 0.7.0
 * @category rendering
 */
export const verdictOf = (report: Report): Verdict => report.verdict ?? judgeReport(report)

/**
 * The report with its verdict under `policy`, which its renderings and exit code then show.
 *
 * @since 0.7.0
 * @category rendering
 */
export const withVerdict = <R extends Report>(report: R, policy: Policy): R => ({
  ...report,
  verdict: judgeReport(report, policy)
})

/**
 * The verdict as its line starts: `PASS: why` or `FAIL: why`.
 *
 * @since 0.7.0
 * @category rendering
 */
export const verdictText = (verdict: Verdict): string =>
  `${verdict.pass ? "PASS" : "FAIL"}: ${verdict.why}`
