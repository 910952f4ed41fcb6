/**
 * From the suites' results to the report: counts per operation and check, findings deduplicated
 * across the suites of an operation and split by the baseline, observations deduplicated; and the
 * report of a target that does not speak Connect JSON at all.
 */
import * as Option from "effect/Option"
import { ContractRules } from "@data-access/schema"
import * as Baseline from "../baseline.js"
import * as Checks from "@data-access/schema/ContractChecks"
import type * as Report from "../report/model.js"
import { type AnyCheckId, compareChecks } from "../checkIds.js"
import { makeFinding } from "../findings.js"
import type { Exchange } from "../http.js"
import type { Group } from "./plan.js"
import type { SuiteResult } from "./suite.js"
import { coverageWith, joinFindings, joinObservations } from "../report/join.js"

/** One cell per operation and check that ran: the counts of its suites summed. */
export const cellsOf = (
  groups: ReadonlyArray<Group>,
  results: ReadonlyArray<SuiteResult>
): Array<Report.Cell> => {
  const cells: Array<Report.Cell> = []
  const ids = [...new Set(results.flatMap((r) => [...r.counts.keys()]))].sort(compareChecks)
  for (const g of groups) {
    for (const id of ids) {
      const rs = results.filter((r) => r.suite.method === g.method && r.counts.has(id))
      if (rs.length === 0) continue
      const cs = rs.map((r) => r.counts.get(id)!)
      cells.push({
        operation: g.method,
        check: id,
        passed: cs.reduce((n, c) => n + c.passed, 0),
        failed: cs.reduce((n, c) => n + c.failed, 0),
        skipped: cs.reduce((n, c) => n + c.skipped, 0),
        skipReasons: [...new Set(cs.flatMap((c) => [...c.reasons]))]
      })
    }
  }
  return cells
}

/**
 * Every rule with the cases that judged it and their operations; for a rule none judged, why:
 * its check not selected, its suites skipped (with their reasons), or no case of the run reaching it.
 */
export const coverageOf = (
  results: ReadonlyArray<SuiteResult>,
  cells: ReadonlyArray<Report.Cell>,
  selected: ReadonlySet<AnyCheckId>
): Array<Report.RuleCoverage> =>
  coverageWith(
    (r) => {
      let judged = 0
      const operations = new Set<string>()
      for (const result of results) {
        const n = result.rules.get(r.id)
        if (n === undefined) continue
        judged += n
        operations.add(result.suite.method === "_" ? "(api)" : result.suite.method)
      }
      return { judged, operations }
    },
    cells,
    selected
  )

/**
 * One finding per check, operation and cause across the suites of an operation: the most shrunk
 * one is kept, the occurrences are summed. In report order: by check, then operation.
 */
export const uniqueFindings = (results: ReadonlyArray<SuiteResult>): Array<Report.Finding> =>
  joinFindings(results.flatMap((r) => r.findings))

/** The findings split by the baseline: new, known, and fixed entries of the checks that ran. */
export const splitByBaseline = (
  baseline: Baseline.Baseline | undefined,
  findings: ReadonlyArray<Report.Finding>,
  cells: ReadonlyArray<Report.Cell>
) => {
  if (baseline === undefined) return { findings, known: [], fixed: [] }
  const ran = (operation: string, rule: ContractRules.RuleId) => {
    const check = ContractRules.get(rule).check
    return cells.some(
      (c) => c.operation === operation && c.check === check && c.passed + c.failed > 0
    )
  }
  return Baseline.apply(baseline, findings, ran)
}

/** Each observation once per note, operation and message. */
export const uniqueObservations = (
  results: ReadonlyArray<SuiteResult>
): Array<Report.Observation> => joinObservations(results.flatMap((r) => r.observations))

/** The first rule of each check: what a target that does not speak Connect JSON breaks under it. */
const firstRuleOf = (check: Checks.CheckId): ContractRules.RuleId | undefined =>
  ContractRules.rules.find((r) => r.check === check)?.id

/** One finding per check (under its first rule) for a target whose answers are not Connect JSON. */
export const notConnectFindings = (
  checks: ReadonlyArray<Checks.CheckId>,
  probe: Exchange,
  baseUrl: string,
  seed: number,
  secrets: ReadonlyArray<string>
) => {
  const r = Option.getOrUndefined(probe.response)!
  const what = `HTTP ${r.status} with Content-Type ${JSON.stringify(r.headers["content-type"] ?? "")}`
  const findings = checks.flatMap((check): Array<Report.Finding> => {
    const rule = firstRuleOf(check)
    if (rule === undefined) return []
    const outcome = {
      check,
      rule,
      ok: false,
      cause: "the target does not speak Connect JSON",
      message: `the target answers ${what}, not Connect JSON, to ${probe.request.path} and to an unknown route; no ${check} case can be judged`,
      exchange: probe
    }
    return [makeFinding({ outcome, operation: "_", baseUrl, secrets, seed, excerpt: 300 })]
  })
  const cells = findings.map((f): Report.Cell => ({
    operation: "_",
    check: f.check,
    passed: 0,
    failed: 1,
    skipped: 0,
    skipReasons: []
  }))
  return { findings, cells, what }
}
