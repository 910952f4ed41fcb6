/**
 * The ids of checks in a report: a built-in check's, or a custom check's (`Hooks.checks`), whose
 * id is namespaced and neither a built-in check's nor a built-in rule's; and their report order.
 */
import type * as Brand from "effect/Brand"
import { ContractRules } from "@data-access/schema"
import * as Checks from "@data-access/schema/ContractChecks"

/** The id of a custom check (`acme.names-lowercase`), once checked. */
export type CustomCheckId = string & Brand.Brand<"@data-access/contract-tests/CustomCheckId">

/** The id of a built-in or a custom check. */
export type AnyCheckId = Checks.CheckId | CustomCheckId

/** The id of a built-in rule, or of a custom check (its one rule). */
export type AnyRuleId = ContractRules.RuleId | CustomCheckId

/** A namespaced id: words of letters, digits, `_` and `-`, joined by dots, at least two. */
export const NAMESPACED = /^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_][A-Za-z0-9_-]*)+$/

/** Whether `s` can be a custom check's id: namespaced, and neither a built-in check nor rule. */
export const isCustomCheckId = (s: string): s is CustomCheckId =>
  NAMESPACED.test(s) && !Checks.isCheckId(s) && !ContractRules.isRuleId(s)

/** A check's place in a report: the built-in checks in catalogue order, the custom ones after them. */
export const checkRank = (id: string): number => {
  const i = Checks.ids.indexOf(id as Checks.CheckId)
  return i < 0 ? Checks.ids.length : i
}

/** Orders checks as a report does: by `checkRank`, custom ones by id. */
export const compareChecks = (a: string, b: string): number =>
  checkRank(a) - checkRank(b) || (a < b ? -1 : a > b ? 1 : 0)

/** The checks of a report's cells, in report order. */
export const checksOf = (cells: Iterable<{ readonly check: AnyCheckId }>): Array<AnyCheckId> =>
  [...new Set([...cells].map((c) => c.check))].sort(compareChecks)
