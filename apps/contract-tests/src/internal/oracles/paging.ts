/**
 * paging: one page on its own (count, limit, after / before, order) and `nextCursor` across the
 * pages of a walk.
 */
import type { ContractRules } from "@data-access/schema"
import type { Exchange } from "../http.js"
import { asRecord } from "../json.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import { type Op, objectPropertyNames } from "../context.js"
import { compareCreated, compareIds, itemsOf, lastOf, type Walk } from "../listWalk.js"
import { type ExchangeOracle, onSuccess, successJson } from "../exchangeOracle.js"
import { type Known, refusalVerdict } from "../refusalVerdict.js"
import { codeOf, statusOf } from "../answerReading.js"

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

/** Every id a walk returned, and the first one it returned twice (the walk read to its end). */
const repeats = (
  items: ReadonlyArray<{ readonly id?: unknown }>
): { readonly seen: ReadonlySet<string>; readonly twice: string | undefined } => {
  const seen = new Set<string>()
  let twice: string | undefined
  for (const item of items) {
    const id = String(item.id)
    if (twice === undefined && seen.has(id)) twice = id
    seen.add(id)
  }
  return { seen, twice }
}

/** The ids of a single read of everything (`all`) a walk missed, and the ones it returned that the read does not have. */
export const unaccounted = (
  all: Walk,
  w: Walk
): { readonly missing: ReadonlyArray<string>; readonly extra: ReadonlyArray<string> } => {
  const { seen } = repeats(w.items)
  const expected = new Set(all.items.map((x) => String(x.id)))
  return {
    missing: [...expected].filter((id) => !seen.has(id)),
    extra: [...seen].filter((id) => !expected.has(id))
  }
}

/**
 * The ids a walk missed and the unknown ones it returned, as a second read of everything
 * (`again`, made when `unaccounted` found any) confirms them: someone else may create or delete
 * objects meanwhile (a shared environment), so only an item in both reads of everything counts as
 * missing, and only one in neither as unknown.
 */
const confirmed = (
  found: ReturnType<typeof unaccounted>,
  again: Walk | undefined
): ReturnType<typeof unaccounted> => {
  if (again === undefined || again.error !== undefined || !again.ended) return found
  const later = new Set(again.items.map((x) => String(x.id)))
  return {
    missing: found.missing.filter((id) => later.has(id)),
    extra: found.extra.filter((id) => !later.has(id))
  }
}

/** The rules a walk over all pages holds to, besides its order. */
const WALK_RULES: ReadonlyArray<ContractRules.RuleId> = [
  "lists.count",
  "lists.limit-respected",
  "lists.after-before",
  "lists.walk-once",
  "lists.walk-complete"
]

/**
 * A walk's verdict: its order judged across all its pages (only where items carry createdAt),
 * then the failures found, or a pass of `rules` and the order where it is observable.
 */
const walkVerdict = (
  op: Op,
  w: Walk,
  order: unknown,
  out: Array<Outcome>,
  rules: ReadonlyArray<ContractRules.RuleId>
): ReadonlyArray<Outcome> => {
  const disorder = walkOrderFailure(op, w, order)
  if (disorder !== undefined) out.push(disorder)
  return out.length === 0
    ? [pass("paging", [...rules, ...(orderObservable(op) ? (["lists.order"] as const) : [])])]
    : out
}

/**
 * The trace of a walk over all pages of a List: the walk (`w`, every page asked with one `limit`
 * and `order`), a single read of everything before it (`all`), and a second one (`again`) when the
 * walk missed or added items.
 */
export interface WalkTrace {
  readonly op: Op
  readonly limit: number
  readonly order: unknown
  readonly all: Walk
  readonly w: Walk
  readonly again: Walk | undefined
}

/**
 * A walk with one page size: each page on its own, its cursors, every item once (lists.walk-once:
 * no item twice, no item the reads of everything lack, an end) and none missed
 * (lists.walk-complete), in order. Live traffic: the proxy sees pages, not walks it knows to be
 * whole over a snapshot, so it judges each page and its cursor (`page`), not these two rules.
 */
