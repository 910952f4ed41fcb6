/**
 * The probes of references a server may read either way: an `identityId` of kind
 * `resource_hostname` naming any kind of object, and an update's reference sent as `""`.
 */
import * as Effect from "effect/Effect"
import { type Body, type Context, type Op, send, storedValue } from "../../context.js"
import { type Exchange, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { createEcho } from "../../oracles/create-echo.js"
import { unknownReferenceRefused } from "../../oracles/error-shape.js"
import { defined } from "../../exchangeOracle.js"
import { emptyReferenceApplied } from "../../oracles/update-semantics.js"
import { emptyReferenceServed, servedOrInvalid } from "../../oracles/valid-accepted.js"
import type { Verdict } from "../../outcome.js"
import { referenceOf, requestPropertyNames } from "../../pools.js"
import { answered, decodesFor, type Probe, single } from "./probe.js"

/**
 * Served (the answer judged as any, the link created as sent), or not_found: the faithful answers
 * to an `identityId` that a server may read as another kind of object than the one it names.
 */
const servedOrNotFound =
  (op: Op, sent: Body, what: string, skewMillis: number) =>
  (e: Exchange): ReadonlyArray<Verdict> => {
    if (Inspect.statusOf(e) !== 200)
      return defined(
        unknownReferenceRefused(
          e,
          what,
          "a server takes it as the id of some kind of object, or answers not_found for an id it does not recognise"
        )
      )
    if (Inspect.answeredFirst(e)) return []
    const served = servedOrInvalid(e, what, what, "serves")
    return [
      ...Inspect.basic(op, e, skewMillis).filter((o) => !o.ok),
      ...createEcho(op, sent, e),
      ...(served === undefined ? [] : [served])
    ]
  }

/** Object kinds other than a connector hostname whose ids an `identityId` may name, by pool, in order of preference. */
const OTHER_KINDS: ReadonlyArray<readonly [string, string]> = [
  ["resources", "a resource"],
  ["satellites", "a satellite"],
  ["connectors", "a connector"]
]

/**
 * The probes of `identityId` with `identityType: resource_hostname`, which a server may take as
 * the id of any kind of object: a connector hostname's id and another kind's (one create each).
 */
export const identityProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  const ref = op.kindedReference
  if (op.kind !== "create" || ref === undefined) return []
  const decodes = decodesFor(op)
  // Picked by the run's seed: runs against one deployment do not all make the same link.
  const pick = (pool: string): string | undefined => {
    const ids = ctx.pools.ids[pool] ?? []
    return ids.length === 0 ? undefined : ids[Math.abs(Math.trunc(ctx.seed)) % ids.length]
  }
  const other = OTHER_KINDS.find(([pool]) => pick(pool) !== undefined)
  const ids: ReadonlyArray<readonly [string | undefined, string]> = [
    [pick("connectorHostnames"), "a connector hostname"],
    ...(other === undefined ? [] : [[pick(other[0]), other[1]] as const])
  ]
  return ids.flatMap(([id, kind]): ReadonlyArray<Probe> => {
    const sent = { ...body, [ref.kindField]: "resource_hostname", [ref.field]: id }
    if (id === undefined || !decodes(sent)) return []
    const what = `${ref.field} of ${kind} with ${ref.kindField} resource_hostname`
    return [
      single(
        ctx,
        what,
        "identity-any-kind",
        post(op.path, sent),
        servedOrNotFound(op, sent, what, ctx.skewMillis)
      )
    ]
  })
}

/**
 * The probe of an update's reference sent as `""` (UpdateSatellite's `spaceId`): a server takes the
 * object out of its space (`""` back) or treats the field as not set (the value it had, read by an
 * update that sets nothing); any other answer is wrong under both readings.
 */
export const emptyReferenceProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (op.kind !== "update" || typeof body.id !== "string") return []
  return requestPropertyNames(op)
    .filter((k) => k !== "id" && /Id$/.test(k) && referenceOf(op, k) !== undefined)
    .map((field): Probe => {
      const what = `${field} "" on ${op.method}`
      return {
        name: what,
        latitude: "space-empty-ignored",
        run: Effect.gen(function* () {
          const before = yield* send(ctx, post(op.path, { id: body.id }))
          if (Inspect.statusOf(before) !== 200) return []
          const had = storedValue(op, before, field)
          const e = yield* send(ctx, post(op.path, { id: body.id, [field]: "" }))
          return [
            ...answered("space-empty-ignored", e),
            ...defined(
              emptyReferenceServed(e, what),
              emptyReferenceApplied(op, e, field, had, what)
            )
          ]
        })
      }
    })
}
