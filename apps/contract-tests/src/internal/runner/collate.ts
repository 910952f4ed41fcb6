/**
 * From the suites' results to the report: counts per operation and check, findings deduplicated
 * across the suites of an operation and split by the baseline, observations deduplicated.
 */
import { ContractRules } from "@data-access/schema"
import * as Baseline from "../baseline.js"
import type * as Report from "../report/model.js"
import { type AnyCheckId, compareChecks } from "../checkIds.js"
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
