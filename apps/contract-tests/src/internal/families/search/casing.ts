/**
 * `search` with the case of letters beyond ASCII swapped: a term cut from an item's name around
 * such a letter (`ÉTÉ-ü` for `été-Ü`), which only a case folding beyond A to Z finds.
 */
import * as Effect from "effect/Effect"
import type { Context, Op, Suite } from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import { textOf } from "../../filterReadings.js"
import * as Gen from "../../generate.js"
import { requiredRefs } from "../../listWalk.js"
import { searchMissRule } from "../../oracles/search-filter.js"
import { requestPropertyNames } from "../../pools.js"
import { judged, readingSuite } from "./judged.js"

/**
 * One search of a List's default field (`name`) with a term of up to six characters of an item's
 * name around a letter beyond ASCII whose case maps one to one (no space at either end), its case
 * swapped: search is case-insensitive (decisions.md section 3), which a server that folds only A
 * to Z is not. Items whose names hold no such letter give no case (the created family makes some).
 */
export const casingSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("search")) return undefined
  if (requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  return readingSuite(
    op,
    ctx,
    1,
    (_, rows, base, seed) => {
      const names = rows.map((r) => textOf(r, "name")).filter(Gen.hasCaseBeyondAscii)
      if (names.length === 0) return Effect.succeed([])
      const points = Array.from(names[seed % names.length]!)
      const at = points.findIndex(Gen.hasCaseBeyondAscii)
      const term = Gen.swappedCase(
        points
          .slice(Math.max(0, at - 2), at + 4)
          .join("")
          .trim()
      )
      const lower = term.toLowerCase()
      Dimensions.sent(ctx.dimensions, op.method, Dimensions.valid("search", "case"))
      return judged(ctx, op, base, rows, {
        body: { ...base, limit: 500, search: term },
        certain: (row) => textOf(row, "name").toLowerCase().includes(lower),
        described: `search ${JSON.stringify(term)} (an item's name, its case swapped)`,
        rule: "search.match",
        missRule: searchMissRule(term, ["name"]),
        mode: "search"
      })
    },
    "casing"
  )
}
