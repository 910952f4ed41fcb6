/**
 * The violations of the `paging` check: the records whose rule `ContractRules` gives to that check,
 * and the helpers only they use.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { Json } from "../../Collections.js"
import { sortKey } from "../store.js"
import { decodeCursor, encodeCursor } from "../cursor.js"
import type { Body, Handler, Op, RouteHook } from "../pipeline-types.js"
import { listIgnores, responding } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

type Page = { readonly items: ReadonlyArray<Json>; readonly meta: Record<string, unknown> }

const pageOf = (op: Op, body: Json): Page | undefined => {
  const items = op.itemField === undefined ? undefined : body[op.itemField]
  return Array.isArray(items)
    ? { items: items as ReadonlyArray<Json>, meta: { ...(body.listMetadata as Body | undefined) } }
    : undefined
}

const cursorAt = (order: "asc" | "desc", item: Json) =>
  encodeCursor({ order, key: sortKey(item), id: String(item.id) })

/** paging-duplicates: the next cursor points at the page's next-to-last item, so the next page repeats the last. */
const pointCursorBack = (op: Op, body: Json): Json => {
  const page = pageOf(op, body)
  const cursor =
    typeof page?.meta.nextCursor === "string" ? decodeCursor(page.meta.nextCursor) : undefined
  if (page === undefined || cursor === undefined || page.items.length < 2) return body
  return {
    ...body,
    listMetadata: {
      ...page.meta,
      nextCursor: cursorAt(cursor.order, page.items[page.items.length - 2]!)
    }
  }
}

/**
 * paging-skips: the page is read with one item more, which is left out; the next cursor points at
 * it, so the next page starts after it. When nothing follows that item, the page ends normally.
 */
const skipOne = (op: Op, body: Json, limit: number, order: "asc" | "desc"): Json => {
  const page = pageOf(op, body)
  if (page === undefined || page.items.length <= limit) return body
  const kept = page.items.slice(0, limit)
  const last = kept[kept.length - 1]!
  const nextCursor =
    page.meta.nextCursor !== "" && page.meta.nextCursor !== undefined
      ? page.meta.nextCursor
      : cursorAt(order, last)
  return {
    ...body,
    [op.itemField!]: kept,
    listMetadata: { ...page.meta, count: kept.length, after: String(last.id), nextCursor }
  }
}

/** A hook on the handler of every list: the page it answers, changed. */
const onPages =
  (change: (op: Op, body: Json, order: "asc" | "desc") => Json): RouteHook<Handler> =>
  (next, op) =>
    op.kind === "list"
      ? (request, ctx) =>
          Effect.map(next(request, ctx), (body) =>
            change(op, body, request.order === "desc" ? "desc" : "asc")
          )
      : next

/** cursor-page-number: a cursor that names a page by its number (`page-<n>`). */
const PAGE_CURSOR = /^page-(\d{1,6})$/

/**
 * cursor-page-number: every page is cut from all the items the request selects, in its order, at
 * the page number the cursor names times this request's `limit`: a walk that keeps its limit gets
 * every item once, one that changes it between pages skips or repeats items.
 */
const pageNumberCursors: RouteHook<Handler> = (next, op) => {
  const itemField = op.itemField
  if (op.kind !== "list" || itemField === undefined) return next
  return (request, ctx) => {
    const cursor = typeof request.cursor === "string" ? request.cursor : ""
    const named = PAGE_CURSOR.exec(cursor)
    // Another cursor is the faithful server's to read (or refuse).
    if (cursor !== "" && named === null) return next(request, ctx)
    const page = named === null ? 0 : Number(named[1])
    const limit = Number(request.limit)
    return Effect.gen(function* () {
      const all: Array<Json> = []
      let after: string | undefined
      for (let i = 0; i < 1000; i++) {
        const { cursor: _, ...rest } = request
        const body = yield* next(
          after === undefined ? { ...rest, limit: 500 } : { ...rest, limit: 500, cursor: after },
          ctx
        )
        const p = pageOf(op, body)
        if (p === undefined) return body
        all.push(...p.items)
        const nextCursor = p.meta.nextCursor
        if (typeof nextCursor !== "string" || nextCursor === "") break
        after = nextCursor
      }
      const items = all.slice(page * limit, page * limit + limit)
      const more = page * limit + limit < all.length
      return {
        [itemField]: items,
        listMetadata: {
          count: items.length,
          after: String(items[items.length - 1]?.id ?? ""),
          before: String(items[0]?.id ?? ""),
          nextCursor: more ? `page-${page + 1}` : ""
        }
      } as Json
    })
  }
}

