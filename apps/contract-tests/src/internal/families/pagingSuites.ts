/**
 * Paging: `count`, `limit`, `after` / `before`, `nextCursor` and `order` on every page, and a walk
 * over all pages that yields every item once and ends.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Body, type Context, type Family, type Op, send, type Suite } from "../context.js"
import { type BudgetExhausted, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { boundedPage, pageOf, unaccounted, walkedOnce, walkedVaried } from "../oracles/paging.js"
import { type Bound, boundAccepted } from "../oracles/valid-accepted.js"
import {
  everything,
  itemsOf,
  MAX_WALK_PAGES,
  type Page,
  pagesFor,
  requiredRefs,
  walk,
  type Walk
} from "../listWalk.js"
import { skippedWithoutReferences } from "./shared/references.js"
import { walkFailure } from "./shared/walkFailure.js"

const CHECKS: ReadonlyArray<CheckId> = ["paging"]

/**
 * A second read of everything when a walk missed or added items (`found`), for the oracle to tell
 * them from objects someone else created or deleted meanwhile (a shared environment).
 */
const confirmation = (
  ctx: Context,
  op: Op,
  base: Body,
  found: { readonly missing: ReadonlyArray<string>; readonly extra: ReadonlyArray<string> }
): Effect.Effect<Walk | undefined, BudgetExhausted> =>
  found.missing.length === 0 && found.extra.length === 0
    ? Effect.succeed(undefined)
    : walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)

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
  const unfilled = skippedWithoutReferences("paging", op, ctx, CHECKS)
  if (unfilled !== undefined) return unfilled
  const reference = everything(ctx, op)
  return {
    family: "paging",
    method: op.method,
    checks: CHECKS,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Enumerated",
      count: ORDERS.length * SHAPES.length,
      at: (i: number) => ({
        order: ORDERS[i % ORDERS.length],
        shape: SHAPES[Math.floor(i / ORDERS.length) % SHAPES.length]!,
        ref: i
      })
    },
    run: ({
      order,
      ref,
      shape
    }: {
      order: "asc" | "desc" | undefined
      shape: Shape
      ref: number
    }) =>
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
        const again =
          w.ended && all.ended ? yield* confirmation(ctx, op, base, unaccounted(all, w)) : undefined
        return walkedOnce({ op, limit, order, all, w, again })
      })
  }
}

// ---------------------------------------------------------------------------------------------
// a walk whose page size changes from page to page
// ---------------------------------------------------------------------------------------------

/**
 * Page sizes of a walk of `total` items, page by page: small and large in turn (one item, then
 * three, two, a sixth of the items, one, a third, five, a sixth and one more), so that a server
 * that resumes a cursor by the page size of the request that made it skips or repeats items.
 */
export const variedLimits = (total: number, shift: number): ((page: number) => number) => {
  const m = Math.max(1, Math.ceil(total / 6))
  const sizes = [1, 3, 2, m, 1, 2 * m, 5, m + 1].map((l) => Math.min(500, l))
  return (page) => sizes[(page + shift) % sizes.length]!
}

/**
 * Walks a List with `limit` set anew on each page (`limits(page)`), the cursor of each page passed
 * back: decisions.md section 10 lets a cursor be bound to `filter`, `search`, `spaceId` and
 * `order`, not to `limit`, so the walk goes on. Stops as `walk` does.
 */
const variedWalk = (
  ctx: Context,
  op: Op,
  body: Body,
  limits: (page: number) => number,
  maxPages: number
): Effect.Effect<Walk & { readonly limits: ReadonlyArray<number> }, BudgetExhausted> =>
  Effect.gen(function* () {
    const pages: Array<Page> = []
    const sent: Array<number> = []
    const cursors = new Set<string>()
    let cursor: string | undefined
    const done = (ended: boolean, error: Walk["error"]) => ({
      items: pages.flatMap((p) => p.items),
      pages,
      ended,
      error,
      limits: sent
    })
    for (let i = 0; i < maxPages; i++) {
      const limit = limits(i)
      const e = yield* send(
        ctx,
        post(op.path, { ...body, limit, ...(cursor === undefined ? {} : { cursor }) })
      )
      const r = Option.getOrUndefined(e.response)
      if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return done(false, e)
      sent.push(limit)
      const page = pageOf(op, r.json.value)
      pages.push({ exchange: e, items: itemsOf(op, r.json.value), meta: page.meta })
      const next = page.meta.nextCursor
      if (typeof next !== "string" || next === "") return done(true, undefined)
      if (cursors.has(next)) break
      cursors.add(next)
      cursor = next
    }
    return done(false, undefined)
  })

