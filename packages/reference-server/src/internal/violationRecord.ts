/**
 * The shape of a violation record and its constructor, shared by the modules of `violations/`.
 *
 * @internal
 */
import type { ContractRules } from "@data-access/schema"
import type { ViolationHooks } from "./pipeline-types.js"

/**
 * One violation: its name, the rule of `ContractRules` it breaks, what it does and its hooks on
 * the stages of the faithful pipeline (`pipeline-types.ts`).
 */
export interface ViolationRecord<
  N extends string = string,
  R extends ContractRules.RuleId = ContractRules.RuleId
> {
  readonly name: N
  readonly rule: R
  readonly description: string
  readonly hooks: ViolationHooks
}

/** A record, its name and rule kept as literal types. */
export const violation = <const N extends string, const R extends ContractRules.RuleId>(
  record: ViolationRecord<N, R>
): ViolationRecord<N, R> => record
