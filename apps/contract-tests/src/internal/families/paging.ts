/**
 * Paging: `count`, `limit`, `after` / `before`, `nextCursor` and `order` on every page, and a walk
 * over all pages that yields every item once and ends.
 */
import * as Effect from "effect/Effect"
import type { CheckId } from "../../Checks.js"
import { type Body, type Context, type Family, type Op, skipped, type Suite } from "../context.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { cursorRules, orderFailure, orderObservable, outOfOrder, pageRules } from "../oracles.js"
import { everything, MAX_WALK_PAGES, missingReference, pagesFor, requiredRefs, walk, walkFailure } from "../walk.js"

const CHECKS: ReadonlyArray<CheckId> = ["paging"]

/** Each order a request may ask for (absent reads as `asc`). */
const ORDERS = [undefined, "asc", "desc"] as const

/** How a walk cuts the items into pages. */
interface Shape {
  readonly name: string
  readonly limit: (total: number) => number
}

/**
 * Walks that end on a full page (whose cursor may lead to an empty one), one item short of it,
 * on two pages, on several, and on many small ones, each in every order: where a server resumes
 * a cursor, in either direction, and where it decides that more items follow.
 */
const SHAPES: ReadonlyArray<Shape> = [
  { name: "one full page", limit: (total) => total },
  { name: "one item short of a page", limit: (total) => total - 1 },
  { name: "two pages", limit: (total) => Math.ceil(total / 2) },
  { name: "seven pages", limit: (total) => Math.ceil(total / 7) },
  { name: "twelve pages or one item a page", limit: (total) => Math.ceil(total / 12) }
]

const pagingSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  if (requiredRefs(op, ctx.pools, 0) === undefined) return skipped("paging", op.method, CHECKS, false, missingReference(op, ctx.pools) ?? "missing references")
  const reference = everything(ctx, op)
  return {
    family: "paging",
    method: op.method,
    checks: CHECKS,
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: ORDERS.length * SHAPES.length, at: (i: number) => ({ order: ORDERS[i % ORDERS.length], shape: SHAPES[Math.floor(i / ORDERS.length) % SHAPES.length]!, ref: i }) },
    run: ({ order, ref, shape }: { order: "asc" | "desc" | undefined; shape: Shape; ref: number }) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, ref)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        const total = all.items.length
        const limit = Math.min(500, Math.max(1, shape.limit(total)))
        const maxPages = pagesFor(total)
        const body: Body = { ...base, limit, ...(order === undefined ? {} : { order }) }
        const w = yield* walk(ctx, op, body, all.ended ? maxPages : MAX_WALK_PAGES)
        if (w.error !== undefined) return walkFailure(w)
        const out: Array<Outcome> = []
        for (const p of w.pages) out.push(...pageRules(limit, p, p.exchange))
        // A cursor is set only when more items follow: the page it leads to is not empty (a full page's may be).
        out.push(...cursorRules(limit, w.pages))
        const lastExchange = w.pages[w.pages.length - 1]?.exchange
        if (!w.ended && all.ended) out.push(fail("lists.walk-once", "walk does not end", `walking ${total} items with limit ${limit} did not end after ${w.pages.length} pages`, lastExchange))
        const ids = w.items.map((x) => String(x.id))
        const seen = new Set<string>()
        const twice = ids.find((id) => (seen.has(id) ? true : (seen.add(id), false)))
        if (twice !== undefined) out.push(fail("lists.walk-once", "item returned twice", `item ${twice} came back twice in one walk`, lastExchange))
        if (w.ended && all.ended) {
          const expected = new Set(all.items.map((x) => String(x.id)))
          let missing = [...expected].filter((id) => !seen.has(id))
          let extra = [...seen].filter((id) => !expected.has(id))
          if (missing.length > 0 || extra.length > 0) {
            // Someone else may have created objects meanwhile (a shared environment): only items
            // in two reads of everything count as missing, only items in neither as unknown.
            const again = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
            const later = new Set(again.items.map((x) => String(x.id)))
            if (again.error === undefined && again.ended) {
              missing = missing.filter((id) => later.has(id))
              extra = extra.filter((id) => !later.has(id))
            }
          }
          if (missing.length > 0) out.push(fail("lists.walk-complete", "walk misses items", `walking the pages missed ${missing.length} of ${total} items (e.g. ${missing[0]})`, lastExchange))
          if (extra.length > 0) out.push(fail("lists.walk-once", "walk returns unknown items", `walking the pages returned ${extra.length} items a single read does not have`, lastExchange))
        }
        // Across the whole walk, not only within a page; only where items carry createdAt.
        const judgesOrder = orderObservable(op)
        const pair = judgesOrder ? outOfOrder(op, w.items, order) : undefined
        if (pair !== undefined) out.push(orderFailure(pair, order, w.pages.find((p) => p.items.includes(pair[1]))?.exchange))
        return out.length === 0
          ? [pass("paging", ["lists.count", "lists.limit-respected", "lists.after-before", "lists.walk-once", "lists.walk-complete", "lists.next-cursor", ...(judgesOrder ? (["lists.order"] as const) : [])])]
          : out
      })
  }
}

export const paging: Family = {
  name: "paging",
  checks: CHECKS,
  suites: (op, ctx) => [pagingSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
