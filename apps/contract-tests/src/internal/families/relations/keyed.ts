/** Reads by another key than `id`: a Get by `keyId` finds the objects of each known value. */
import * as Effect from "effect/Effect"
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Context, type Op, send, skipped, type Suite } from "../../context.js"
import { post } from "../../http.js"
import { knownKeyFound } from "../../oracles/search-filter.js"
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
      Effect.map(send(ctx, post(op.path, { [lookup]: value })), (e) =>
        knownKeyFound(op, lookup, value, e)
      )
  }
}
