/**
 * `search` and `filter` with an item's name between spaces: a term or a value compares as sent,
 * its spaces included, so a server that trims the term or pads the value finds the item.
 */
import * as Effect from "effect/Effect"
import type { Context, Op, Suite } from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import { textOf } from "../../filterReadings.js"
import { requiredRefs } from "../../listWalk.js"
import { searchMissRule } from "../../oracles/search-filter.js"
import { requestPropertyNames } from "../../pools.js"
import { judged, judgedFilter, readingSuite } from "./judged.js"
import { condition } from "./telling.js"

/**
 * Per List, a search of its default field (`name`) for an item's name with a space before and
 * after it (`search` is a substring match, decisions.md section 3: the name alone does not hold
 * the term), and a filter `name equals` that name with a space after it (another value: SQL's
 * padding of a shorter text with spaces is not equality). Items whose names hold no text between
 * two spaces are selected by neither, under any case folding.
 */
export const spacingSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const fields = requestPropertyNames(op)
  const cases = [
    ...(fields.includes("search") ? (["search"] as const) : []),
    ...(fields.includes("filter") ? (["filter"] as const) : [])
  ]
  if (cases.length === 0) return undefined
  return readingSuite(
    op,
    ctx,
    cases.length,
    (i, rows, base, seed) => {
      const names = rows.map((r) => textOf(r, "name")).filter((n) => n !== "" && n.trim() === n)
      if (names.length === 0) return Effect.succeed([])
      const name = names[seed % names.length]!
      if (cases[i] === "search") {
        const term = ` ${name} `
        Dimensions.sent(ctx.dimensions, op.method, Dimensions.valid("search", "spaces"))
        return judged(ctx, op, base, rows, {
          body: { ...base, limit: 500, search: term },
          // Names that hold the term as it is hold it under every case folding.
          certain: (row) => textOf(row, "name").includes(term),
          described: `search ${JSON.stringify(term)} (an item's name between spaces)`,
          rule: "search.match",
          missRule: searchMissRule(term, ["name"]),
          mode: "search"
        })
      }
      const filter = condition("name", "equals", `${name} `)
      Dimensions.sent(ctx.dimensions, op.method, Dimensions.valid("filter.field.value", "spaces"))
      return judgedFilter(
        ctx,
        op,
        base,
        rows,
        filter,
        `filter ${JSON.stringify(filter)} (an item's name with a space after it)`
      )
    },
    "spacing"
  )
}
