/**
 * The annotations that carry, on a schema constraint, the id of the rule it states; re-exported
 * by `ContractRules`.
 */
import { isRuleId, type RuleId } from "../rules/index.js"

/**
 * The annotation that carries, on the schema constraint that states a must, the id of that rule
 * (`fields.min-length` on a min length of 1): the contract tests cite it for an input that breaks
 * the constraint. A constraint without it states no must of its own (a format's pattern).
 *
 * @since 0.5.0
 * @category annotations
 */
export const RuleAnnotationId: unique symbol = Symbol.for("@data-access/schema/ContractRules/Rule")

/**
 * The annotation that carries, on a field's schema, the rule that its absence breaks when it is
 * required and that rule is not `fields.required` (an absent `limit` breaks `lists.limit-range`).
 *
 * @since 0.5.0
 * @category annotations
 */
export const MissingRuleAnnotationId: unique symbol = Symbol.for(
  "@data-access/schema/ContractRules/MissingRule"
)

/**
 * The annotations that mark a constraint as stating `rule`; `missing` also marks the rule that the
 * field's absence breaks.
 *
 * @example
 * ```ts
 * import * as Schema from "effect/Schema"
 * import { ContractRules } from "@data-access/schema"
 *
 * const Name = Schema.String.pipe(Schema.minLength(1)).annotations(ContractRules.states("fields.min-length"))
 * ```
 *
 * @since 0.5.0
 * @category annotations
 */
export const states = (
  rule: RuleId,
  missing?: RuleId
): { readonly [RuleAnnotationId]: RuleId; readonly [MissingRuleAnnotationId]?: RuleId } =>
  missing === undefined
    ? { [RuleAnnotationId]: rule }
    : { [RuleAnnotationId]: rule, [MissingRuleAnnotationId]: missing }

const annotation = (
  annotations: Readonly<Record<symbol, unknown>>,
  key: symbol
): RuleId | undefined => {
  const v = annotations[key]
  return typeof v === "string" && isRuleId(v) ? v : undefined
}

/**
 * The rule a schema node's constraint states (`RuleAnnotationId`), if it carries one.
 *
 * @since 0.5.0
 * @category annotations
 */
export const statedBy = (ast: {
  readonly annotations: Readonly<Record<symbol, unknown>>
}): RuleId | undefined => annotation(ast.annotations, RuleAnnotationId)

/**
 * The rule that the absence of a required field of this schema breaks: its `MissingRuleAnnotationId`,
 * else `fields.required`.
 *
 * @since 0.5.0
 * @category annotations
 */
export const missingRuleOf = (ast: {
  readonly annotations: Readonly<Record<symbol, unknown>>
}): RuleId => annotation(ast.annotations, MissingRuleAnnotationId) ?? "fields.required"
