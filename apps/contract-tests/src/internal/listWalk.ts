/**
 * Reading lists: walking the pages of a List request, the references a list needs, the order of
 * items.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { SchemaWalk, Timestamp } from "@data-access/schema"
import { type Body, type Context, type Op, send } from "./context.js"
import { type BudgetExhausted, type Exchange, post } from "./http.js"
import { asRecord } from "./json.js"
import { describeReference, type Pools, referenceOf, valuesOf } from "./pools.js"

export const MAX_WALK_PAGES = 40

export const itemsOf = (op: Op, json: unknown): ReadonlyArray<Record<string, unknown>> => {
  const items = op.itemField === undefined ? undefined : asRecord(json)?.[op.itemField]
  return Array.isArray(items)
    ? items.filter((x): x is Record<string, unknown> => asRecord(x) !== undefined)
    : []
}

export interface Page {
  readonly exchange: Exchange
  readonly items: ReadonlyArray<Record<string, unknown>>
  readonly meta: Record<string, unknown>
}

export interface Walk {
  readonly items: ReadonlyArray<Record<string, unknown>>
  readonly pages: ReadonlyArray<Page>
  readonly ended: boolean
  /** The exchange that stopped the walk with an error. */
  readonly error: Exchange | undefined
}

/**
 * The most pages a walk of `total` items may take: no must says a page holds `limit` items while
 * more follow (a server may keep to a smaller page size of its own), only that each page but the
 * last brings items; so one item a page, and room for an empty page after a full last one.
 */
export const pagesFor = (total: number): number => total + 2

/**
 * Walks the pages of a List request, at most `maxPages` requests. A walk that goes round (a
 * cursor given before, or two pages in a row with a cursor and no item not seen before) stops
 * there, not ended.
 */
export const walk = (
  ctx: Context,
  op: Op,
  body: Body,
  maxPages: number
): Effect.Effect<Walk, BudgetExhausted> =>
  Effect.gen(function* () {
    const pages: Array<Page> = []
    const cursors = new Set<string>()
    const ids = new Set<string>()
    let stale = 0
    let cursor: string | undefined
    for (let i = 0; i < maxPages; i++) {
      const e = yield* send(ctx, post(op.path, cursor === undefined ? body : { ...body, cursor }))
      const r = Option.getOrUndefined(e.response)
      if (r === undefined || r.status !== 200 || Option.isNone(r.json))
        return { items: pages.flatMap((p) => p.items), pages, ended: false, error: e }
      const items = itemsOf(op, r.json.value)
      const meta = asRecord(asRecord(r.json.value)?.listMetadata) ?? {}
      pages.push({ exchange: e, items, meta })
      const next = meta.nextCursor
      if (typeof next !== "string" || next === "")
        return { items: pages.flatMap((p) => p.items), pages, ended: true, error: undefined }
      const before = ids.size
      for (const x of items) ids.add(String(x.id))
      stale = ids.size > before ? 0 : stale + 1
      if (cursors.has(next) || stale >= 2) break
      cursors.add(next)
      cursor = next
    }
    return { items: pages.flatMap((p) => p.items), pages, ended: false, error: undefined }
  })

/** The last exchange of a walk: its last page, or the error it stopped on. */
export const lastOf = (w: Walk): Exchange | undefined =>
  w.pages[w.pages.length - 1]?.exchange ?? w.error

/** Whether a walk returned the object `id`. */
export const has = (w: Walk, id: string) => w.items.some((x) => x.id === id)

/** Every item of a list (the required references only), memoised per body for a suite. */
export const everything = (ctx: Context, op: Op) => {
  const memo = new Map<string, Walk>()
  return (base: Body): Effect.Effect<Walk, BudgetExhausted> => {
    const key = JSON.stringify(base)
    const seen = memo.get(key)
    if (seen !== undefined) return Effect.succeed(seen)
    return Effect.tap(walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES), (w) =>
      Effect.sync(() => memo.set(key, w))
    )
  }
}

export const findById = (ctx: Context, reader: Op, id: string, base: Body) =>
  Effect.map(walk(ctx, reader, { ...base, limit: 500 }, 20), (w) => ({
    item: w.items.find((x) => x.id === id),
    walk: w
  }))

/** Why the required references of an operation cannot be filled, if they cannot. */
export const missingReference = (op: Op, pools: Pools): string | undefined => {
  for (const [name, field] of SchemaWalk.requestFields(op)) {
    const ref = referenceOf(op, name)
    if (field.required && ref !== undefined && valuesOf(pools, ref).length === 0) {
      return `no ${describeReference(ref)} in the fixtures or discovered (needed for ${name})`
    }
  }
  return undefined
}

/** A body with just the required references of an operation (for reads that list everything). */
export const requiredRefs = (op: Op, pools: Pools, n: number): Body | undefined => {
  const body: Body = {}
  for (const [name, field] of SchemaWalk.requestFields(op)) {
    const ref = referenceOf(op, name)
    if (!field.required || ref === undefined || name === "limit") continue
    const values = valuesOf(pools, ref)
    if (values.length === 0) return undefined
    body[name] = values[n % values.length]
  }
  return body
}

const createdKey = (item: Record<string, unknown>): bigint => {
  const t = typeof item.createdAt === "string" ? Timestamp.parse(item.createdAt) : undefined
  return t instanceof Timestamp.Timestamp ? Timestamp.toEpochNanos(t) : -(2n ** 70n)
}

/** The first key of the decided order of list items: `createdAt`. */
export const compareCreated = (a: Record<string, unknown>, b: Record<string, unknown>): number => {
  const ca = createdKey(a)
  const cb = createdKey(b)
  return ca === cb ? 0 : ca < cb ? -1 : 1
}

/** The tie-breaker of the decided order: `id`. */
export const compareIds = (a: Record<string, unknown>, b: Record<string, unknown>): number => {
  const ia = String(a.id ?? "")
  const ib = String(b.id ?? "")
  return ia < ib ? -1 : ia > ib ? 1 : 0
}
