/** `search`, `filter` and `spaceId` in one request: a List returns the items that every part selects. */
import * as Effect from "effect/Effect"
import type { Filter } from "@data-access/schema"
import type { Body, Context, Op, Suite } from "../../context.js"
import { everyReadingSelects, type Row, textOf } from "../../filterReadings.js"
import { selection } from "../../oracles/search-filter.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { judged, readingSuite, stringFilterKeys } from "./judged.js"
import { condition, piecesOf, tellingTerm } from "./telling.js"

/**
 * `search`, `filter` and `spaceId` in one request, each selecting items the others leave out: a
 * List returns the items that every part selects (the parts of a request all apply), so an item
 * that one part alone selects must not come back, and one that all parts select must.
 */
export const combinedSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const filterKeys = stringFilterKeys(op)
  const parts = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(props.includes("filter") && filterKeys.length > 0 ? (["filter"] as const) : []),
    ...(props.includes("spaceId") ? (["space"] as const) : [])
  ]
  if (parts.length < 2 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  // Every pair of parts, then all of them.
  const combos: ReadonlyArray<ReadonlyArray<(typeof parts)[number]>> = [
    ...parts.flatMap((a, i) => parts.slice(i + 1).map((b) => [a, b])),
    ...(parts.length > 2 ? [parts] : [])
  ]
  const count = combos.length * 2
  return readingSuite(
    op,
    ctx,
    count,
    (i, rows, base, seed) =>
      Effect.gen(function* () {
        if (rows.length < 2) return []
        const combo = combos[i % combos.length]!
        // Each part describes its own item (the first in even cases, the second part another item in odd ones).
        const first = rows[(seed + i * 7) % rows.length]!
        const second =
          rows[(seed + i * 7 + 1 + (i % 2) * Math.floor(rows.length / 2)) % rows.length]!
        const body: Body = { ...base, limit: 500 }
        const described: Array<string> = []
        combo.forEach((part, j) => {
          const row = i % 2 === 0 || j === 0 ? first : second
          if (part === "search") {
            const name = textOf(row, "name")
            const term = tellingTerm(rows, ["name"], name, piecesOf(name, (seed + i) % 4, 0, false))
            if (term !== "") {
              body.search = term
              described.push(`search ${JSON.stringify(term)}`)
            }
          } else if (part === "filter") {
            const key =
              filterKeys.find((k) => k !== "name" && textOf(row, k) !== "") ??
              filterKeys.find((k) => textOf(row, k) !== "")
            if (key !== undefined) {
              body.filter = condition(key, "equals", textOf(row, key))
              described.push(`filter ${JSON.stringify(body.filter)}`)
            }
          } else {
            const spaceId = textOf(row, "space_id")
            if (spaceId !== "") {
              body.spaceId = spaceId
              described.push(`spaceId ${JSON.stringify(spaceId)}`)
            }
          }
        })
        if (described.length < 2) return []
        const selected = selection(op, body)
        if (selected === undefined) return []
        const certain = (row: Row) =>
          selected.matches(row) &&
          (body.filter === undefined ||
            everyReadingSelects(body.filter as Filter.Filter<string>, row))
        return yield* judged(ctx, op, base, rows, {
          body,
          certain,
          described: described.join(" and "),
          rule: selected.rule,
          missRule: selected.rule,
          mode: "combined"
        })
      }),
    "combined"
  )
}
