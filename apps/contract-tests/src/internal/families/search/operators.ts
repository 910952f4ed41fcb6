/** Every string operator of a List's filter once, with a value that tells it from its neighbouring readings. */
import * as Effect from "effect/Effect"
import type { Filter } from "@data-access/schema"
import type { Context, Op, Suite } from "../../context.js"
import { evaluate, readings, type Row, rowOf, textOf } from "../../oracles/filters.js"
import { requestPropertyNames } from "../../pools.js"
import { everything, requiredRefs, walkFailure } from "../../walk.js"
import { judged, kindOf, readSuite, stringFilterKeys } from "./judged.js"
import { condition, NEIGHBOURS, piecesOf, tellingValue } from "./telling.js"

/**
 * Every operator once on each string key (in turn) of a List's filter, with a value that tells it
 * from its neighbouring readings, chosen from the items read: the random cases of `searchSuite`
 * may not reach each operator on a short run.
 */
export const operatorsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("filter")) return undefined
  const keys = stringFilterKeys(op)
  if (keys.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const operators = Object.keys(NEIGHBOURS) as ReadonlyArray<Filter.Operator>
  const reference = everything(ctx, op)
  const seed = Math.abs(Math.trunc(ctx.seed))
  return readSuite(op, {
    cases: { _tag: "Enumerated", count: operators.length, at: (i) => i },
    run: (i: number) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, seed)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        if (!all.ended) return []
        const rows = all.items.map((x) => rowOf(op, x))
        // Keys whose values are text on the items read (a boolean key is judged by the random cases).
        const texts = keys.filter(
          (k) => kindOf(rows, k) === "string" && rows.some((r) => textOf(r, k) !== "")
        )
        if (texts.length === 0) return []
        const operator = operators[i]!
        const key = texts[(i + seed) % texts.length]!
        const sample = rows[(seed + i * 7) % rows.length]!
        const own = textOf(sample, key)
        const value = tellingValue(rows, key, operator, own, (t) =>
          piecesOf(t, (seed + i) % 4, 0, false)
        )
        const filter = condition(key, operator, value)
        const certain = (row: Row) =>
          readings.every((r) => evaluate(filter, (k) => textOf(row, k), r))
        return yield* judged(ctx, op, base, rows, {
          body: { ...base, limit: 500, filter },
          certain,
          described: `filter ${JSON.stringify(filter)}`,
          rule: "filter.match",
          missRule: "filter.match",
          mode: "filter"
        })
      })
  })
}
