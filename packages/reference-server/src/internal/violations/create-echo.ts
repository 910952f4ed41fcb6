/**
 * The violations of the `create-echo` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { SchemaWalk, Secrets } from "@data-access/schema"
import * as Effect from "effect/Effect"
import type { CollectionName, Json } from "../../Collections.js"
import type { StoreService } from "../../Store.js"
import type { Handler, Op, RouteHook } from "../pipeline-types.js"
import { isObject } from "../jsonBodies.js"
import { onTarget, preparing, writesFields } from "../violationHooks.js"
import { collectionOf } from "../operationCollections.js"
import { violation } from "../violationRecord.js"

/** ids-from-clock: creates within this span of the one before share its id (creates sent back to back do, on a loaded machine too). */
const ID_WINDOW_MILLIS = 2_000

/** ids-from-clock: ids made of the object's prefix and the time of the first of a run of creates, each within the window of the one before. */
const clockIdMaker = () => {
  let last = -Infinity
  let started = 0
  return (id: string): string => {
    const now = Date.now()
    if (now - last >= ID_WINDOW_MILLIS) started = now
    last = now
    return `${id.slice(0, id.lastIndexOf("_") + 1)}t${started.toString(36)}`
  }
}

/** ids-from-clock: a create stores and returns its object under the id of its run of creates, replacing the object of an earlier create of that run. */
const clockIds: RouteHook<Handler> = (next, op) => {
  const c = collectionOf(op)
  const key = op.wrapperKey
  if (op.kind !== "create" || c === undefined || key === undefined) return next
  const clockId = clockIdMaker()
  return (request, ctx) => {
    const rename = (o: Json): Json =>
      typeof o.id === "string" ? ({ ...o, id: clockId(o.id) } as Json) : o
    const store: StoreService = {
      ...ctx.store,
      put: (cc, objects) => ctx.store.put(cc, cc === c ? objects.map(rename) : objects)
    }
    return Effect.map(next(request, { ...ctx, store }), (body) => {
      const object = body[key]
      return isObject(object) ? ({ ...body, [key]: rename(object as Json) } as Json) : body
    })
  }
}

/** create-stored-differently: the object as stored, one string changed (the first non-secret string of a nested object, else `name`). */
const alteredForStore = (object: Json): Json => {
  const copy = structuredClone(object) as Record<string, unknown>
  for (const value of Object.values(copy)) {
    if (!isObject(value) || "id" in value) continue
    const key = Object.keys(value).find(
      (k) => typeof value[k] === "string" && !Secrets.fieldNames.has(k)
    )
    if (key !== undefined) {
      value[key] = `${String(value[key])}-stored`
      return copy as Json
    }
  }
  if (typeof copy.name === "string") copy.name = `${copy.name}-stored`
  return copy as Json
}

/** lists-forget-older-creates: how many of the latest creates of a kind the Lists still hold. */
const LISTED_CREATES = 4

/** lists-forget-older-creates: per store and collection, the ids of the objects created through the API, oldest first. */
const createdIds = new WeakMap<StoreService, Map<CollectionName, Array<string>>>()

const createdIdsOf = (store: StoreService, c: CollectionName): Array<string> => {
  let byCollection = createdIds.get(store)
  if (byCollection === undefined) createdIds.set(store, (byCollection = new Map()))
  let ids = byCollection.get(c)
  if (ids === undefined) byCollection.set(c, (ids = []))
  return ids
}

/** lists-forget-older-creates: creates note their object's id; Lists read their collection without the objects created before the latest few creates. */
const recentCreatesListed: RouteHook<Handler> = (next, op) => {
  const c = collectionOf(op)
  const key = op.wrapperKey
  if (c === undefined) return next
  if (op.kind === "create" && key !== undefined)
    return (request, ctx) =>
      Effect.tap(next(request, ctx), (body) => {
        const object = body[key]
        if (isObject(object) && typeof object.id === "string")
          createdIdsOf(ctx.store, c).push(object.id)
      })
  if (op.kind !== "list") return next
  return (request, ctx) => {
    const ids = createdIdsOf(ctx.store, c)
    if (ids.length <= LISTED_CREATES) return next(request, ctx)
    const forgotten = new Set(ids.slice(0, ids.length - LISTED_CREATES))
    const store: StoreService = {
      ...ctx.store,
      all: (name) =>
        name === c
          ? Effect.map(ctx.store.all(name), (items) =>
              items.filter((o) => !forgotten.has(String(o.id)))
            )
          : ctx.store.all(name)
    }
    return next(request, { ...ctx, store })
  }
}

export const idsFromClock = violation({
  name: "ids-from-clock",
  rule: "echo.create-stored",
  description: `A created object's id is made of the time alone, to ${ID_WINDOW_MILLIS} ms: creates in quick succession get one id, and the last replaces the others in the store.`,
  hooks: { handler: clockIds }
})

export const createNotEchoed = violation({
  name: "create-not-echoed",
  rule: "echo.create",
  description:
    "A create's response changes a string field it was sent (`name`, `description`, ...).",
  hooks: {
    respond: onTarget(
      (target, request) => {
        const key = Object.keys(request).find(
          (k) => k !== "id" && typeof request[k] === "string" && typeof target[k] === "string"
        )
        if (key !== undefined) target[key] = `${String(target[key])}-changed`
      },
      (op) => op.kind === "create"
    )
  }
})

export const identityLinkWrongGroup = violation({
  name: "identity-link-wrong-group",
  rule: "echo.identity-group",
  description:
    "CreateNativeUserIdentityLink with `identityType: group` returns the link without its `group`.",
  hooks: {
    respond: (next, op, fields) => {
      const kinded = op.kindedReference
      if (kinded === undefined) return next
      return onTarget((target, request) => {
        if (request[kinded.kindField] === "group") delete target.group
      })(next, op, fields)
    }
  }
})

