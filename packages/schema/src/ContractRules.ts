/**
 * The rules a server of this API must follow, as data: every must of `interface.md` and
 * `decisions.md` (sections 1 to 9), each with the sentence that makes it a must and the contract
 * check that tests it. Each check's rules are written in its module of `rules/` (`rules/paging.ts`
 * for `paging`); the reference server's violations that break a rule name it by its id.
 *
 * A contract-test finding always names one of these rules, so every finding rests on a quoted
 * must. What the documents leave open (decisions.md section 10) is not a rule: `latitude` lists
 * those choices, and `notes` the observations about them that are reported but never fail a run.
 *
 * @since 0.2.0
 */
import type { CheckId } from "./ContractChecks.js"
import type * as RuleText from "./internal/ruleText.js"
import * as Registry from "./rules/index.js"

export * from "./internal/latitude.js"
export * from "./internal/ruleAnnotations.js"
export * from "./internal/severalExchanges.js"

/**
 * Where a rule is written: the document, its section and a verbatim quote (whitespace may differ).
 *
 * @since 0.2.0
 * @category models
 */
export interface Source extends RuleText.Source {}

/**
 * One must.
 *
 * @since 0.2.0
 * @category models
 */
export interface Rule {
  readonly id: RuleId
  /** The must, in one sentence. */
  readonly must: string
  readonly source: Source
  /** The contract check whose findings report a break of this rule: the module that states it. */
  readonly check: CheckId
}

/**
 * A rule id (`lists.count`).
 *
 * @since 0.2.0
 * @category models
 */
export type RuleId = Registry.RuleId

/**
 * Every rule, grouped by check in report order.
 *
 * @since 0.2.0
 * @category rules
 */
export const rules: ReadonlyArray<Registry.RuleEntry> = Registry.rules

/**
 * Finds a rule by id.
 *
 * @since 0.2.0
 * @category rules
 */
export const byId: ReadonlyMap<RuleId, Rule> = new Map(rules.map((r) => [r.id, r]))

/**
 * The rule of an id (every `RuleId` has one).
 *
 * @since 0.2.0
 * @category rules
 */
export const get = (id: RuleId): Rule => byId.get(id)!

/**
 * Whether a string is a rule id.
 *
 * @since 0.2.0
 * @category guards
 */
export const isRuleId: (s: string) => s is RuleId = Registry.isRuleId
