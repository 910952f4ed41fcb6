/**
 * The contract checks a server of this API is held to: one id per check, its one-line meaning and
 * its severity, each stated by its module of `rules/` with the rules it tests. The contract-test
 * runner reports findings under these ids, and the reference server's violation catalogue names the
 * check that must catch each violation.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type * as RuleText from "./internal/ruleText.js"
import * as Registry from "./rules/index.js"
import * as internal from "./internal/contractChecks.js"

/**
 * How much a failed check matters to a user of the API.
 *
 * - `critical`: calls fail or data is wrong or leaks (5xx, secrets echoed, wrong auth).
 * - `major`: a client written against the contract breaks (shapes, codes, paging).
 * - `minor`: the contract is bent in a way most clients survive.
 *
 * @since 0.1.0
 * @category models
 */
export type Severity = RuleText.Severity

/**
 * One check of the catalogue.
 *
 * @since 0.1.0
 * @category models
 */
export interface Check {
  readonly id: CheckId
  readonly meaning: string
  readonly severity: Severity
}

/**
 * Every check, in report order.
 *
 * @since 0.1.0
 * @category checks
 */
export const checks: ReadonlyArray<Check> = internal.checks

/**
 * A check id (`response-schema`).
 *
 * @since 0.1.0
 * @category models
 */
export type CheckId = Registry.CheckId

/**
 * The check ids, in report order.
 *
 * @since 0.1.0
 * @category checks
 */
export const ids: ReadonlyArray<CheckId> = internal.ids

/**
 * Finds a check by id.
 *
 * @since 0.1.0
 * @category checks
 */
export const byId: ReadonlyMap<CheckId, Check> = internal.byId

/**
 * Whether a string is a check id.
 *
 * @since 0.1.0
 * @category guards
 */
export const isCheckId: (s: string) => s is CheckId = internal.isCheckId

/**
 * A check id as a schema.
 *
 * @since 0.1.0
 * @category checks
 */
export const CheckIdSchema: Schema.Schema<CheckId> = internal.CheckIdSchema
