/**
 * Parts of reports joined into one: the counts of an operation and check summed, findings once per
 * rule, operation and cause, observations once each, and why a rule no case judged was not judged.
 * The runner joins its suites' results with them, `Report.merge` the reports of a run's shards.
 */
import { ContractRules, Operations } from "@data-access/schema"
import * as Baseline from "../baseline.js"
import { type AnyCheckId, checkRank, compareChecks } from "../checkIds.js"
import type * as Report from "./model.js"

const methods: ReadonlyArray<string> = Operations.all.map((o) => o.method)

/** An operation's place in the report: the operation table's order, the whole API's suites last. */
const operationOrder = (operation: string): number =>
  operation === "_" ? methods.length : methods.indexOf(operation)

/** One cell per operation and check, the counts summed, in the operation table's and the checks' order. */
export const joinCells = (cells: Iterable<Report.Cell>): Array<Report.Cell> => {
  const joined = new Map<string, Report.Cell>()
  for (const c of cells) {
    const key = `${c.operation}\u0000${c.check}`
    const seen = joined.get(key)
    joined.set(
      key,
      seen === undefined
        ? c
        : {
            operation: c.operation,
            check: c.check,
            passed: seen.passed + c.passed,
            failed: seen.failed + c.failed,
            skipped: seen.skipped + c.skipped,
            skipReasons: [...new Set([...seen.skipReasons, ...c.skipReasons])]
          }
    )
  }
  return [...joined.values()].sort(
    (a, b) =>
      operationOrder(a.operation) - operationOrder(b.operation) || compareChecks(a.check, b.check)
  )
}

/**
 * One finding per rule, operation and cause: the most shrunk one is kept, the occurrences are
 * summed. In report order: by check, then operation.
 */
export const joinFindings = <F extends Report.Finding>(findings: Iterable<F>): Array<F> => {
  const order = (f: Report.Finding) => checkRank(f.check) * 1000 + methods.indexOf(f.operation)
  const unique = new Map<string, F>()
  for (const f of findings) {
    const key = Baseline.key(f)
    const seen = unique.get(key)
    if (seen === undefined) unique.set(key, f)
    else {
      const keep = f.shrinkSteps > seen.shrinkSteps ? f : seen
      unique.set(key, { ...keep, occurrences: seen.occurrences + f.occurrences })
    }
  }
  return [...unique.values()].sort((a, b) => order(a) - order(b) || compareChecks(a.check, b.check))
}

/** Each observation once per note, operation and message. */
export const joinObservations = (
  observations: Iterable<Report.Observation>
): Array<Report.Observation> => {
  const observed = new Map<string, Report.Observation>()
  for (const o of observations) observed.set(`${o.note}\u0000${o.operation}\u0000${o.message}`, o)
  return [...observed.values()]
}

/** Rules judged only when the server's answers give the occasion, never provoked (a shared environment is not pushed into a rate limit). */
const PASSIVE: Partial<Record<ContractRules.RuleId, string>> = {
  "errors.retry-after": "judged on rate-limited answers only, and the target sent none",
  "errors.rate-limit-headers":
    "judged on answers with rate-limit headers only, and the target sent none (decisions.md section 10)"
}

/**
 * Why no case judged `rule`: its check not selected, its suites skipped (with their reasons), or no
 * case of the run reaching it.
 */
export const unjudgedReason = (
  rule: ContractRules.Rule,
  cells: ReadonlyArray<Report.Cell>,
  selected: ReadonlySet<AnyCheckId>
): string => {
  const own = cells.filter((c) => c.check === rule.check)
  const reasons = [...new Set(own.flatMap((c) => c.skipReasons))]
  return !selected.has(rule.check)
    ? `excluded (check ${rule.check} not selected)`
    : own.every((c) => c.passed + c.failed === 0) && reasons.length > 0
      ? `skipped: ${reasons.join("; ")}`
      : (PASSIVE[rule.id] ??
        `no case of this run reached it${reasons.length > 0 ? ` (skipped elsewhere: ${reasons.join("; ")})` : ""}`)
}

/** Every rule with the cases that judged it, given by `judgedBy` (cases and operations); why, for a rule none judged. */
export const coverageWith = (
  judgedBy: (rule: ContractRules.Rule) => {
    readonly judged: number
    readonly operations: ReadonlySet<string>
  },
  cells: ReadonlyArray<Report.Cell>,
  selected: ReadonlySet<AnyCheckId>
): Array<Report.RuleCoverage> =>
  ContractRules.rules.map((r): Report.RuleCoverage => {
    const { judged, operations } = judgedBy(r)
    return judged > 0
      ? { rule: r.id, check: r.check, judged, operations: [...operations] }
      : {
          rule: r.id,
          check: r.check,
          judged: 0,
          operations: [],
          reason: unjudgedReason(r, cells, selected)
        }
  })
