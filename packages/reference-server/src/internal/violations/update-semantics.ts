/**
 * The violations of the `update-semantics` check: the records whose rule `ContractRules` gives to
 * that check, and the helpers only they use.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import type { CollectionName, Json } from "../../Collections.js"
import type { StoreService } from "../../Store.js"
import { normalize } from "../handlers.js"
import type { Body, Handler, RouteHook } from "../pipeline-types.js"
import { collectionOf } from "../operationCollections.js"
import { violation } from "../violationRecord.js"
import { responding } from "../violationHooks.js"
import { isObject } from "../jsonBodies.js"

const zeroCache = new Map<CollectionName, Json>()

/** An object of a collection with every field at its zero value (strings `""`, booleans false, enums their first value). */
const zeroOf = (c: CollectionName): Json => {
  let zero = zeroCache.get(c)
  if (zero === undefined) {
    zero = normalize(c, { id: "zero" })
    zeroCache.set(c, zero)
  }
  return zero
}

const UNCLEARED = new Set(["id", "createdAt", "updatedAt"])

/** The store an update handler sees, its `modify` changed by `change`: what the update stores, and what it returns. */
const updateStore = (
  store: StoreService,
  change: (current: Json, changed: Json) => { readonly stored: Json; readonly returned: Json }
): StoreService => ({
  ...store,
  modify: <E>(c: CollectionName, id: string, f: (current: Json) => Effect.Effect<Json, E>) => {
    let returned: Json | undefined
    const modified = store.modify(c, id, (current) =>
      Effect.map(f(current), (changed): Json => {
        const out = change(current, changed)
        returned = out.returned
        return out.stored
      })
    )
    return Effect.map(modified, (stored) => (stored === undefined ? undefined : returned))
  }
})

/** What an update stores and returns, given the object before it, the object it made and the body sent. */
type UpdateChange = (
  current: Json,
  changed: Json,
  c: CollectionName,
  sent: Body
) => { readonly stored: Json; readonly returned: Json }

/** A hook on the handler of every update: the store it sees. */
const onUpdates =
  (change: UpdateChange): RouteHook<Handler> =>
  (next, op) => {
    const c = collectionOf(op)
    if (op.kind !== "update" || c === undefined) return next
    return (request, ctx) =>
      next(request, {
        ...ctx,
        store: updateStore(ctx.store, (current, changed) => change(current, changed, c, ctx.sent))
      })
  }

const both = (object: Json) => ({ stored: object, returned: object })

/** Resets to its zero value every field of `changed` that `clear` names (ids, times and nested objects aside). */
const clearFields = (c: CollectionName, changed: Json, clear: (key: string) => boolean): Json => {
  const next: Record<string, unknown> = { ...changed }
  for (const [k, zero] of Object.entries(zeroOf(c))) {
    if (UNCLEARED.has(k) || (zero !== null && typeof zero === "object")) continue
    if (clear(k)) next[k] = zero
  }
  return next
}

/** update-stale-index: per store, each updated object as it was before its first update (`<collection>:<id>`). */
const staleIndexes = new WeakMap<StoreService, Map<string, Json>>()

const staleIndexOf = (store: StoreService): Map<string, Json> => {
  let index = staleIndexes.get(store)
  if (index === undefined) {
    index = new Map()
    staleIndexes.set(store, index)
  }
  return index
}

/** update-stale-index: updates remember the object before them; lists select on those old values and answer with the current ones. */
const staleIndex: RouteHook<Handler> = (next, op) => {
  const c = collectionOf(op)
  if (c === undefined) return next
  if (op.kind === "update") {
    return (request, ctx) =>
      Effect.flatMap(ctx.store.get(c, String(request.id)), (current) => {
        const index = staleIndexOf(ctx.store)
        const key = `${c}:${String(request.id)}`
        if (current !== undefined && !index.has(key)) index.set(key, current)
        return next(request, ctx)
      })
  }
  if (op.kind !== "list" || op.itemField === undefined) return next
  const itemField = op.itemField
  return (request, ctx) => {
    const index = staleIndexOf(ctx.store)
    const stale: StoreService = {
      ...ctx.store,
      all: (name) =>
        name === c
          ? Effect.map(ctx.store.all(name), (items) =>
              items.map((o) => index.get(`${name}:${String(o.id)}`) ?? o)
            )
          : ctx.store.all(name)
    }
    return Effect.flatMap(next(request, { ...ctx, store: stale }), (body) => {
      const items = body[itemField]
      if (!Array.isArray(items)) return Effect.succeed(body)
      return Effect.map(
        Effect.forEach(items as ReadonlyArray<Json>, (item) =>
          Effect.map(ctx.store.get(c, String(item.id)), (now) => now ?? item)
        ),
        (fresh) => ({ ...body, [itemField]: fresh }) as Json
      )
    })
  }
}

