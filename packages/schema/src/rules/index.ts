/**
 * The registry of the contract's checks: one module per check in this folder, each stating the
 * check (id, meaning, severity) and its rules; here in report order. `ContractChecks` and
 * `ContractRules` are derived from it.
 *
 * @since 0.5.0
 */
import { auth } from "./auth.js"
import { createEcho } from "./create-echo.js"
import { errorShape } from "./error-shape.js"
import { invalidRejected } from "./invalid-rejected.js"
import { noServerErrors } from "./no-server-errors.js"
import { paging } from "./paging.js"
import { protocol } from "./protocol.js"
import { responseSchema } from "./response-schema.js"
import { searchFilter } from "./search-filter.js"
import { secrets } from "./secrets.js"
import { stableReads } from "./stable-reads.js"
import { successShape } from "./success-shape.js"
import { timestamps } from "./timestamps.js"
import { updateSemantics } from "./update-semantics.js"
import { validAccepted } from "./valid-accepted.js"

/**
 * Every check with its rules, in report order.
 *
 * @since 0.5.0
 * @category rules
 */
export const checks = [
  noServerErrors,
  successShape,
  errorShape,
  responseSchema,
  timestamps,
  validAccepted,
  invalidRejected,
  auth,
  protocol,
  createEcho,
  secrets,
  updateSemantics,
  paging,
  searchFilter,
  stableReads
] as const

type AnyCheck = (typeof checks)[number]

/**
 * A check id (`response-schema`).
 *
 * @since 0.5.0
 * @category models
 */
export type CheckId = AnyCheck["id"]

/**
 * A rule id (`lists.count`).
 *
 * @since 0.5.0
 * @category models
 */
export type RuleId = AnyCheck["rules"][number]["id"]

/** The rules of a check, each with that check's id. */
type RulesOf<C> = C extends {
  readonly id: infer I
  readonly rules: ReadonlyArray<infer R>
}
  ? R & { readonly check: I }
  : never

/**
 * A rule with the check it belongs to.
 *
 * @since 0.5.0
 * @category models
 */
export type RuleEntry = RulesOf<AnyCheck>

/**
 * Every rule, each with its check, grouped by check in report order.
 *
 * @since 0.5.0
 * @category rules
 */
export const rules: ReadonlyArray<RuleEntry> = checks.flatMap((c) =>
  c.rules.map((r) => ({ ...r, check: c.id }) as RuleEntry)
)

const ids: ReadonlySet<string> = new Set(rules.map((r) => r.id))

/**
 * Whether a string is a rule id.
 *
 * @since 0.5.0
 * @category guards
 */
export const isRuleId = (s: string): s is RuleId => ids.has(s)
