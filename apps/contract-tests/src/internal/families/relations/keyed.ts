/** Reads by another key than `id`: a Get by `keyId` finds the objects of each known value. */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Context, objectOf, type Op, send, skipped, type Suite } from "../../context.js"
import { post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { asRecord } from "../../json.js"
import { fail, pass } from "../../outcome.js"
import { referenceOf, valuesOf } from "../../pools.js"

const KEYED: ReadonlyArray<CheckId> = ["search-filter"]

/** A Get by another field than `id` (GetEncryptionKeysByKeyId's `keyId`): each known value finds its objects. */
export const keyedSuite = (op: Op, ctx: Context): Suite | undefined => {
  const lookup = op.lookupKey
  if (op.kind !== "get" || lookup === undefined) return undefined
  const ref = referenceOf(op, lookup)
  const values = (ref === undefined ? [] : valuesOf(ctx.pools, ref)).slice(0, 3)
  if (values.length === 0)
    return skipped("keyed", op.method, KEYED, false, `no known ${lookup} in the fixtures`)
  return {
    family: "keyed",
    method: op.method,
    checks: KEYED,
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: values.length, at: (i: number) => values[i] },
    run: (value: string) =>
      Effect.map(send(ctx, post(op.path, { [lookup]: value })), (e) => {
        const status = Inspect.statusOf(e)
        if (status !== 200 && Inspect.codeOf(e) !== "not_found") return []
        const found = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
        const items = status === 200 ? objectOf(op, found) : undefined
        const hit = Array.isArray(items) && items.some((x) => asRecord(x)?.[lookup] === value)
        return hit
          ? [pass("search-filter", ["keys.known-key-id"])]
          : [
              fail(
                "keys.known-key-id",
                "a known key not found",
                `${op.method} with the ${lookup} ${JSON.stringify(value)} of an existing object answered ${status === 200 ? "no object with it" : "not_found"}`,
                e
              )
            ]
      })
  }
}
