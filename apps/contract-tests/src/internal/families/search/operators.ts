/** Every string operator of a List's filter once, with a value that tells it from its neighbouring readings; nested groups told from their misreadings. */
import * as Effect from "effect/Effect"
import type { Filter } from "@data-access/schema"
import type { Context, Op, Suite } from "../../context.js"
import { textOf } from "../../filterReadings.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { judgedFilter, kindOf, readingSuite, stringFilterKeys } from "./judged.js"
import { filterRule } from "../../oracles/search-filter.js"
import { condition, NEIGHBOURS, piecesOf, tellingNested, tellingValue } from "./telling.js"

/** The depths of the nested groups sent (decisions.md section 3: groups nest to any depth). */
const NESTED_DEPTHS = [2, 3, 2]

/**
 * Every operator once on each string key (in turn) of a List's filter, with a value that tells it
 * from its neighbouring readings, chosen from the items read: the random cases of `searchSuite`
 * may not reach each operator on a short run. Then groups nested two and three deep, each group's
 * operator told from its misreadings (`tellingNested`).
 */
export const operatorsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("filter")) return undefined
  const keys = stringFilterKeys(op)
  if (keys.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const operators = Object.keys(NEIGHBOURS) as ReadonlyArray<Filter.Operator>
  const count = operators.length + NESTED_DEPTHS.length
  return readingSuite(
    op,
    ctx,
    count,
    (i, rows, base, seed) => {
      // Keys whose values are text on the items read (a boolean key is judged by the random cases).
      const texts = keys.filter(
        (k) => kindOf(rows, k) === "string" && rows.some((r) => textOf(r, k) !== "")
      )
      if (texts.length === 0) return Effect.succeed([])
      if (i >= operators.length) {
        // Groups within groups, chosen so that every misreading of a group selects other items.
        const filter = tellingNested(rows, texts, NESTED_DEPTHS[i - operators.length]!, seed + i)
        if (filter === undefined) return Effect.succeed([])
        const text = JSON.stringify(filter)
        const rule = filterRule(filter, text.includes('"or"'))
        return judgedFilter(ctx, op, base, rows, filter, `filter ${text}`, rule)
      }
      const operator = operators[i]!
      const key = texts[(i + seed) % texts.length]!
      const sample = rows[(seed + i * 7) % rows.length]!
      const own = textOf(sample, key)
      const value = tellingValue(rows, key, operator, own, (t, max) =>
        piecesOf(t, (seed + i) % 4, 0, false, max)
      )
      const filter = condition(key, operator, value)
      return judgedFilter(ctx, op, base, rows, filter, `filter ${JSON.stringify(filter)}`)
    },
    "operators"
  )
}
