/**
 * What one case found: a passed check, a failed rule (its check derived), or a note that never
 * fails a run — each with the exchange that shows it.
 */
import { ContractRules } from "@data-access/schema"
import type { CheckId, Severity } from "@data-access/schema/ContractChecks"
import type { AnyCheckId, AnyRuleId } from "./checkIds.js"
import type { Exchange } from "./http.js"

/** One verdict on one case. */
export interface Outcome {
  readonly check: AnyCheckId
  /** The rule a failure breaks (`undefined` for a pass); a custom check's failure breaks its own id. */
  readonly rule: AnyRuleId | undefined
  readonly ok: boolean
  /** Deduplication key of a failure: one finding per rule, operation and cause. No values in it. */
  readonly cause: string
  /** What went wrong, for people. Never holds a secret. */
  readonly message: string
  /** The exchange that shows the failure. */
  readonly exchange: Exchange | undefined
  /** The part of the response that matters (a JSON path and its value, a header...). */
  readonly detail?: string | undefined
  /** The rules a pass judged (for the run's coverage of the contract); a failure judged its `rule`. */
  readonly rules?: ReadonlyArray<ContractRules.RuleId> | undefined
  /** A custom check's failure: its severity and rule text (a built-in's come from the catalogue). */
  readonly custom?: { readonly severity: Severity; readonly rule: string } | undefined
  /** Set on a failure about an object the run created: no other client knows of it from the start. */
  readonly ownObject?: true | undefined
}

/**
 * Whether a failure rests on the state of an object other clients may write too (an update's
 * object, or one the model knows only from the run's writes): it stands only when the run saw no
 * other client write to the target, since another run's write can fall between two of its answers.
 */
export const restsOnShared = (o: Outcome): boolean =>
  !o.ok && o.check === "update-semantics" && o.ownObject !== true

/** An observation that is not a must. */
export interface Note {
  readonly _tag: "Note"
  readonly note: ContractRules.NoteId
  readonly message: string
  readonly exchange: Exchange | undefined
}

/** A passed check, with the rules it judged. */
export const pass = (check: CheckId, rules?: ReadonlyArray<ContractRules.RuleId>): Outcome => ({
  check,
  rule: undefined,
  ok: true,
  cause: "",
  message: "",
  exchange: undefined,
  rules
})

/** The rules an outcome judged: a failure its rule, a pass the rules it names. */
export const judgedRules = (o: Outcome): ReadonlyArray<ContractRules.RuleId> =>
  o.ok ? (o.rules ?? []) : o.rule === undefined || !ContractRules.isRuleId(o.rule) ? [] : [o.rule]

/** A pass of rules of one check, reported under their check, as `fail` reports a rule under its own. */
export const passes = (rules: ReadonlyArray<ContractRules.RuleId>): Outcome =>
  pass(ContractRules.get(rules[0]!).check, rules)

/** A broken rule, reported under the rule's check, with its cause, message, exchange and detail. */
export const fail = (
  rule: ContractRules.RuleId,
  cause: string,
  message: string,
  exchange: Exchange | undefined,
  detail?: string
): Outcome => ({
  check: ContractRules.get(rule).check,
  rule,
  ok: false,
  cause,
  message,
  exchange,
  detail
})

/** A note. */
export const note = (
  id: ContractRules.NoteId,
  message: string,
  exchange: Exchange | undefined
): Note => ({ _tag: "Note", note: id, message, exchange })

/** A suite's case yields outcomes and notes. */
export type Verdict = Outcome | Note

/** Whether a verdict is a note. */
export const isNote = (v: Verdict): v is Note => "_tag" in v && v._tag === "Note"
