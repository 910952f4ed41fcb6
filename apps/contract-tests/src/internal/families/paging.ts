/**
 * Paging: `count`, `limit`, `after` / `before`, `nextCursor` and `order` on every page, and a walk
 * over all pages that yields every item once and ends.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import type { CheckId } from "../../Checks.js"
import { type Body, type Context, type Family, type Op, skipped, type Suite } from "../context.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { cursorRules, orderFailure, orderObservable, outOfOrder, pageRules } from "../oracles.js"
import { everything, MAX_WALK_PAGES, missingReference, requiredRefs, walk } from "../walk.js"

const CHECKS: ReadonlyArray<CheckId> = ["paging"]

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
    cases: {
      _tag: "Property",
      arbitrary: fc.record({ pages: fc.integer({ min: 1, max: 12 }), order: fc.constantFrom(undefined, "asc", "desc"), ref: fc.nat({ max: 1000 }) }),
      examples: Math.max(3, Math.ceil(ctx.examples / 20))
    },
    run: ({ pages, order, ref }: { pages: number; order: "asc" | "desc" | undefined; ref: number }) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, ref)!
        const all = yield* reference(base)
        if (all.error !== undefined) return []
        const total = all.items.length
        const limit = Math.max(1, Math.ceil(total / pages))
        const maxPages = Math.ceil(total / limit) + 2
        const body: Body = { ...base, limit, ...(order === undefined ? {} : { order }) }
        const w = yield* walk(ctx, op, body, all.ended ? maxPages : MAX_WALK_PAGES)
        if (w.error !== undefined) return []
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
