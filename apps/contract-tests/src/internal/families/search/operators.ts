/** Every string operator of a List's filter once, with a value that tells it from its neighbouring readings. */
import * as Effect from "effect/Effect"
import type { Filter } from "@data-access/schema"
import type { Context, Op, Suite } from "../../context.js"
import { textOf } from "../../filterReadings.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { judgedFilter, kindOf, readingSuite, stringFilterKeys } from "./judged.js"
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
  return readingSuite(op, ctx, operators.length, (i, rows, base, seed) => {
    // Keys whose values are text on the items read (a boolean key is judged by the random cases).
    const texts = keys.filter(
      (k) => kindOf(rows, k) === "string" && rows.some((r) => textOf(r, k) !== "")
    )
    if (texts.length === 0) return Effect.succeed([])
    const operator = operators[i]!
    const key = texts[(i + seed) % texts.length]!
    const sample = rows[(seed + i * 7) % rows.length]!
    const own = textOf(sample, key)
    const value = tellingValue(rows, key, operator, own, (t) =>
      piecesOf(t, (seed + i) % 4, 0, false)
    )
    const filter = condition(key, operator, value)
    return judgedFilter(ctx, op, base, rows, filter, `filter ${JSON.stringify(filter)}`)
  })
}
