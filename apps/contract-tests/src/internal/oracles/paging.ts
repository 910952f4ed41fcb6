/**
 * paging: one page on its own (count, limit, after / before, order) and `nextCursor` across the
 * pages of a walk.
 */
import type { Exchange } from "../http.js"
import { asRecord } from "../json.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { type Op, objectPropertyNames } from "../context.js"
import { compareCreated, compareIds, itemsOf, type Walk } from "../walk.js"
import { type ExchangeOracle, onSuccess, successJson } from "./oracle.js"

/** A page of a List answer: its items and `listMetadata` (`{}` when absent). */
export const pageOf = (op: Op, json: unknown) => ({
  items: itemsOf(op, json),
  meta: asRecord(asRecord(json)?.listMetadata) ?? {}
})

/**
 * One page on its own (decisions.md section 4): `count` is the number of items, at most `limit`
 * items, `after` / `before` the ids of the last / first item (`""` or absent on an empty page).
 */
export const pageRules = (
  limit: number | undefined,
  page: {
    readonly items: ReadonlyArray<Record<string, unknown>>
    readonly meta: Record<string, unknown>
  },
  e: Exchange
): ReadonlyArray<Outcome> => {
  const out: Array<Outcome> = []
  const count = typeof page.meta.count === "number" ? page.meta.count : 0
  if (count !== page.items.length)
    out.push(
      fail(
        "lists.count",
        "count differs from items",
        `listMetadata.count is ${count} but the page has ${page.items.length} items`,
        e,
        `listMetadata.count = ${count}`
      )
    )
  if (limit !== undefined && page.items.length > limit)
    out.push(
      fail(
        "lists.limit-respected",
        "more items than limit",
        `a page has ${page.items.length} items, more than limit ${limit}`,
        e
      )
    )
  const first = page.items[0]?.id ?? ""
  const last = page.items[page.items.length - 1]?.id ?? ""
  if ((page.meta.after ?? "") !== last || (page.meta.before ?? "") !== first) {
    out.push(
      fail(
        "lists.after-before",
        "after/before",
        `listMetadata.after/before are ${JSON.stringify(page.meta.after ?? "")}/${JSON.stringify(page.meta.before ?? "")}, expected the ids of the last/first item ${JSON.stringify(last)}/${JSON.stringify(first)}`,
        e
      )
    )
  }
  return out
}

/**
 * `nextCursor` across the pages of a walk (decisions.md section 3: "Set when more items follow;
 * empty or absent on the last page"): a page whose cursor leads to an empty page breaks it, unless
 * the page is full and that empty page ends the walk: a server that fills a page cannot always
 * know that nothing follows, and the empty page can be read as the last one.
 */
export const cursorRules = (
  limit: number | undefined,
  pages: ReadonlyArray<{
    readonly items: ReadonlyArray<unknown>
    readonly meta: Record<string, unknown>
    readonly exchange: Exchange
  }>
): ReadonlyArray<Outcome> => {
  const hasCursor = (meta: Record<string, unknown>) =>
    typeof meta.nextCursor === "string" && meta.nextCursor !== ""
  // A page size of the server's own below `limit` (no must says a page holds `limit` items while
  // more follow), as the walk shows it: the largest page that more items followed.
  const served = Math.max(
    0,
    ...pages.flatMap((p, i) => ((pages[i + 1]?.items.length ?? 0) > 0 ? [p.items.length] : []))
  )
  const out: Array<Outcome> = []
  pages.forEach((p, i) => {
    const next = pages[i + 1]
    if (next === undefined || next.items.length > 0 || !hasCursor(p.meta)) return
    const full =
      limit !== undefined &&
      p.items.length > 0 &&
      (p.items.length === limit || (served > 0 && p.items.length >= served))
    if (full && !hasCursor(next.meta)) return
    const what = p.items.length === 0 ? "an empty page" : full ? "a full page" : "a page"
    out.push(
      fail(
        p.items.length === 0 ? "lists.empty-page" : "lists.next-cursor",
        `nextCursor on ${p.items.length === 0 ? "an empty" : "the last"} page`,
        `${what} carries nextCursor, but no items follow (the next page is empty${hasCursor(next.meta) ? " and carries a cursor again" : ""})`,
        next.exchange
      )
    )
  })
  return out
}

/**
 * Whether a List's order is observable: its items carry `createdAt` (decisions.md section 3: "by
 * `createdAt`, ties by `id`"). Items without it (saved log queries) come in an order the server
 * keeps to itself, and ids are opaque (section 5: "Readers must not parse them"), so ids alone
 * never judge an order.
 */
export const orderObservable = (op: Op): boolean =>
  op.kind === "list" && objectPropertyNames(op).has("createdAt")

/**
 * Items of a List in the order `order` asks (createdAt, then id); the first pair out of order, if
 * any. Never a pair for a List whose order is not observable (`orderObservable`): every caller
 * judges the order through this one function.
 */
export const outOfOrder = (
  op: Op,
  items: ReadonlyArray<Record<string, unknown>>,
  order: unknown
): readonly [Record<string, unknown>, Record<string, unknown>] | undefined => {
  if (!orderObservable(op)) return undefined
  const sign = order === "desc" ? -1 : 1
  // Under `desc` the documents do not say which way ties by `id` go: either, the same way throughout.
  let ties: number | undefined = order === "desc" ? undefined : -1
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!
    const b = items[i]!
    const byCreated = sign * compareCreated(a, b)
    if (byCreated > 0) return [a, b]
    if (byCreated < 0) continue
    const byId = compareIds(a, b)
    if (byId === 0) continue
    ties ??= byId
    if (byId !== ties) return [a, b]
  }
  return undefined
}

export const orderFailure = (
  pair: readonly [Record<string, unknown>, Record<string, unknown>],
  order: unknown,
  e: Exchange | undefined
): Outcome =>
  fail(
    "lists.order",
    `order ${typeof order === "string" ? order : "default"} not respected`,
    `items ${String(pair[0].id)} and ${String(pair[1].id)} are not in ${order === "desc" ? "desc order of createdAt, ties by id one way throughout" : "asc (default) order of createdAt then id"}`,
    e
  )

/**
 * The order of a whole walk, across its pages: the failure of the first pair out of order, with
 * the exchange of the page that holds its second item, if there is one.
 */
export const walkOrderFailure = (op: Op, w: Walk, order: unknown): Outcome | undefined => {
  const pair = outOfOrder(op, w.items, order)
  return pair === undefined
    ? undefined
    : orderFailure(pair, order, w.pages.find((p) => p.items.includes(pair[1]))?.exchange)
}

const page = onSuccess(
  "page",
  ["lists.count", "lists.limit-respected", "lists.after-before", "lists.order"],
  (op, sent, e) => {
    const json = successJson(e)
    if (op.kind !== "list" || json === undefined) return []
    const p = pageOf(op, json)
    const out = [...pageRules(typeof sent.limit === "number" ? sent.limit : undefined, p, e)]
    // A cursor's page follows the walk it came from: its order is judged across the walk (the runner), not here.
    const cursor = typeof sent.cursor === "string" && sent.cursor !== ""
    const judgesOrder = !cursor && orderObservable(op)
    const pair = judgesOrder ? outOfOrder(op, p.items, sent.order) : undefined
    if (pair !== undefined) out.push(orderFailure(pair, sent.order, e))
    return out.length === 0
      ? [
          passes([
            "lists.count",
            "lists.limit-respected",
            "lists.after-before",
            ...(judgesOrder ? (["lists.order"] as const) : [])
          ])
        ]
      : out
  }
)

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [page]
