/**
 * The contract violations of the fault catalogue (`Faults.violations`): transforms of a request,
 * a handler, the store an update sees and a success body, built only while a violation is on.
 *
 * @internal
 */
import { ConnectError, type Operations } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import type { Json } from "../Collections.js"
import type { ViolationName } from "../Faults.js"
import { sortKey, type StoreService } from "../Store.js"
import type { Compiled } from "./app.js"
import { decodeCursor, encodeCursor } from "./cursor.js"
import type { Handler } from "./handlers.js"

type Op = Operations.Operations[Operations.MethodName]

/** The object a response carries (the first item of a list or array), for response violations. */
const targetOf = (op: Op, body: Record<string, unknown>): Record<string, unknown> | undefined => {
  const holder = op.itemField !== undefined ? body[op.itemField] : op.wrapperKey !== undefined ? body[op.wrapperKey] : body
  const target = Array.isArray(holder) ? holder[0] : holder
  return target !== null && typeof target === "object" ? (target as Record<string, unknown>) : undefined
}

/** The response violations, applied to a copy of a success body. */
export const violateResponse = (
  op: Op,
  request: Readonly<Record<string, unknown>>,
  body: Json,
  v: ReadonlySet<ViolationName>,
  stamp: () => string
): Json => {
  const copy = structuredClone(body) as Record<string, unknown>
  const target = targetOf(op, copy)
  if (target === undefined) return copy
  const isHumanPassword = op.wrapperKey === undefined && op.itemField === undefined
  if (v.has("wrong-field-type")) target[isHumanPassword ? "username" : "id"] = 12345
  if (v.has("missing-required-field")) delete target[isHumanPassword ? "password" : "id"]
  if (v.has("created-at-in-future") && typeof target.createdAt === "string") target.createdAt = new Date(Date.now() + 86_400_000).toISOString()
  if (v.has("non-utc-timestamp") && typeof target.createdAt === "string") {
    // The same instant, written with a +02:00 offset.
    const shifted = new Date(Date.parse(target.createdAt) + 2 * 3_600_000).toISOString()
    target.createdAt = `${shifted.slice(0, -1)}+02:00`
  }
  if (v.has("expires-at-in-past") && typeof target.expiresAt === "string") target.expiresAt = new Date(Date.now() - 3_600_000).toISOString()
  if (v.has("unstable-read") && op.kind === "get" && typeof target.updatedAt === "string") target.updatedAt = stamp()
  if (v.has("paging-count-mismatch") && op.kind === "list") {
    const meta = (copy.listMetadata ?? {}) as Record<string, unknown>
    copy.listMetadata = { ...meta, count: Number(meta.count ?? 0) + 1 }
  }
  if (v.has("echo-secret") && op.kind === "create") {
    // Every vendor object sent comes back with its secrets revealed.
    for (const [key, value] of Object.entries(request)) {
      if (value === null || typeof value !== "object" || Redacted.isRedacted(value)) continue
      const revealed = Object.fromEntries(Object.entries(value).map(([k, x]) => [k, Redacted.isRedacted(x) ? Redacted.value(x) : x]))
      target[key] = { ...(target[key] as object | undefined), ...revealed }
    }
  }
  if (v.has("create-not-echoed") && op.kind === "create") {
    const key = Object.keys(request).find((k) => k !== "id" && typeof request[k] === "string" && typeof target[k] === "string")
    if (key !== undefined) target[key] = `${String(target[key])}-changed`
  }
  return copy
}

/**
 * The store an update handler sees under update-ignored (the change is dropped, the object
 * stays as it was) or updated-at-not-moved (the change is kept with the old `updatedAt`).
 */
const violateStore = (store: StoreService, v: ReadonlySet<ViolationName>): StoreService => ({
  ...store,
  modify: (c, id, f) =>
    store.modify(c, id, (current) => {
      if (v.has("update-ignored")) return Effect.succeed(current)
      return Effect.map(f(current), ({ updatedAt: _, ...next }): Json => (current.updatedAt === undefined ? next : { ...next, updatedAt: current.updatedAt }))
    })
})

/** paging-duplicates: the next cursor points at the page's next-to-last item, so the next page repeats the last. */
const pointCursorBack = (op: Op, body: Json): Json => {
  const items = op.itemField === undefined ? undefined : body[op.itemField]
  const meta = body.listMetadata as Json | undefined
  const cursor = typeof meta?.nextCursor === "string" ? decodeCursor(meta.nextCursor) : undefined
  if (cursor === undefined || !Array.isArray(items) || items.length < 2) return body
  const back = items[items.length - 2] as Json
  return { ...body, listMetadata: { ...meta, nextCursor: encodeCursor({ order: cursor.order, key: sortKey(back), id: String(back.id) }) } }
}

/** The violations that act around an operation: on the store an update sees, on a list's cursor. */
export const violateHandler = (op: Op, handler: Handler, v: ReadonlySet<ViolationName>): Handler => {
  if (op.kind === "update" && (v.has("update-ignored") || v.has("updated-at-not-moved"))) {
    return (request, ctx) => handler(request, { ...ctx, store: violateStore(ctx.store, v) })
  }
  if (op.kind === "list" && v.has("paging-duplicates")) return (request, ctx) => Effect.map(handler(request, ctx), (body) => pointCursorBack(op, body))
  return handler
}

/** Pre-decode request violations: a relaxed request, or an error. */
export const violateRequest = (c: Compiled, input: Record<string, unknown>, v: ReadonlySet<ViolationName>): Record<string, unknown> | ConnectError.ConnectError => {
  let body = input
  const unknownField = Object.keys(body).find((k) => !c.fields.has(k))
  if (unknownField !== undefined) {
    if (v.has("server-error-on-unknown-field")) return ConnectError.make("internal", "internal error")
    if (v.has("rejects-unknown-field")) return ConnectError.make("invalid_argument", `${unknownField}: unknown field`)
  }
  if (c.op.kind === "list" && (v.has("order-ignored") || v.has("search-ignored") || v.has("filter-ignored"))) {
    // The server behaves as if the field had not been sent.
    const ignored = new Set([v.has("order-ignored") && "order", v.has("search-ignored") && "search", v.has("filter-ignored") && "filter"])
    body = Object.fromEntries(Object.entries(body).filter(([k]) => !ignored.has(k)))
  }
  if (v.has("ignored-limit-range") && c.op.kind === "list") {
    const limit = body.limit
    return { ...body, limit: typeof limit === "number" && Number.isFinite(limit) ? Math.min(500, Math.max(1, Math.trunc(limit))) : 100 }
  }
  return body
}

/** Fills empty strings that break a min-length rule (the ignored-min-length violation). */
export const relaxMinLength = (c: Compiled, body: Record<string, unknown>) => {
  let current = body
  for (let i = 0; i < 8; i++) {
    const result = c.decode(current)
    if (Either.isRight(result)) return result
    const issue = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
    if (issue === undefined || issue.path.length === 0) return result
    const copy = structuredClone(current)
    let holder: Record<string, unknown> = copy
    for (const p of issue.path.slice(0, -1)) holder = holder[p as string] as Record<string, unknown>
    const last = issue.path[issue.path.length - 1] as string
    if (holder?.[last] !== "") return result
    holder[last] = "x"
    current = copy
  }
  return c.decode(current)
}
