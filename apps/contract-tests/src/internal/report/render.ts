/** The implementation of `Report` (see that module's documentation). */
import * as Dimensions from "../dimensions.js"
import { checksOf } from "../checkIds.js"
import { shorten } from "../curl.js"
import { shortened } from "./shortened.js"
import * as Html from "./html.js"
import type { Finding, Report } from "./model.js"
import { operationLabel } from "./label.js"
import { causesOf, findingsCount, plural, verdictOf, verdictText } from "./verdict.js"

/**
 * Whether the run passed: nothing found (or what its verdict's policy says).
 *
 * @since 0.1.0
 * @category predicates
 */
export const passed = (report: Report): boolean => verdictOf(report).pass

/**
 * The process exit code of a report: 0 when it passed, 1 when it failed (its verdict).
 *
 * @since 0.1.0
 * @category rendering
 */
export const exitCode = (report: Report): 0 | 1 => (passed(report) ? 0 : 1)

/**
 * Totals over all cells.
 *
 * @since 0.1.0
 * @category rendering
 */
export const totals = (
  report: Report
): { readonly passed: number; readonly failed: number; readonly skipped: number } =>
  report.cells.reduce(
    (t, c) => ({
      passed: t.passed + c.passed,
      failed: t.failed + c.failed,
      skipped: t.skipped + c.skipped
    }),
    {
      passed: 0,
      failed: 0,
      skipped: 0
    }
  )

/**
 * The report as JSON text.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toJson = (report: Report): string =>
  JSON.stringify(
    {
      ...report,
      findings: report.findings.map(shortened),
      known: report.known.map(shortened),
      observations: report.observations.map((o) =>
        o.body === undefined ? o : { ...o, body: shorten(o.body) }
      )
    },
    null,
    2
  )

const xml = (s: string): string =>
  s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")

/**
 * A finding as plain text: message, replay id, curl and the response.
 *
 * @since 0.1.0
 * @category rendering
 */
export const findingText = (f: Finding): string => findingTextFor(f, undefined)

/** A finding as plain text, its replay line starting with `rerun` (default `contract-tests`). */
const findingTextFor = (whole: Finding, rerun: string | undefined): string => {
  const f = shortened(whole)
  const lines = [
    `[${f.severity}] ${f.side === undefined ? "" : `${f.side} · `}${f.check} · ${operationLabel(f)} · ${f.cause}`,
    `  ${f.message}`,
    `  rule ${f.rule}: ${f.source}`,
    ...(f.detail === undefined ? [] : [`  detail: ${f.detail}`]),
    f.side !== undefined
      ? `  seen ${f.occurrences} time${f.occurrences === 1 ? "" : "s"}`
      : `  seed ${f.seed} · replay: ${rerun ?? "contract-tests"} --replay ${f.replayId}${f.occurrences > 1 ? ` · seen in ${f.occurrences} examples` : ""}${f.shrinkSteps > 0 ? ` · shrunk ${f.shrinkSteps} steps` : ""}`,
    `  ${f.curl}`
  ]
  if (f.response?._tag === "Response")
    lines.push(
      `  → HTTP ${f.response.status} ${f.response.contentType ?? ""} ${f.response.body}`.trimEnd()
    )
  else if (f.response?._tag === "NoResponse") lines.push(`  → no response: ${f.response.error}`)
  return lines.join("\n")
}

