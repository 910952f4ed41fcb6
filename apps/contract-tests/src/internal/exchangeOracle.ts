/**
 * What every oracle module shares: one exchange as the oracles read it (`View`), an oracle's
 * record, and how one is made. An oracle's check is the check its rules belong to (the rule's own,
 * `ContractRules.get(rule).check`); only an oracle whose rules span several checks names its own.
 */
import * as Option from "effect/Option"
import { ContractRules } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import type { Body, Op } from "./context.js"
import type { Exchange } from "./http.js"
import type { Outcome, Verdict } from "./outcome.js"
import { statusOf } from "./answerReading.js"

/** A request rule a request breaks: the rule, a cause without values, a message. */
export interface Breach {
  readonly rule: ContractRules.RuleId
  readonly cause: string
  readonly message: string
  /** A form only a lenient server accepts: the row of decisions.md section 10 it relies on. */
  readonly latitude?: ContractRules.LatitudeName | undefined
}

/** One exchange as the oracles read it. */
export interface View {
  /** The operation its path names, `undefined` for an unknown route. */
  readonly op: Op | undefined
  readonly exchange: Exchange
  /** The request body as sent, when it is a JSON object (keys as sent). */
  readonly body: Body | undefined
  /**
   * The request in its canonical encoding (lowerCamelCase, int64 as strings, timestamps in `Z`)
   * when it decodes and breaks no must; `undefined` otherwise.
   */
  readonly sent: Body | undefined
  /** What the request breaks: musts, and forms only a lenient server accepts (`latitude` set). */
  readonly breaches: ReadonlyArray<Breach>
  /** The request's headers (names lower case), the key left out. */
  readonly headers: Readonly<Record<string, string>>
  /** Whether an `X-API-KEY` header with a value came. */
  readonly keyPresent: boolean
  /** The `X-API-KEY` the request sent (a wrong one included), to look for in error answers. */
  readonly apiKey: string | undefined
  /** Whether the request uses a form a server may leave unimplemented (compression, Connect GET). */
  readonly optionalForm: boolean
  /** Whether the answer was read to its end (a relayed answer over the checking limit is not). */
  readonly complete: boolean
  readonly skewMillis: number
}

/** An oracle of one exchange: the rules it judges and how. */
export interface ExchangeOracle {
  readonly name: string
  readonly check: CheckId
  readonly rules: ReadonlyArray<ContractRules.RuleId>
  /** Verdicts on one exchange; none when the exchange is not its kind. */
  readonly judge: (view: View) => ReadonlyArray<Verdict>
}

/** The one check of `rules`, or `check` when they span several (the check the oracle is filed under). */
const checkOf = (
  name: string,
  rules: ReadonlyArray<ContractRules.RuleId>,
  check: CheckId | undefined
): CheckId => {
  if (check !== undefined) return check
  const checks = [...new Set(rules.map((r) => ContractRules.get(r).check))]
  if (checks.length !== 1)
    throw new Error(`oracle ${name}: its rules span the checks ${checks.join(", ")}; name its own`)
  return checks[0]!
}

/** An oracle, its check derived from its rules (given only when they span several checks). */
export const oracle = (o: {
  readonly name: string
  readonly rules: ReadonlyArray<ContractRules.RuleId>
  readonly judge: (view: View) => ReadonlyArray<Verdict>
  readonly check?: CheckId | undefined
}): ExchangeOracle => ({
  name: o.name,
  check: checkOf(o.name, o.rules, o.check),
  rules: o.rules,
  judge: o.judge
})

/** A success oracle: judges a 200 answer to a request that breaks no must. */
export const onSuccess = (
  name: string,
  rules: ReadonlyArray<ContractRules.RuleId>,
  judge: (op: Op, sent: Body, e: Exchange) => ReadonlyArray<Verdict>,
  check?: CheckId
): ExchangeOracle =>
  oracle({
    name,
    rules,
    check,
    judge: (v) =>
      v.op !== undefined && v.sent !== undefined && v.complete && statusOf(v.exchange) === 200
        ? judge(v.op, v.sent, v.exchange)
        : []
  })

/** An oracle of the answer alone, judged once the answer was read to its end. */
export const onAnswer = (
  name: string,
  rules: ReadonlyArray<ContractRules.RuleId>,
  judge: (v: View) => ReadonlyArray<Outcome>
): ExchangeOracle => oracle({ name, rules, judge: (v) => (v.complete ? judge(v) : []) })

export const defined = (...xs: ReadonlyArray<Outcome | undefined>): ReadonlyArray<Outcome> =>
  xs.filter((o): o is Outcome => o !== undefined)

/** The answer's JSON body when it is a 200 with one. */
export const successJson = (e: Exchange): unknown => {
  const r = Option.getOrUndefined(e.response)
  return r === undefined || r.status !== 200 ? undefined : Option.getOrUndefined(r.json)
}