export const walkedOnce = ({
  op,
  limit,
  order,
  all,
  w,
  again
}: WalkTrace): ReadonlyArray<Outcome> => {
  const total = all.items.length
  const out: Array<Outcome> = []
  for (const p of w.pages) out.push(...pageRules(limit, p, p.exchange))
  // A cursor is set only when more items follow: the page it leads to is not empty (a full page's may be).
  out.push(...cursorRules(limit, w.pages))
  const lastExchange = w.pages[w.pages.length - 1]?.exchange
  if (!w.ended && all.ended)
    out.push(
      fail(
        "lists.walk-once",
        "walk does not end",
        `walking ${total} items with limit ${limit} did not end after ${w.pages.length} pages`,
        lastExchange
      )
    )
  const { twice } = repeats(w.items)
  if (twice !== undefined)
    out.push(
      fail(
        "lists.walk-once",
        "item returned twice",
        `item ${twice} came back twice in one walk`,
        lastExchange
      )
    )
  if (w.ended && all.ended) {
    const { extra, missing } = confirmed(unaccounted(all, w), again)
    if (missing.length > 0)
      out.push(
        fail(
          "lists.walk-complete",
          "walk misses items",
          `walking the pages missed ${missing.length} of ${total} items (e.g. ${missing[0]})`,
          lastExchange
        )
      )
    if (extra.length > 0)
      out.push(
        fail(
          "lists.walk-once",
          "walk returns unknown items",
          `walking the pages returned ${extra.length} items a single read does not have`,
          lastExchange
        )
      )
  }
  return walkVerdict(op, w, order, out, [...WALK_RULES, "lists.next-cursor"])
}

/**
 * A walk whose page size changed from page to page (`limits`, page by page), over items a single
 * read had whole: each page within its own limit, every item once, none missed, in order. Live
 * traffic: as `walkedOnce`, the proxy judges each page alone.
 */
export const walkedVaried = ({
  op,
  order,
  all,
  w,
  again,
  limits
}: Omit<WalkTrace, "limit"> & {
  readonly limits: ReadonlyArray<number>
}): ReadonlyArray<Outcome> => {
  const total = all.items.length
  const sizes = `limits ${limits.slice(0, 6).join(", ")}${limits.length > 6 ? "..." : ""}`
  const out: Array<Outcome> = []
  w.pages.forEach((p, i) => out.push(...pageRules(limits[i], p, p.exchange)))
  const last = w.pages[w.pages.length - 1]?.exchange
  const { seen, twice } = repeats(w.items)
  if (twice !== undefined)
    out.push(
      fail(
        "lists.walk-once",
        "item returned twice (page size changed)",
        `item ${twice} came back twice in one walk whose page size changed between pages (${sizes})`,
        last
      )
    )
  if (!w.ended)
    out.push(
      fail(
        "lists.walk-once",
        "walk does not end (page size changed)",
        `walking ${total} items with a page size that changed between pages (${sizes}) did not end after ${w.pages.length} pages`,
        last
      )
    )
  else {
    const found = all.items.map((x) => String(x.id)).filter((id) => !seen.has(id))
    const { missing } = confirmed({ missing: found, extra: [] }, again)
    if (missing.length > 0)
      out.push(
        fail(
          "lists.walk-complete",
          "walk misses items (page size changed)",
          `a walk whose page size changed between pages (${sizes}) missed ${missing.length} of ${total} items (e.g. ${missing[0]})`,
          last
        )
      )
  }
  return walkVerdict(op, w, order, out, WALK_RULES)
}

/**
 * The trace of a List asked with a cursor the server never gave (`known`: what the runner knows of
 * the rest of the request): invalid_argument, or an error another fault explains. Live traffic:
 * the proxy does not keep the cursors a server gave, so it cannot tell an unknown one.
 */
export const unknownCursorRefused = (
  e: Exchange,
  cause: string,
  known: Known
): Outcome | undefined => refusalVerdict(e, [{ rule: "lists.unknown-cursor", cause }], known)

/**
 * lists.walk-complete: a page after the first that was refused (not answered first, not a 5xx:
 * `walkFailure` judges those) breaks it, since it was asked with the cursor the server gave and
 * the same request; a refused first page is the reading family's to judge. Live traffic: the proxy
 * does not know that a request carries the cursor of the page before it with the same request, so
 * it does not judge this.
 */
export const refusedPage = (w: Walk): Outcome | undefined => {
  const e = w.error
  if (e === undefined || w.pages.length === 0) return undefined
  const code = codeOf(e) ?? `HTTP ${statusOf(e) ?? "none"}`
  return fail(
    "lists.walk-complete",
    `a page refused with ${code}`,
    `page ${w.pages.length + 1} of a walk, asked with the nextCursor of page ${w.pages.length} and the same request, was refused with ${code}`,
    e
  )
}

