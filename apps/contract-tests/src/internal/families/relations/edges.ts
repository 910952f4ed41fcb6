/**
 * The edges of a list: walks that end on a full page, one short of a full page, one item a page,
 * and on no items (a search or a filter that matches nothing, a parent with no items).
 */
import * as Effect from "effect/Effect"
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Body, type Context, type Op, type Suite } from "../../context.js"
import * as Gen from "../../generate.js"
import { edgeWalked, missedInWalk } from "../../oracles/paging.js"
import { selectsNothing } from "../../oracles/search-filter.js"
import { requestPropertyNames } from "../../pools.js"
import { everything, MAX_WALK_PAGES, pagesFor, requiredRefs, walk } from "../../listWalk.js"
import { condition } from "./select.js"
import { skippedWithoutReferences } from "../shared/references.js"
import { walkFailure } from "../shared/walkFailure.js"

const EDGES: ReadonlyArray<CheckId> = ["paging", "search-filter"]

/** At most this many pages in an edge walk (one item a page walks at most this many items). */
const EDGE_PAGES = 12

type Edge = "full" | "short" | "one" | "no-match-search" | "no-match-filter" | "no-items-parent"

/** A limit with which the walk ends on a full page (`total` a multiple of it), in at most EDGE_PAGES pages. */
const fullLimit = (total: number): number | undefined => {
  for (let l = Math.max(1, Math.ceil(total / EDGE_PAGES)); l <= Math.min(total, 500); l++)
    if (total % l === 0) return l
  return undefined
}

/** A limit with which the last page holds one item less than it (at least 2). */
const shortLimit = (total: number): number | undefined => {
  for (let l = Math.max(2, Math.ceil((total + 1) / EDGE_PAGES)); l <= 500; l++)
    if ((total + 1) % l === 0) return l
  return undefined
}

export const edgesSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const unfilled = skippedWithoutReferences("edges", op, ctx, EDGES)
  if (unfilled !== undefined) return unfilled
  const props = requestPropertyNames(op)
  const base0 = requiredRefs(op, ctx.pools, 0)!
  const nothing = `ct-none-${ctx.runId}-qz`
  const edges: ReadonlyArray<Edge> = [
    "full",
    "short",
    "one",
    ...(props.includes("search") ? (["no-match-search"] as const) : []),
    ...(props.includes("filter") &&
    Gen.isValid(op, { ...base0, limit: 1, filter: condition("name", nothing) })
      ? (["no-match-filter"] as const)
      : []),
    ...(op.parent?.required === true ? (["no-items-parent"] as const) : [])
  ]
  const reference = everything(ctx, op)
  return {
    family: "edges",
    method: op.method,
    checks: EDGES,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Enumerated",
      count: edges.length * 2,
      at: (i: number) => ({ edge: edges[Math.floor(i / 2)]!, order: i % 2 === 0 ? "asc" : "desc" })
    },
    run: ({ edge, order }: { edge: Edge; order: "asc" | "desc" }) =>
      Effect.gen(function* () {
        let base = base0
        if (edge === "no-items-parent") {
          // A parent with no items, among the first few known (none may be known).
          const parent = op.parent!
          let empty: Body | undefined
          for (let n = 0; n < 6 && empty === undefined; n++) {
            const b = requiredRefs(op, ctx.pools, n)!
            if (n > 0 && b[parent.field] === base0[parent.field]) break
            const w = yield* reference(b)
            if (w.error === undefined && w.ended && w.items.length === 0) empty = b
          }
          if (empty === undefined) return []
          base = empty
        }
        const listed = yield* reference(base)
        if (listed.error !== undefined) return walkFailure(listed)
        if (!listed.ended) return []
        const total = listed.items.length
        const empty =
          edge === "no-match-search" || edge === "no-match-filter" || edge === "no-items-parent"
        const limit =
          edge === "full"
            ? fullLimit(total)
            : edge === "short"
              ? shortLimit(total)
              : edge === "one"
                ? 1
                : 5
        if (limit === undefined) return []
        const body: Body = { ...base, limit, order }
        if (edge === "no-match-search") {
          if (
            listed.items.some(
              (x) => typeof x.name === "string" && x.name.toLowerCase().includes(nothing)
            )
          )
            return []
          body.search = nothing
        } else if (edge === "no-match-filter") {
          if (listed.items.some((x) => x.name === nothing)) return []
          body.filter = condition("name", nothing)
        }
        // Room for an empty page after a full last one; one item a page walks at most EDGE_PAGES items to their end.
        const maxPages = empty ? 3 : pagesFor(edge === "one" ? Math.min(total, EDGE_PAGES) : total)
        const w = yield* walk(ctx, op, body, maxPages)
        if (w.error !== undefined) return walkFailure(w)
        // Items left out of a walk that ended are read again (everything) before they count as missing.
        const again =
          !empty && w.ended && missedInWalk(listed, w).length > 0
            ? yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
            : undefined
        const paged = edgeWalked({
          op,
          empty,
          complete: edge !== "one" || total <= EDGE_PAGES,
          limit,
          order,
          listed,
          walk: w,
          again
        })
        return empty ? [...paged, ...selectsNothing(op, body, w, edge)] : paged
      })
  }
}
