/**
 * A selection walked one item a page: `search`, `filter` and `spaceId` select on every page the
 * cursor leads to, not only the first (each page is judged by the selection's oracle, and the walk
 * must return every matching item). A search is walked again with `searchFields: []`, which proto3
 * JSON reads as absent: the default field, `name`, is searched.
 */
import * as Effect from "effect/Effect"
import type { Filter } from "@data-access/schema"
import type { Body, Context, Op, Suite } from "../../context.js"
import { everyReadingSelects, type Row, textOf } from "../../filterReadings.js"
import { selection } from "../../oracles/search-filter.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { asciiLower } from "../../unicodeText.js"
import { judged, readingSuite } from "./judged.js"
import { condition } from "./telling.js"

/** The most items a paged selection may match: its walk is one request a match, and one more. */
const MAX_MATCHES = 6

/** Whether the rows (in walk order) where `test` holds are 2 to MAX_MATCHES, with a row between them where it does not. */
const interleaved = <A>(rows: ReadonlyArray<A>, test: (row: A) => boolean): boolean => {
  const at = rows.flatMap((r, i) => (test(r) ? [i] : []))
  return at.length >= 2 && at.length <= MAX_MATCHES && at[at.length - 1]! - at[0]! >= at.length
}

/** An item's name with only A to Z lower-cased: a term of ASCII found in it is found under every case folding. */
const asciiName = (row: Row): string => asciiLower(textOf(row, "name"))

/**
 * A search term of 3 to 6 ASCII letters, digits, spaces or hyphens of some item's name (no space at
 * either end) that selects interleaved items.
 */
const pagedTerm = (rows: ReadonlyArray<Row>, seed: number): string | undefined => {
  const names = rows.map(asciiName)
  for (let k = 0; k < Math.min(rows.length, 20); k++) {
    const name = names[(seed + k) % rows.length]!
    for (let length = 3; length <= 6; length++) {
      for (let i = 0; i + length <= name.length; i++) {
        const term = name.slice(i, i + length)
        if (
          /^[a-z0-9-](?:[a-z0-9 -]*[a-z0-9-])?$/.test(term) &&
          interleaved(names, (n) => n.includes(term))
        )
          return term
      }
    }
  }
  return undefined
}

type Part = "search" | "no searchFields" | "filter" | "space"

/** The request of one part that selects interleaved items, or `undefined` when the items allow none. */
const pagedBody = (part: Part, rows: ReadonlyArray<Row>, seed: number): Body | undefined => {
  if (part === "search" || part === "no searchFields") {
    const term = pagedTerm(rows, seed)
    if (term === undefined) return undefined
    return part === "search" ? { search: term } : { search: term, searchFields: [] }
  }
  if (part === "filter") {
    // Every other item of a run of them, by id: the items between are outside the selection.
    const start = rows.length <= 5 ? 0 : seed % (rows.length - 4)
    const ids = [0, 2, 4].flatMap((d) => {
      const row = rows[start + d]
      return row === undefined ? [] : [textOf(row, "id")]
    })
    return ids.length < 2
      ? undefined
      : {
          filter: {
            group: { operator: "or", filters: ids.map((id) => condition("id", "equals", id)) }
          }
        }
  }
  const spaces = [...new Set(rows.map((r) => textOf(r, "space_id")).filter((s) => s !== ""))]
  const space = spaces.find((s) => interleaved(rows, (r) => textOf(r, "space_id") === s))
  return space === undefined ? undefined : { spaceId: space }
}

/** One case a part of the List's selection: walked with `limit: 1`, every page judged. */
export const pagedSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const parts: ReadonlyArray<Part> = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(props.includes("search") && props.includes("searchFields")
      ? (["no searchFields"] as const)
      : []),
    ...(props.includes("filter") ? (["filter"] as const) : []),
    ...(props.includes("spaceId") ? (["space"] as const) : [])
  ]
  if (parts.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  return readingSuite(
    op,
    ctx,
    parts.length,
    (i, rows, base, seed) =>
      Effect.gen(function* () {
        const part = parts[i]!
        const picked = pagedBody(part, rows, seed)
        if (picked === undefined) return []
        const body: Body = { ...base, ...picked, limit: 1 }
        const selected = selection(op, body)
        if (selected === undefined) return []
        const certain = (row: Row) =>
          selected.matches(row) &&
          (typeof body.search !== "string" || asciiName(row).includes(body.search)) &&
          (body.filter === undefined ||
            everyReadingSelects(body.filter as Filter.Filter<string>, row))
        return yield* judged(ctx, op, base, rows, {
          body,
          certain,
          described: `${selected.described}, walked one item a page`,
          rule: selected.rule,
          missRule: selected.rule,
          mode: "paged",
          maxPages: MAX_MATCHES + 2
        })
      }),
    "paged"
  )
}