/**
 * The report as JUnit XML: a test suite per operation, a test case per check.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toJUnit = (report: Report): string => {
  const ops = [...new Set(report.cells.map((c) => c.operation))]
  const t = totals(report)
  // Each cause of failure is one failing test case (the one count of findings); the cells are
  // the test cases of what ran, passed or skipped.
  const causes = causesOf(report.findings)
  const cases = (op: string) =>
    report.cells
      .filter((c) => c.operation === op)
      .map((c) => {
        const name = `${op === "_" ? "(api)" : op} ${c.check}`
        const head = `    <testcase classname="${xml(`contract.${op === "_" ? "api" : op}`)}" name="${xml(name)}" assertions="${c.passed + c.failed}">`
        if (c.failed > 0)
          return `${head}\n      <system-out>${xml(`${plural(c.failed, "example")} failed: see the findings`)}</system-out>\n    </testcase>`
        if (c.passed === 0 && c.skipped > 0)
          return `${head}\n      <skipped message="${xml(c.skipReasons.join("; "))}"/>\n    </testcase>`
        return `${head}</testcase>`
      })
  const suites = ops.map((op) => {
    const cells = report.cells.filter((c) => c.operation === op)
    const skipped = cells.filter((c) => c.failed === 0 && c.passed === 0 && c.skipped > 0).length
    return `  <testsuite name="${xml(op === "_" ? "(api)" : op)}" tests="${cells.length}" failures="0" errors="0" skipped="${skipped}">\n${cases(op).join("\n")}\n  </testsuite>`
  })
  const failing = causes.map((c) => {
    const f = c.first
    const name = `${f.side === undefined ? "" : `${f.side} · `}${f.check} · ${f.cause}`
    const text = [
      findingTextFor(f, report.rerun),
      `  ${plural(c.occurrences, "occurrence")} on ${[...new Set(c.findings.map(operationLabel))].join(", ")}`,
      ...c.findings.slice(1).map((x) => `  also ${operationLabel(x)}: --replay ${x.replayId}`)
    ].join("\n")
    return `    <testcase classname="contract.findings" name="${xml(name)}">\n      <failure message="${xml(f.message)}" type="${xml(f.check)}">${xml(text)}</failure>\n    </testcase>`
  })
  if (failing.length > 0)
    suites.unshift(
      `  <testsuite name="findings" tests="${failing.length}" failures="${failing.length}" errors="0" skipped="0">\n${failing.join("\n")}\n  </testsuite>`
    )
  const failures = failing.length
  const properties = [
    ...report.observations.map(
      (o, i) =>
        `    <property name="note.${i + 1}.${xml(o.note)}" value="${xml(`${o.operation}: ${o.message}`)}"/>`
    ),
    ...(report.coverage ?? []).map(
      (c) =>
        `    <property name="rule.${xml(c.rule)}" value="${xml(c.judged > 0 ? `judged ${c.judged} on ${c.operations.join(", ")}` : `not judged: ${c.reason ?? "no case"}`)}"/>`
    )
  ]
  const out = [
    ...report.observations.map((o) => `note [${o.note}] ${o.operation}: ${o.message}\n  ${o.curl}`),
    ...report.known.map((f) => `known (baseline): ${f.check} · ${f.operation} · ${f.cause}`),
    ...report.fixed.map(
      (f) => `fixed (in the baseline, no longer found): ${f.rule} · ${f.operation} · ${f.cause}`
    )
  ]
  const extra =
    (properties.length > 0 ? `  <properties>\n${properties.join("\n")}\n  </properties>\n` : "") +
    (out.length > 0 ? `  <system-out>${xml(out.join("\n"))}</system-out>\n` : "")
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="contract-tests" tests="${report.cells.length + failures}" failures="${failures}" errors="0" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${xml(report.startedAt)}">\n<!-- ${xml(verdictText(verdictOf(report)))}; seed ${report.seed}, run ${xml(report.runId)}, ${report.requests} requests, ${t.passed} passed / ${t.failed} failed / ${t.skipped} skipped examples -->\n${extra ? `<testsuite name="(run)" tests="0" failures="0" errors="0" skipped="0">\n${extra}</testsuite>\n` : ""}${suites.join("\n")}\n</testsuites>\n`
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length))
const padStart = (s: string, n: number) => (s.length >= n ? s : " ".repeat(n - s.length) + s)

/**
 * The terminal summary: findings, then a table of operation by check (passed examples, `F`
 * with the failed count, `skip`, or `·` when the check does not apply), then totals.
 *
 * @since 0.1.0
 * @category rendering
 */
