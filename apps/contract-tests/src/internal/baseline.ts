/** The implementation of `Baseline` (see that module's documentation). */
import * as Schema from "effect/Schema"
import { ContractRules } from "@data-access/schema"
import { isCustomCheckId } from "./checkIds.js"
import type * as Report from "./report/model.js"

/**
 * One known finding: its rule (a custom check's id for its findings), operation and cause (values
 * never enter a cause).
 *
 * @since 0.2.0
 * @category models
 */
export const Entry = Schema.Struct({
  rule: Schema.String.pipe(
    Schema.filter((s) => ContractRules.isRuleId(s) || isCustomCheckId(s) || `${s} is not a rule id`)
  ),
  operation: Schema.String,
  cause: Schema.String,
  /** For people reading the file; not compared. */
  message: Schema.optional(Schema.String)
}).annotations({ identifier: "BaselineEntry" })

/**
 * @since 0.2.0
 * @category models
 */
export interface Entry extends Schema.Schema.Type<typeof Entry> {}

/**
 * A baseline file.
 *
 * @since 0.2.0
 * @category models
 */
export const Baseline = Schema.Struct({
  version: Schema.Literal(1),
  findings: Schema.Array(Entry)
}).annotations({ identifier: "Baseline" })

/**
 * @since 0.2.0
 * @category models
 */
export interface Baseline extends Schema.Schema.Type<typeof Baseline> {}

/**
 * The key a finding is matched by.
 *
 * @since 0.2.0
 * @category matching
 */
export const key = (f: {
  readonly rule: string
  readonly operation: string
  readonly cause: string
}): string => `${f.rule}\u0000${f.operation}\u0000${f.cause}`

/**
 * The baseline of a report: its findings, new and known.
 *
 * @since 0.2.0
 * @category constructors
 */
export const fromReport = (report: Report.Report): Baseline => ({
  version: 1,
  findings: [...report.known, ...report.findings].map((f) => ({
    rule: f.rule,
    operation: f.operation,
    cause: f.cause,
    message: f.message
  }))
})

/**
 * A baseline as JSON text.
 *
 * @since 0.2.0
 * @category encoding
 */
export const toJson = (baseline: Baseline): string => JSON.stringify(baseline, null, 2) + "\n"

/**
 * Reads a baseline from JSON text.
 *
 * @since 0.2.0
 * @category decoding
 */
export const decodeJson = Schema.decodeUnknown(Schema.parseJson(Baseline), { errors: "all" })

/**
 * Whether a finding is one of the baseline's (known: it does not fail the run).
 *
 * @since 0.7.0
 * @category matching
 */
export const knownBy = (
  baseline: Baseline | undefined
): ((f: {
  readonly rule: string
  readonly operation: string
  readonly cause: string
}) => boolean) => {
  const keys = new Set(baseline?.findings.map(key))
  return (f) => keys.has(key(f))
}

/**
 * Splits findings by a baseline: new ones, known ones, and the baseline entries that did not
 * reproduce although their operation and check ran (`ran`).
 *
 * @since 0.2.0
 * @category matching
 */
export const apply = (
  baseline: Baseline,
  findings: ReadonlyArray<Report.Finding>,
  ran: (operation: string, rule: ContractRules.RuleId) => boolean
): {
  readonly findings: ReadonlyArray<Report.Finding>
  readonly known: ReadonlyArray<Report.Finding>
  readonly fixed: ReadonlyArray<Entry>
} => {
  const known = knownBy(baseline)
  const found = new Set(findings.map(key))
  return {
    findings: findings.filter((f) => !known(f)),
    known: findings.filter(known),
    fixed: baseline.findings.filter(
      (e) => !found.has(key(e)) && ContractRules.isRuleId(e.rule) && ran(e.operation, e.rule)
    )
  }
}
