/**
 * A latitude probe and the verdicts every probe composes: an answer on its own, and the faithful
 * answers to a value or a request a server may refuse (stored exactly as sent, served, or refused
 * with invalid_argument), each judged by its check's oracle.
 */
import * as Effect from "effect/Effect"
import { type ContractRules, Filter } from "@data-access/schema"
import { type Context, type FieldPath, type Op, pathText, send } from "../../context.js"
import { type BudgetExhausted, type Exchange, type RawRequest } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { createdExactly } from "../../oracles/create-echo.js"
import { updatedExactly } from "../../oracles/update-semantics.js"
import { servedOrInvalid } from "../../oracles/valid-accepted.js"
import { accepts } from "../../schemas.js"
import type { Outcome, Verdict } from "../../outcome.js"

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

/**
 * Accepted and stored exactly as sent, or refused with invalid_argument: the two faithful answers
 * to a value a server may refuse (string limits, formats), judged by create-echo or
 * update-semantics (what it stored) and valid-accepted (the refusal).
 */
export const acceptedExactlyOrInvalid =
  (op: Op, path: FieldPath, value: unknown, what: string) =>
  (e: Exchange): ReadonlyArray<Outcome> => {
    if (Inspect.takenCreate(op, e)) return []
    const stored =
      op.kind === "create"
        ? createdExactly(op, e, path, value, what)
        : updatedExactly(op, e, path, value, what)
    const served = servedOrInvalid(e, what, `${what} in ${pathText(path)}`, "accepts")
    return [stored, served].filter((o): o is Outcome => o !== undefined)
  }

/** Whether a body decodes with the operation's request schema. */
export const decodesFor = (op: Op): ((b: unknown) => boolean) => accepts(op.request)

export const stringValue = (value: string) => ({ "@type": Filter.STRING_VALUE_TYPE, value })

/** Served (the answer judged as any), or refused with invalid_argument: the faithful answers to a request a server may refuse (a filter, an enum left out). */
export const servedOrInvalidRead =
  (op: Op, what: string, skewMillis: number) =>
  (e: Exchange): ReadonlyArray<Outcome> => {
    const verdict = servedOrInvalid(e, what, what, "serves")
    if (verdict === undefined) return []
    return Inspect.statusOf(e) === 200
      ? [...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok), verdict]
      : [verdict]
  }