export const identityLinkWithoutNativeUser = violation({
  name: "identity-link-without-native-user",
  rule: "echo.create-references",
  description:
    "CreateNativeUserIdentityLink returns the link without its `nativeUser` (the object its `nativeUserId` names).",
  hooks: {
    respond: (next, op, fields) =>
      op.kindedReference === undefined
        ? next
        : onTarget((target) => {
            delete target.nativeUser
          })(next, op, fields)
  }
})

export const createWithoutCreatedAt = violation({
  name: "create-without-created-at",
  rule: "echo.create-complete",
  description: "A create's response leaves out `createdAt` (the object stored has it).",
  hooks: {
    respond: onTarget(
      (target) => {
        delete target.createdAt
      },
      (op) => op.kind === "create"
    )
  }
})

export const createDefaultNotZero = violation({
  name: "create-default-not-zero",
  rule: "echo.create-zero-values",
  description:
    "A create that leaves `terminationProtection` out turns it on (a default of its own instead of proto3's zero value), and stores it so.",
  hooks: {
    handler: (next, op) =>
      op.kind !== "create" || !SchemaWalk.requestFields(op).has("terminationProtection")
        ? next
        : (request, ctx) =>
            next(
              request.terminationProtection === undefined || request.terminationProtection === null
                ? { ...request, terminationProtection: true }
                : request,
              ctx
            )
  }
})

export const passwordForAnotherUser = violation({
  name: "password-for-another-user",
  rule: "echo.password-user",
  description:
    "CreateHumanUserPassword by `email` or `id` returns a password whose `username` is not the user's (`other-` before it).",
  hooks: {
    respond: onTarget(
      (target, request) => {
        if (request.username === undefined && typeof target.username === "string")
          target.username = `other-${target.username}`
      },
      (op) => op.oneOf !== undefined
    )
  }
})

/** secrets-masked: each secret the request sent (decoded: a `Redacted`), at any depth, written into the answer's object as asterisks. */
const masked = (target: Record<string, unknown>, sent: Record<string, unknown>): void => {
  for (const [k, v] of Object.entries(sent)) {
    if (Secrets.fieldNames.has(k) && v !== undefined && v !== null) target[k] = "********"
    else if (isObject(v) && isObject(target[k])) masked(target[k], v)
  }
}

export const secretsMasked = violation({
  name: "secrets-masked",
  rule: "echo.create",
  description:
    "A create's response returns each secret it was sent (`mdmVendorA.apiKey`, ...) as `********`: neither the stored value nor left out (decisions.md section 10).",
  hooks: {
    respond: onTarget(masked, (op) => op.kind === "create")
  }
})

export const createStoredDifferently = violation({
  name: "create-stored-differently",
  rule: "echo.create-stored",
  description:
    "A create returns the object it was sent but stores it with one string changed (the first non-secret string of a nested object, such as `mdmVendorA.apiUrl`, else `name`): later reads show another object.",
  hooks: {
    handler: (next, op) =>
      op.kind !== "create"
        ? next
        : (request, ctx) =>
            next(request, {
              ...ctx,
              store: {
                ...ctx.store,
                put: (c, objects) => ctx.store.put(c, objects.map(alteredForStore))
              }
            })
  }
})

export const listsForgetOlderCreates = violation({
  name: "lists-forget-older-creates",
  rule: "echo.create-stored",
  description: `The Lists of a kind hold only the objects of the latest ${LISTED_CREATES} creates through the API (a bounded index of recent creates), besides the seeded ones: an older created object is left out of every List, plain, searched or filtered, though it is still stored.`,
  hooks: { handler: recentCreatesListed }
})

/** stored-text-trimmed: a request's top-level strings without surrounding spaces. */
const trimmedStrings = (request: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(request).map(([k, v]) => [k, typeof v === "string" ? v.trim() : v])
  )

export const storedTextTrimmed = violation({
  name: "stored-text-trimmed",
  rule: "echo.create",
  description:
    "A create or an update stores (and returns) each top-level string it is sent without its leading and trailing spaces.",
  hooks: {
    prepare: preparing(trimmedStrings, writesFields)
  }
})

/** long-text-cut: the length past which a field other than `name` is cut (a shorter column type). */
const SHORT_COLUMN = 100

export const longTextCut = violation({
  name: "long-text-cut",
  rule: "echo.create",
  description: `A create or an update stores (and returns) each string field but \`name\` cut to its first ${SHORT_COLUMN} characters (a shorter column that truncates silently).`,
  hooks: {
    prepare: preparing(
      (request) =>
        Object.fromEntries(
          Object.entries(request).map(([k, v]) => [
            k,
            typeof v === "string" && k !== "name" && v.length > SHORT_COLUMN
              ? Array.from(v).slice(0, SHORT_COLUMN).join("")
              : v
          ])
        ),
      writesFields
    )
  }
})

/** create-null-as-text: whether a create's request field holds text. */
const textField = (op: Op, key: string): boolean => {
  const field = SchemaWalk.requestFields(op).get(key)
  return field !== undefined && SchemaWalk.nonNullish(field.shape)._tag === "String"
}

export const createNullAsText = violation({
  name: "create-null-as-text",
  rule: "echo.create-zero-values",
  description:
    'A create reads a text field sent as `null` as the text `"null"` (a value turned into text before its presence is asked), and stores and returns it so.',
  hooks: {
    prepare: preparing(
      (request, ex, op) => ({
        ...request,
        ...Object.fromEntries(
          Object.entries(ex.sent)
            .filter(([k, v]) => v === null && textField(op, k))
            .map(([k]) => [k, "null"])
        )
      }),
      (op) => op.kind === "create"
    )
  }
})