/**
 * Walks whose page size changes between pages, in each order: every item once, in order, each
 * page within its own `limit` (decisions.md section 3: "walking every page once yields every
 * item exactly once").
 */
const variedSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const reference = everything(ctx, op)
  const orders = [undefined, "desc"] as const
  return {
    family: "paging-sizes",
    method: op.method,
    checks: CHECKS,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Enumerated",
      count: orders.length * 2,
      at: (i: number) => ({
        order: orders[i % orders.length],
        shift: Math.floor(i / orders.length) * 3
      })
    },
    run: ({ order, shift }: { order: "desc" | undefined; shift: number }) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, 0)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        if (!all.ended || all.items.length < 2) return []
        const total = all.items.length
        const body: Body = { ...base, ...(order === undefined ? {} : { order }) }
        const w = yield* variedWalk(ctx, op, body, variedLimits(total, shift), pagesFor(total))
        if (w.error !== undefined) return walkFailure(w)
        const missing = w.ended ? unaccounted(all, w).missing : []
        const again = yield* confirmation(ctx, op, base, { missing, extra: [] })
        return walkedVaried({ op, order, all, w, again, limits: w.limits })
      })
  }
}

// ---------------------------------------------------------------------------------------------
// both ends of the page size
// ---------------------------------------------------------------------------------------------

/** The first and the last `limit` allowed (decisions.md section 3: "1 to 500"). */
const LIMIT_BOUNDS = [1, 500] as const

/**
 * One-character values of a min-length-1 parent id (ListNativeUsers' `resourceId`), one character
 * under every count a server may use: one code point that is one UTF-16 unit and one byte, and one
 * that is two UTF-16 units and four UTF-8 bytes.
 */
const SHORTEST_IDS = ["x", "\u{1F600}"] as const

/**
 * `limit` 1 and 500 on every List, each accepted and answered with at most that many items; a
 * required parent id of one character accepted (an id that names nothing: not_found or an empty
 * page, decisions.md section 10). The first refused values (0, 501, `""`) are the invalid family's.
 */
const limitBoundsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const parent = op.parent?.required === true ? op.parent.field : undefined
  const bounds: ReadonlyArray<Bound> = [
    ...LIMIT_BOUNDS.map((limit) => ({ limit })),
    ...(parent === undefined ? [] : SHORTEST_IDS.map((value) => ({ field: parent, value })))
  ]
  return {
    family: "limit-bounds",
    method: op.method,
    checks: ["valid-accepted", "paging"],
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: bounds.length, at: (i: number) => bounds[i] },
    run: (bound: Bound) =>
      Effect.gen(function* () {
        const limit = "limit" in bound ? bound.limit : 10
        const body = {
          ...requiredRefs(op, ctx.pools, 0)!,
          limit,
          ...("field" in bound ? { [bound.field]: bound.value } : {})
        }
        const e = yield* send(ctx, post(op.path, body))
        const r = Option.getOrUndefined(e.response)
        if (r === undefined || Inspect.answeredFirst(e) || Inspect.slowNotHung(e)) return []
        if (r.status >= 500) return [Inspect.noServerErrors(e)]
        const accepted = boundAccepted(bound, e)
        return [
          ...(accepted === undefined ? [] : [accepted]),
          ...(r.status === 200 ? boundedPage(op, limit, e) : [])
        ]
      })
  }
}

export const paging: Family = {
  name: "paging",
  checks: ["paging", "valid-accepted"],
  suites: (op, ctx) =>
    [pagingSuite(op, ctx), variedSuite(op, ctx), limitBoundsSuite(op, ctx)].filter(
      (s): s is Suite => s !== undefined
    )
}