/** The ids of everything read before (`listed`) that an ended walk (`w`) left out. */
export const missedInWalk = (listed: Walk, w: Walk): ReadonlyArray<string> => {
  const got = new Set(w.items.map((x) => String(x.id)))
  return listed.items.map((x) => String(x.id)).filter((id) => !got.has(id))
}

/**
 * The trace of a walk at an edge of a List (`edge`: ending on a full page, one short of it, one
 * item a page, or on no items when `empty`): everything read before (`listed`), the walk of a
 * request with `limit` and `order`, and everything read again (`again`) when the walk left items out. Each
 * page and the cursors across them are judged as any walk's; no item comes twice; a walk that
 * should end (`complete`) ends, and returns every item of both reads of everything (a full last
 * page without `nextCursor` breaks lists.next-cursor, any other lists.walk-complete); a walk
 * that selects nothing ends on an empty page (lists.empty-page).
 * Live traffic: the proxy judges each page (`pageRules`) and never knows everything a List holds.
 */
export const edgeWalked = (t: {
  readonly op: Op
  readonly empty: boolean
  readonly complete: boolean
  readonly limit: number
  readonly order: "asc" | "desc"
  readonly listed: Walk
  readonly walk: Walk
  readonly again: Walk | undefined
}): ReadonlyArray<Outcome> => {
  const { limit, op, order, walk: w } = t
  const out: Array<Outcome> = []
  for (const p of w.pages) out.push(...pageRules(limit, p, p.exchange))
  out.push(...cursorRules(limit, w.pages))
  const last = lastOf(w)
  const seen = new Set<string>()
  const twice = w.items
    .map((x) => String(x.id))
    .find((id) => (seen.has(id) ? true : (seen.add(id), false)))
  if (twice !== undefined)
    out.push(
      fail(
        "lists.walk-once",
        "item returned twice",
        `item ${twice} came back twice in one walk (limit ${limit}, ${order})`,
        last
      )
    )
  const disorder = walkOrderFailure(op, w, order)
  if (disorder !== undefined) out.push(disorder)
  const judged: Array<ContractRules.RuleId> = [
    "lists.count",
    "lists.limit-respected",
    "lists.after-before",
    "lists.next-cursor",
    "lists.walk-once",
    ...(orderObservable(op) ? (["lists.order"] as const) : [])
  ]
  // Nothing matches: search-filter's `selectsNothing` judges any item returned.
  if (t.empty) return out.length > 0 ? out : [pass("paging", [...judged, "lists.empty-page"])]
  const total = t.listed.items.length
  if (!w.ended) {
    if (t.complete)
      out.push(
        fail(
          "lists.walk-once",
          "walk does not end",
          `walking ${total} items with limit ${limit} (${order}) did not end after ${w.pages.length} pages`,
          last
        )
      )
  } else {
    let missing = missedInWalk(t.listed, w)
    // Someone else may have created objects meanwhile (a shared environment): only items in two reads of everything count.
    const again = t.again
    if (missing.length > 0 && again !== undefined && again.error === undefined && again.ended)
      missing = missing.filter((id) => again.items.some((x) => x.id === id))
    if (missing.length > 0) {
      const lastPage = w.pages[w.pages.length - 1]
      const stoppedFull = lastPage !== undefined && lastPage.items.length === limit
      out.push(
        stoppedFull
          ? fail(
              "lists.next-cursor",
              "no nextCursor while more items follow",
              `a full page (limit ${limit}, ${order}) has no nextCursor, but ${missing.length} of ${total} items follow (e.g. ${missing[0]})`,
              last
            )
          : fail(
              "lists.walk-complete",
              "walk misses items",
              `walking the pages (limit ${limit}, ${order}) missed ${missing.length} of ${total} items (e.g. ${missing[0]})`,
              last
            )
      )
    }
    judged.push("lists.walk-complete")
  }
  return out.length === 0 ? [pass("paging", judged)] : out
}

/**
 * A page answered to a List with `limit` at a bound: at most that many items, its count right
 * (`pageRules`). Live traffic: the proxy judges every page so (`page`).
 */
export const boundedPage = (op: Op, limit: number, e: Exchange): ReadonlyArray<Outcome> => {
  const page = pageRules(limit, pageOf(op, successJson(e)), e)
  return page.length > 0 ? page : [pass("paging", ["lists.limit-respected", "lists.count"])]
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [page]
