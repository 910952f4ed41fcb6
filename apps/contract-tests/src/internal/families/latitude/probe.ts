/**
 * A latitude probe and the judges every probe shares: an answer on its own, and the faithful
 * answers to a value or a request a server may refuse (stored exactly as sent, served, or refused
 * with invalid_argument).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import { type ContractRules, Filter } from "@data-access/schema"
import { type Context, fullObject, objectOf, type Op, send, show } from "../../context.js"
import { type BudgetExhausted, type Exchange, type RawRequest } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { asRecord } from "../../json.js"
import { fail, type Outcome, pass, type Verdict } from "../../outcome.js"

/** One probe: what it sends, and what every faithful server may answer. */
export interface Probe {
  readonly name: string
  readonly latitude: ContractRules.LatitudeName
  /** Sends the probe's requests and judges the answers. */
  readonly run: Effect.Effect<ReadonlyArray<Verdict>, BudgetExhausted>
  /** The objects it may make, when it sends a create a server may serve (default: one). */
  readonly creates?: number
}

/** An answer on its own: no 5xx (a Connect GET refused as unimplemented aside) and a well-formed error. */
export const answered = (
  latitude: ContractRules.LatitudeName,
  e: Exchange
): ReadonlyArray<Outcome> => {
  const shape = Inspect.errorShape(e)
  // A Connect GET is a form a server may leave out (501 unimplemented).
  return [
    Inspect.noServerErrors(e, latitude === "connect-get"),
    ...(shape === undefined ? [] : [shape])
  ]
}

/** A probe of one request: its answer on its own, and the verdicts of `judge` on it. */
export const single = (
  ctx: Context,
  name: string,
  latitude: ContractRules.LatitudeName,
  request: RawRequest,
  judge: (e: Exchange) => ReadonlyArray<Verdict>
): Probe => ({
  name,
  latitude,
  run: Effect.map(send(ctx, request), (e) => [...answered(latitude, e), ...judge(e)])
})

export const got = (e: Exchange): string => Inspect.summary(e)
export const excerpt = (e: Exchange) =>
  Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 200) })

/** A field's name, or its path in nested objects and arrays. */
export type FieldPath = string | ReadonlyArray<string | number>

const pathText = (field: FieldPath): string =>
  typeof field === "string" ? field : field.filter((p) => typeof p === "string").join(".")

/** The stored value of a field in a create's or update's answer, defaults filled in. */
export const storedValue = (op: Op, e: Exchange, field: FieldPath): unknown => {
  const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
  const path = typeof field === "string" ? [field] : field
  return path.reduce<unknown>(
    (v, k) => (Array.isArray(v) ? v[Number(k)] : asRecord(v)?.[k]),
    fullObject(op.object, objectOf(op, json))
  )
}

/**
 * A request a server may refuse, answered otherwise than served: refused with invalid_argument is
 * faithful, any other answer breaks fields.valid-accepted (`sent`: what was sent, and where).
 */
const refusedAsInvalid = (
  e: Exchange,
  status: number,
  what: string,
  sent: string,
  served: "accepts" | "serves"
): ReadonlyArray<Outcome> =>
  status === 400 && Inspect.codeOf(e) === "invalid_argument"
    ? [pass("valid-accepted", ["fields.valid-accepted"])]
    : [
        fail(
          "fields.valid-accepted",
          `${what}: got ${Inspect.codeOf(e) ?? `HTTP ${status}`}`,
          `${sent} got ${got(e)}; a server ${served} it or refuses it with invalid_argument`,
          e,
          excerpt(e)
        )
      ]

/**
 * Accepted and stored exactly as sent, or refused with invalid_argument: the two faithful answers
 * to a value a server may refuse (string limits, formats).
 */
export const acceptedExactlyOrInvalid =
  (op: Op, path: FieldPath, value: unknown, what: string) =>
  (e: Exchange): ReadonlyArray<Outcome> => {
    const status = Inspect.statusOf(e)
    if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
    if (Inspect.takenCreate(op, e)) return []
    const field = pathText(path)
    if (status === 200) {
      const stored = storedValue(op, e, path)
      if (stored === value)
        return [
          pass("valid-accepted", [
            "fields.valid-accepted",
            op.kind === "create" ? "echo.create" : "updates.apply"
          ])
        ]
      const rule: ContractRules.RuleId = op.kind === "create" ? "echo.create" : "updates.apply"
      return [
        fail(
          rule,
          `${what}: accepted but stored otherwise`,
          `${what} in ${field} was accepted, but the answer holds ${show(stored)} instead of the value sent`,
          e,
          `${field} = ${show(stored)}`
        )
      ]
    }
    return refusedAsInvalid(e, status, what, `${what} in ${field}`, "accepts")
  }

/** Whether a body decodes with the operation's request schema. */
export const decodesFor = (op: Op) => {
  const decode = ParseResult.decodeUnknownEither(op.request)
  return (b: unknown): boolean => Either.isRight(decode(b))
}

export const stringValue = (value: string) => ({ "@type": Filter.STRING_VALUE_TYPE, value })

/** Served (the answer judged as any), or refused with invalid_argument: the faithful answers to a request a server may refuse (a filter, an enum left out). */
export const servedOrInvalid =
  (op: Op, what: string, skewMillis: number) =>
  (e: Exchange): ReadonlyArray<Outcome> => {
    const status = Inspect.statusOf(e)
    if (status === undefined || status >= 500 || Inspect.answeredFirst(e)) return []
    if (status === 200)
      return [
        ...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok),
        pass("valid-accepted", ["fields.valid-accepted"])
      ]
    return refusedAsInvalid(e, status, what, what, "serves")
  }

/** A refusal of a compressed body as a server that leaves compression out answers it: 415, or unimplemented. */
export const encodingLeftOut = (e: Exchange): boolean =>
  Inspect.statusOf(e) === 415 || Inspect.codeOf(e) === "unimplemented"