export const updateIgnored = violation({
  name: "update-ignored",
  rule: "updates.apply",
  description: "Updates change nothing and return the object as it was.",
  hooks: { handler: onUpdates((current) => both({ ...current })) }
})

export const updateKeepsOldReference = violation({
  name: "update-keeps-old-reference",
  rule: "updates.references",
  description:
    "An update that moves a reference (UpdateSatellite's `spaceId`) stores and returns the new id with the old nested object (`space`).",
  hooks: {
    handler: onUpdates((current, changed, _, sent) => {
      const kept: Record<string, unknown> = { ...changed }
      for (const k of Object.keys(sent)) {
        const nested = /^(.+)Id$/.exec(k)?.[1]
        if (nested !== undefined && current[nested] !== undefined) kept[nested] = current[nested]
      }
      return both(kept)
    })
  }
})

export const updateFalseIgnored = violation({
  name: "update-false-ignored",
  rule: "updates.false-applied",
  description:
    "An update reads a boolean sent as `false` as not sent (proto3 without field presence): the field keeps `true`.",
  hooks: {
    handler: onUpdates((current, changed, _, sent) => {
      const kept: Record<string, unknown> = { ...changed }
      for (const [k, v] of Object.entries(sent))
        if (v === false && current[k] === true) kept[k] = true
      return both(kept)
    })
  }
})

export const updateClearsUnsent = violation({
  name: "update-clears-unsent",
  rule: "updates.partial",
  description:
    "An update that sends a field resets every field it was not sent to its zero value (`id`, `createdAt`, `updatedAt` and nested objects aside); one that sends only its id changes nothing.",
  // One that sends only its id (a read) changes nothing, so the state before an update can still be seen.
  hooks: {
    handler: onUpdates((_, changed, c, sent) =>
      both(
        Object.keys(sent).some((k) => k !== "id")
          ? clearFields(c, changed, (k) => !(k in sent))
          : changed
      )
    )
  }
})

export const updateNullClears = violation({
  name: "update-null-clears",
  rule: "updates.null-unchanged",
  description: "A field sent as `null` in an update is reset to its zero value.",
  hooks: {
    handler: onUpdates((_, changed, c, sent) =>
      both(clearFields(c, changed, (k) => sent[k] === null))
    )
  }
})

export const updateNotStored = violation({
  name: "update-not-stored",
  rule: "updates.stored",
  description: "An update returns the changed object but stores nothing.",
  hooks: { handler: onUpdates((current, changed) => ({ stored: current, returned: changed })) }
})

export const updatedAtNotMoved = violation({
  name: "updated-at-not-moved",
  rule: "updates.updated-at",
  description: "Updates keep the old `updatedAt`.",
  hooks: {
    handler: onUpdates((current, changed) => {
      const { updatedAt: _, ...rest } = changed
      return both(
        current.updatedAt === undefined ? rest : { ...rest, updatedAt: current.updatedAt }
      )
    })
  }
})

export const updateStaleIndex = violation({
  name: "update-stale-index",
  rule: "updates.listed",
  description:
    "`search`, `filter` and the parent scope of a List read an updated object as it was before its first update (a stale search index); the items come back as they are now.",
  hooks: { handler: staleIndex }
})

export const updateTurnsOffUnsent = violation({
  name: "update-turns-off-unsent",
  rule: "updates.model",
  description:
    "UpdateConnectorHostname that sends some field but not `terminationProtection` turns it off (read without field presence): a value an earlier update set is lost, while the seeded objects, all off, show nothing.",
  hooks: {
    handler: onUpdates((_, changed, c, sent) =>
      both(
        c === "connectorHostnames" &&
          Object.keys(sent).some((k) => k !== "id") &&
          (sent.terminationProtection === undefined || sent.terminationProtection === null)
          ? { ...changed, terminationProtection: false }
          : changed
      )
    )
  }
})

export const listWithoutNested = violation({
  name: "list-without-nested",
  rule: "updates.model",
  description:
    "ListSatellites leaves out each item's `space` (the List does not join the nested copy), while update answers carry it: the same satellite, with no write between, has a space in one answer and none in the next.",
  hooks: {
    respond: responding(
      (body, _request, op) => {
        const items = body[op.itemField!]
        if (Array.isArray(items))
          for (const item of items)
            if (isObject(item)) delete (item as Record<string, unknown>).space
      },
      (op) => op.kind === "list" && collectionOf(op) === "satellites"
    )
  }
})