export const pagingCountMismatch = violation({
  name: "paging-count-mismatch",
  rule: "lists.count",
  description: "`listMetadata.count` is one more than the number of items.",
  hooks: {
    respond: responding(
      (body) => {
        const meta = (body.listMetadata ?? {}) as Body
        body.listMetadata = { ...meta, count: Number(meta.count ?? 0) + 1 }
      },
      (op) => op.kind === "list"
    )
  }
})

export const limitExceeded = violation({
  name: "limit-exceeded",
  rule: "lists.limit-respected",
  description: "Pages hold `limit` + 1 items when there are that many.",
  hooks: {
    handler: (next, op) =>
      op.kind === "list"
        ? (request, ctx) => next({ ...request, limit: (request.limit as number) + 1 }, ctx)
        : next
  }
})

export const pagingDuplicates = violation({
  name: "paging-duplicates",
  rule: "lists.walk-once",
  description: "`nextCursor` points one item back, so the next page repeats the last item.",
  hooks: { handler: onPages((op, body) => pointCursorBack(op, body)) }
})

export const pagingSkips = violation({
  name: "paging-skips",
  rule: "lists.walk-complete",
  description: "`nextCursor` points one item ahead, so each next page skips an item.",
  hooks: {
    handler: (next, op) =>
      op.kind === "list"
        ? (request, ctx) => {
            const limit = request.limit as number
            const order = request.order === "desc" ? "desc" : "asc"
            return Effect.map(next({ ...request, limit: limit + 1 }, ctx), (body) =>
              skipOne(op, body, limit, order)
            )
          }
        : next
  }
})

export const nextCursorOnLastPage = violation({
  name: "next-cursor-on-last-page",
  rule: "lists.next-cursor",
  description: "The last page carries a `nextCursor`, which leads to an empty page.",
  hooks: {
    handler: onPages((op, body, order) => {
      const page = pageOf(op, body)
      const last = page?.items[page.items.length - 1]
      if (
        page === undefined ||
        last === undefined ||
        (page.meta.nextCursor !== "" && page.meta.nextCursor !== undefined)
      )
        return body
      return { ...body, listMetadata: { ...page.meta, nextCursor: cursorAt(order, last) } }
    })
  }
})

export const emptyPageNextCursor = violation({
  name: "empty-page-next-cursor",
  rule: "lists.empty-page",
  description:
    "An empty page (a filter, search or parent that selects nothing) carries a `nextCursor`, which leads to another empty page.",
  hooks: {
    handler: onPages((op, body, order) => {
      const page = pageOf(op, body)
      if (
        page === undefined ||
        page.items.length > 0 ||
        (page.meta.nextCursor !== "" && page.meta.nextCursor !== undefined)
      )
        return body
      return {
        ...body,
        listMetadata: { ...page.meta, nextCursor: encodeCursor({ order, key: "", id: "" }) }
      }
    })
  }
})

export const afterBeforeSwapped = violation({
  name: "after-before-swapped",
  rule: "lists.after-before",
  description: "`listMetadata.after` and `before` are swapped.",
  hooks: {
    handler: onPages((op, body) => {
      const page = pageOf(op, body)
      return page === undefined
        ? body
        : {
            ...body,
            listMetadata: { ...page.meta, after: page.meta.before, before: page.meta.after }
          }
    })
  }
})

export const orderIgnored = violation({
  name: "order-ignored",
  rule: "lists.order",
  description: "`order: desc` is ignored; pages are always ascending.",
  hooks: { prepare: listIgnores("order") }
})

export const cursorPageNumber = violation({
  name: "cursor-page-number",
  rule: "lists.walk-complete",
  description:
    "`nextCursor` names the next page by its number, and a page starts at that number times the request's `limit`: a walk that changes `limit` between pages skips or repeats items.",
  hooks: { handler: pageNumberCursors }
})