export const toTerminal = (report: Report): string => {
  const out: Array<string> = []
  const t = totals(report)
  if (report.findings.length > 0) {
    out.push(`Findings: ${findingsCount(report.findings)}, by cause, the worst first:`, "")
    // A cause on several operations: the first in full, the others by replay id.
    for (const c of causesOf(report.findings)) {
      const [first, ...others] = c.findings
      out.push(findingTextFor(first!, report.rerun))
      out.push(
        `  ${plural(c.occurrences, "occurrence")}${others.length === 0 ? "" : ` on ${plural(c.findings.length, "operation")}`}`
      )
      for (const f of others) out.push(`  also ${operationLabel(f)}: --replay ${f.replayId}`)
      out.push("")
    }
  }
  const ids = checksOf(report.cells)
  const ops = [...new Set(report.cells.map((c) => c.operation))]
  const width = Math.max(10, ...ops.map((o) => o.length)) + 1
  const col = 6
  const header = pad("operation", width) + ids.map((_, i) => padStart(`c${i + 1}`, col)).join("")
  out.push(header, "-".repeat(header.length))
  for (const op of ops) {
    const row = ids.map((id) => {
      const c = report.cells.find((x) => x.operation === op && x.check === id)
      const text =
        c === undefined
          ? "·"
          : c.failed > 0
            ? `F${c.failed}`
            : c.passed > 0
              ? String(c.passed)
              : c.skipped > 0
                ? "skip"
                : "·"
      return padStart(text, col)
    })
    out.push(pad(op === "_" ? "(api)" : op, width) + row.join(""))
  }
  out.push("", ids.map((id, i) => `c${i + 1} ${id}`).join("  "))
  const skips = report.cells.filter((c) => c.skipped > 0 && c.passed === 0 && c.failed === 0)
  if (skips.length > 0) {
    const reasons = new Map<string, Array<string>>()
    for (const c of skips)
      for (const r of c.skipReasons)
        reasons.set(r, [...(reasons.get(r) ?? []), `${c.operation}/${c.check}`])
    out.push("", "Skipped:")
    for (const [r, where] of reasons)
      out.push(`  ${r}: ${[...new Set(where.map((w) => w.split("/")[0]))].join(", ")}`)
  }
  if (report.known.length > 0) {
    out.push("", `Known findings (in the baseline, not failing the run): ${report.known.length}`)
    for (const f of report.known) out.push(`  ${f.check} · ${f.operation} · ${f.cause}`)
  }
  if (report.fixed.length > 0) {
    out.push("", `Fixed (in the baseline, no longer found): ${report.fixed.length}`)
    for (const f of report.fixed) out.push(`  ${f.rule} · ${f.operation} · ${f.cause}`)
  }
  if (report.observations.length > 0) {
    out.push(
      "",
      `Notes (observations that are not musts; they never fail a run): ${report.observations.length}`
    )
    for (const o of report.observations) out.push(`  [${o.note}] ${o.operation}: ${o.message}`)
  }
  if (report.coverage !== undefined) {
    const judged = report.coverage.filter((c) => c.judged > 0)
    out.push(
      "",
      `Contract coverage: ${judged.length} of ${report.coverage.length} rules judged (cases per rule: ${judged.map((c) => c.judged).sort((a, b) => a - b)[0] ?? 0} to ${Math.max(0, ...judged.map((c) => c.judged))})`
    )
    for (const c of report.coverage.filter((c) => c.judged === 0))
      out.push(`  not judged: ${c.rule}: ${c.reason ?? "no case"}`)
  }
  if (report.fields !== undefined) out.push(`Input coverage: ${Dimensions.summary(report.fields)}`)
  for (const n of report.notes) out.push(`note: ${n}`)
  out.push(
    "",
    `${verdictText(verdictOf(report))}${report.known.length > 0 ? ` (+${report.known.length} known)` : ""} · ${report.observations.length} notes · ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped examples${report.repeats ? ` (${report.repeats} repeats drawn again)` : ""} · ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s · seed ${report.seed} · run ${report.runId} · ${report.target}`
  )
  return out.join("\n")
}

/**
 * The report as one self-contained HTML page (no network; it opens from a CI artifact or
 * `file://`): the verdict and counts, the findings with their rule, quoted source and minimal
 * reproduction, filterable by severity, operation, rule and side (a proxy's client and server
 * findings apart), the operation × check matrix as a heatmap, the coverage of each rule and the
 * notes. `secrets` (the API key) are scrubbed from it besides what the report already hides.
 *
 * @since 0.5.0
 * @category rendering
 */
export const toHtml = (
  report: Report,
  options?: { readonly title?: string | undefined; readonly secrets?: Iterable<string> | undefined }
): string => Html.render(report, options)
