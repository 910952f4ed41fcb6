/**
 * The contract violations of the fault catalogue (`Faults.violations`), one record each: the
 * violation's name, the rule of `ContractRules` it breaks (and nothing else, as far as it can),
 * what it does, and its hooks on the stages of the faithful pipeline (`pipeline-types.ts`): the
 * protocol checks, the body's parsing, relaxing and decoding, the request the handler gets, the
 * handler (the store it sees, what it answers), the success body, errors and how answers are
 * written. `app.ts` composes the hooks of the violations a request gets once per set of them; the
 * faithful path runs none of this.
 *
 * @internal
 */
import {
  ContractRules,
  Filter,
  Operations,
  RateLimit,
  Requests,
  Secrets
} from "@data-access/schema"
import * as ConnectError from "./connectError.js"
import * as Effect from "effect/Effect"
import * as SchemaAST from "effect/SchemaAST"
import * as Collections from "../Collections.js"
import type { CollectionName, Json } from "../Collections.js"
import { sortKey, type StoreService } from "../Store.js"
import { stamp } from "./clock.js"
import { decodeCursor, encodeCursor } from "./cursor.js"
import {
  fieldValue,
  filteringWith,
  matches,
  normalize,
  snakeToCamel as camelOf
} from "./handlers.js"
import type {
  Body,
  Check,
  CheckName,
  Checks,
  Exchange,
  Handler,
  Op,
  Output,
  Relax,
  Req,
  Respond,
  RouteHook,
  ViolationHooks
} from "./pipeline-types.js"
import { Fail } from "./pipeline-types.js"

type Request = Req

// ---------------------------------------------------------------------------------------------
// Request shapes: the JSON types, required fields, enums and min lengths of a request, read once
// per operation from its schema (the encoded side, refinements kept).
// ---------------------------------------------------------------------------------------------

type Shape =
  | {
      readonly _tag: "string"
      readonly minLength: number
      readonly literals: ReadonlyArray<string> | undefined
    }
  | { readonly _tag: "number"; readonly int: boolean }
  | { readonly _tag: "boolean" }
  | { readonly _tag: "object"; readonly fields: Fields }
  | { readonly _tag: "array"; readonly item: Shape }
  | { readonly _tag: "other" }

type Fields = ReadonlyMap<string, { readonly required: boolean; readonly shape: Shape }>

const OTHER: Shape = { _tag: "other" }

const shapeOf = (ast: SchemaAST.AST): Shape => {
  switch (ast._tag) {
    case "StringKeyword":
      return { _tag: "string", minLength: 0, literals: undefined }
    case "NumberKeyword":
      return { _tag: "number", int: false }
    case "BooleanKeyword":
      return { _tag: "boolean" }
    case "Literal":
      return typeof ast.literal === "string"
        ? { _tag: "string", minLength: 0, literals: [ast.literal] }
        : OTHER
    case "Refinement": {
      const from = shapeOf(ast.from)
      const json = ast.annotations[SchemaAST.JSONSchemaAnnotationId] as
        { readonly minLength?: unknown; readonly type?: unknown } | undefined
      if (from._tag === "string" && typeof json?.minLength === "number")
        return { ...from, minLength: Math.max(from.minLength, json.minLength) }
      if (from._tag === "number" && json?.type === "integer") return { _tag: "number", int: true }
      return from
    }
    case "Union": {
      // `null` and `undefined` members are how optional request fields are written.
      const members = ast.types.filter(
        (t) => !(t._tag === "Literal" && t.literal === null) && t._tag !== "UndefinedKeyword"
      )
      const literals = members.flatMap((t) =>
        t._tag === "Literal" && typeof t.literal === "string" ? [t.literal] : []
      )
      if (members.length > 1 && literals.length === members.length)
        return { _tag: "string", minLength: 0, literals }
      return members.length === 1 ? shapeOf(members[0]!) : OTHER
    }
    case "TypeLiteral":
      return {
        _tag: "object",
        fields: new Map(
          ast.propertySignatures.map((p) => [
            String(p.name),
            { required: !p.isOptional, shape: shapeOf(p.type) }
          ])
        )
      }
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1
        ? { _tag: "array", item: shapeOf(ast.rest[0]!.type) }
        : OTHER
    default:
      return OTHER
  }
}

const fieldsCache = new Map<Op, Fields>()

/** The top-level fields of an operation's request. */
const fieldsOf = (op: Op): Fields => {
  let fields = fieldsCache.get(op)
  if (fields === undefined) {
    const shape = shapeOf(SchemaAST.encodedBoundAST(op.request.ast))
    fields = shape._tag === "object" ? shape.fields : new Map()
    fieldsCache.set(op, fields)
  }
  return fields
}

const isObject = (u: unknown): u is Body => u !== null && typeof u === "object" && !Array.isArray(u)

const hasType = (shape: Shape, value: unknown): boolean => {
  switch (shape._tag) {
    case "string":
      return typeof value === "string"
    case "number":
      return typeof value === "number"
    case "boolean":
      return typeof value === "boolean"
    case "object":
      return isObject(value)
    case "array":
      return Array.isArray(value)
    case "other":
      return true
  }
}

/** Applies `f` to every field of `body` the shape knows, and to the fields of its nested objects. */
const eachField = (
  fields: Fields,
  body: Body,
  f: (body: Body, key: string, field: { readonly required: boolean; readonly shape: Shape }) => void
): void => {
  for (const [key, field] of fields) {
    f(body, key, field)
    const value = body[key]
    if (field.shape._tag === "object" && isObject(value)) eachField(field.shape.fields, value, f)
  }
}

/** ignored-json-type: a field of the wrong JSON type is taken as not set when optional; a fractional int is truncated. */
const ignoreJsonTypes = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { required, shape }) => {
    const value = b[key]
    if (value === undefined || value === null) return
    if (!hasType(shape, value)) {
      if (!required) delete b[key]
    } else if (
      shape._tag === "number" &&
      shape.int &&
      typeof value === "number" &&
      !Number.isInteger(value)
    ) {
      b[key] = Math.trunc(value)
    } else if (shape._tag === "array" && Array.isArray(value)) {
      b[key] = value.filter((x) => hasType(shape.item, x))
    }
  })

/** ignored-required (and the bodies read as `{}`): a missing required field takes a stand-in. */
const fillRequired = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { required, shape }) => {
    if (!required || (b[key] !== undefined && b[key] !== null)) return
    switch (shape._tag) {
      case "string":
        b[key] = "missing"
        return
      case "number":
        b[key] = 100
        return
      case "boolean":
        b[key] = false
        return
      case "object":
        b[key] = {}
        return
      case "array":
        b[key] = []
        return
      case "other":
        return
    }
  })

/** ignored-enum: a string outside an enum is taken as the enum's first value. */
const ignoreEnums = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { shape }) => {
    const value = b[key]
    const fix = (s: Shape, x: unknown) =>
      s._tag === "string" &&
      s.literals !== undefined &&
      typeof x === "string" &&
      !s.literals.includes(x)
        ? s.literals[0]
        : x
    if (shape._tag === "array" && Array.isArray(value))
      b[key] = value.map((x) => fix(shape.item, x))
    else b[key] = fix(shape, value)
    if (b[key] === undefined) delete b[key]
  })

/** ignored-min-length: a string under its min length is padded with `x`. */
const padMinLengths = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { shape }) => {
    const value = b[key]
    if (
      shape._tag === "string" &&
      shape.minLength > 0 &&
      typeof value === "string" &&
      value.length < shape.minLength
    ) {
      b[key] = value + "x".repeat(shape.minLength - value.length)
    }
  })

const snakeToCamel = (key: string) =>
  key.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())

/** rejects-snake-case: the first field named in snake_case, as sent (before the names are normalised). */
const snakeCaseField = (fields: Fields, raw: Body): string | undefined => {
  for (const [key, value] of Object.entries(raw)) {
    const field = fields.get(snakeToCamel(key))
    if (field === undefined) continue
    if (key.includes("_")) return key
    if (field.shape._tag === "object" && isObject(value)) {
      const inner = snakeCaseField(field.shape.fields, value)
      if (inner !== undefined) return `${key}.${inner}`
    }
  }
  return undefined
}

/** rejects-null: the path of the first `null` field, at any depth. */
const nullField = (value: unknown, path: string): string | undefined => {
  if (Array.isArray(value)) {
    for (const [i, x] of value.entries()) {
      const found = nullField(x, `${path}[${i}]`)
      if (found !== undefined) return found
    }
  } else if (isObject(value)) {
    for (const [k, x] of Object.entries(value)) {
      const p = path === "" ? k : `${path}.${k}`
      if (x === null) return p
      const found = nullField(x, p)
      if (found !== undefined) return found
    }
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------------

const filterKeysCache = new Map<Op, ReadonlySet<string>>()

/** The filter keys an operation knows: the literals of `filter.field.key` in its request schema. */
const filterKeysOf = (op: Op): ReadonlySet<string> => {
  let keys = filterKeysCache.get(op)
  if (keys === undefined) {
    const found = new Set<string>()
    const visit = (ast: SchemaAST.AST, path: ReadonlyArray<string>): void => {
      if (ast._tag === "Union") ast.types.forEach((t) => visit(t, path))
      else if (
        ast._tag === "Literal" &&
        path.join(".") === "filter.field.key" &&
        typeof ast.literal === "string"
      )
        found.add(ast.literal)
      else if (ast._tag === "TypeLiteral") {
        for (const p of ast.propertySignatures) {
          const next = [...path, String(p.name)]
          if ("filter.field.key".startsWith(next.join("."))) visit(p.type, next)
        }
      }
    }
    visit(SchemaAST.encodedBoundAST(op.request.ast), [])
    keys = found
    filterKeysCache.set(op, keys)
  }
  return keys
}

const operators: ReadonlySet<string> = new Set(Filter.Operator.literals)

/** A condition every item matches: every object has an id. */
const MATCH_ALL = { field: { key: "id", operator: "not_empty" } }

/** Rewrites every part of a filter (as sent), nested groups included. */
const mapFilter = (filter: unknown, f: (part: Body) => unknown): unknown => {
  if (!isObject(filter)) return filter
  const out = f(filter)
  if (out !== filter || !isObject(filter.group)) return out
  const group = filter.group
  return Array.isArray(group.filters)
    ? { ...filter, group: { ...group, filters: group.filters.map((x) => mapFilter(x, f)) } }
    : filter
}

/** unknown-filter-key-accepted: a condition with an unknown key or operator matches every item. */
const acceptUnknownKeys = (filter: unknown, keys: ReadonlySet<string>): unknown =>
  mapFilter(filter, (part) => {
    const field = part.field
    return isObject(field) &&
      (!keys.has(field.key as string) || !operators.has(field.operator as string))
      ? MATCH_ALL
      : part
  })

/** empty-group-accepted: a group with no filters matches every item. */
const acceptEmptyGroups = (filter: unknown): unknown =>
  mapFilter(filter, (part) =>
    isObject(part.group) && Array.isArray(part.group.filters) && part.group.filters.length === 0
      ? MATCH_ALL
      : part
  )

/** filter-or-as-and: every `or` group of a decoded filter becomes `and`. */
const orAsAnd = (filter: Filter.Filter<string>): Filter.Filter<string> =>
  "group" in filter && filter.group !== undefined
    ? {
        group: {
          operator: "and",
          filters: filter.group.filters.map(orAsAnd) as unknown as readonly [
            Filter.Filter<string>,
            ...Array<Filter.Filter<string>>
          ]
        }
      }
    : filter

// ---------------------------------------------------------------------------------------------
// Stores and handlers
// ---------------------------------------------------------------------------------------------

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

/** unknown-reference-accepted: an id that names nothing reads as an object with only that id. */
const lenientStore = (store: StoreService): StoreService => ({
  ...store,
  get: (c, id) => Effect.map(store.get(c, id), (found) => found ?? { id })
})

/** A List handler that answers `search` itself with the store `searching` makes of the term and its fields (default `name`), not the pipeline's search. */
const searchedBy =
  (
    searching: (store: StoreService, search: string, fields: ReadonlyArray<string>) => StoreService
  ): RouteHook<Handler> =>
  (next, op) =>
    op.kind !== "list"
      ? next
      : (request, ctx) => {
          const search = typeof request.search === "string" ? request.search : ""
          if (search === "") return next(request, ctx)
          const named = request.searchFields as ReadonlyArray<string> | undefined
          const { search: _, ...rest } = request
          return next(rest, {
            ...ctx,
            store: searching(
              ctx.store,
              search,
              named !== undefined && named.length > 0 ? named : ["name"]
            )
          })
        }

/** search-case-sensitive: the items a search keeps, compared as they are (the request's `search` is then left out). */
const caseSensitiveSearch = (
  store: StoreService,
  search: string,
  keys: ReadonlyArray<string>
): StoreService => ({
  ...store,
  all: (c) =>
    Effect.map(store.all(c), (items) =>
      items.filter((item) => keys.some((k) => fieldValue(item, k).includes(search)))
    )
})

/**
 * ignored-one-of with none of email, username and id set: the request stands for the first user
 * (printable, so that a latitude switch that rejects control characters lets it through).
 */
const FIRST_USER = "~first-user~"

const collectionOf = (op: Op): CollectionName | undefined => Collections.bySchema(op.object)

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

// ---------------------------------------------------------------------------------------------
// Responses and errors
// ---------------------------------------------------------------------------------------------

/** The object a response carries (the first item of a list or array), for response violations. */
const targetOf = (op: Op, body: Body): Body | undefined => {
  const holder =
    op.itemField !== undefined
      ? body[op.itemField]
      : op.wrapperKey !== undefined
        ? body[op.wrapperKey]
        : body
  const target = Array.isArray(holder) ? holder[0] : holder
  return isObject(target) ? target : undefined
}

/** The same instant (truncated), with 2 fractional digits. */
const twoDigits = (timestamp: string): string => {
  const millis = Date.parse(timestamp)
  if (Number.isNaN(millis)) return timestamp
  const iso = new Date(Math.floor(millis / 10) * 10).toISOString()
  return `${iso.slice(0, 22)}Z`
}

const MAX_QUOTED_BODY = 64 * 1024

const lenientText = new TextDecoder("utf-8")

// ---------------------------------------------------------------------------------------------
// Hooks
// ---------------------------------------------------------------------------------------------

/** A hook on the protocol checks: the named check is not made. */
const without =
  (name: CheckName) =>
  (next: Checks): Checks => {
    const keep = (c: Check) => c.name !== name
    return { beforeBody: next.beforeBody.filter(keep), afterBody: next.afterBody.filter(keep) }
  }

/** A hook on `relax` for the operations `applies` accepts: an error for the body as sent, or `undefined` to go on. */
const refusing =
  (
    refuse: (
      body: Body,
      op: Op,
      fields: ReadonlySet<string>
    ) => ConnectError.ConnectError | undefined,
    applies: (op: Op) => boolean = () => true
  ): RouteHook<Relax> =>
  (next, op, fields) =>
    applies(op) ? (body, ex) => refuse(body, op, fields) ?? next(body, ex) : next

/** A hook on `relax` for the operations `applies` accepts: a copy of the body, changed, goes on. */
const relaxing =
  (
    change: (body: Body, op: Op, ex: Exchange) => void,
    applies: (op: Op) => boolean = () => true
  ): RouteHook<Relax> =>
  (next, op) =>
    applies(op)
      ? (body, ex) => {
          const copy = structuredClone(body)
          change(copy, op, ex)
          return next(copy, ex)
        }
      : next

/** A hook on `prepare` of every list: the decoded request goes on without `field` (as if it had not been sent; a bad value is still rejected). */
const listIgnores =
  (field: string): RouteHook<(request: Request, ex: Exchange) => Request> =>
  (next, op) =>
    op.kind === "list"
      ? (request, ex) => {
          if (request[field] === undefined) return next(request, ex)
          const { [field]: _, ...rest } = request
          return next(rest, ex)
        }
      : next

/** A hook on `respond` for the operations `applies` accepts: the success body, copied and changed. */
const responding =
  (
    change: (body: Body, request: Request, op: Op) => void,
    applies: (op: Op) => boolean = () => true
  ): RouteHook<Respond> =>
  (next, op) =>
    applies(op)
      ? (request, body, ex) => {
          const copy = structuredClone(next(request, body, ex)) as Body
          change(copy, request, op)
          return copy as Json
        }
      : next

/** Renames every lowerCamelCase key of a JSON value to snake_case, in place. */
const snakeKeys = (value: unknown): void => {
  if (Array.isArray(value)) return value.forEach(snakeKeys)
  if (value === null || typeof value !== "object") return
  const o = value as Record<string, unknown>
  for (const key of Object.keys(o)) {
    snakeKeys(o[key])
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    if (snake !== key) {
      o[snake] = o[key]
      delete o[key]
    }
  }
}

/** A hook on `respond`: the object the success body carries (the first item of a list or array), changed. */
const onTarget = (
  change: (target: Body, request: Request, op: Op) => void,
  applies?: (op: Op) => boolean
): RouteHook<Respond> =>
  responding((body, request, op) => {
    const target = targetOf(op, body)
    if (target !== undefined) change(target, request, op)
  }, applies)

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

/** The object a create or update answers with: HumanUserPassword's fields sit at the top level. */
const isTopLevel = (op: Op) => op.wrapperKey === undefined && op.itemField === undefined

/** A body that is not a JSON object, standing for `{}` (empty-body-accepted, non-object-body-accepted). */
const STAND_IN: Body = Object.freeze({}) as Body

/** A stand-in body takes its required fields as ignored-required takes them. */
const standInFilled: RouteHook<Relax> = (next, op) => (body, ex) => {
  if (ex.sent !== STAND_IN) return next(body, ex)
  const filled: Body = {}
  fillRequired(fieldsOf(op), filled)
  return next(filled, ex)
}

/** The request fields that are a connector name (`Requests.ConnectorName`). */
const connectorNameFields = (op: Op): ReadonlyArray<string> =>
  SchemaAST.getPropertySignatures(op.request.ast)
    .filter((p) => p.type === Requests.ConnectorName.ast)
    .map((p) => String(p.name))

const RATE_LIMITED = "rate limit reached; retry after the Retry-After delay"

/** Under rate-limit-without-retry-after, every 20th request is rate limited. */
const RATE_LIMIT_EVERY = 20

/** The body limit under the small-body-limit violation: 64 KiB. */
const SMALL_BODY_LIMIT = 64 * 1024

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

/** An answer written, changed when it is a response. */
const withOutput = (
  out: Output,
  f: (response: Extract<Output, { readonly _tag: "Response" }>) => Output
): Output => (out._tag === "Response" ? f(out) : out)

// ---------------------------------------------------------------------------------------------
// Faults of the List operations' inputs: enums shared between lists, text read as a pattern,
// empty fields read as absent, cursors that count pages, a limit of 1 refused
// ---------------------------------------------------------------------------------------------

const listOps = (Operations.all as ReadonlyArray<Op>).filter((o) => o.kind === "list")

/** The literals of a list's `searchFields` entries (none when it has no `searchFields`). */
const searchFieldsOf = (op: Op): ReadonlyArray<string> => {
  const shape = fieldsOf(op).get("searchFields")?.shape
  return shape?._tag === "array" && shape.item._tag === "string" ? (shape.item.literals ?? []) : []
}

/** shared-search-fields: the `searchFields` entries another list allows and this one does not. */
const foreignSearchFields = (op: Op): ReadonlySet<string> => {
  const own = new Set(searchFieldsOf(op))
  return new Set(
    listOps
      .filter((o) => o !== op)
      .flatMap(searchFieldsOf)
      .filter((f) => !own.has(f))
  )
}

/** shared-filter-keys: the filter keys another list allows and this one does not. */
const foreignFilterKeys = (op: Op): ReadonlySet<string> => {
  const own = filterKeysOf(op)
  return new Set(
    listOps
      .filter((o) => o !== op)
      .flatMap((o) => [...filterKeysOf(o)])
      .filter((k) => !own.has(k))
  )
}

/** A condition no item matches: every object has an id. */
const MATCH_NONE = { field: { key: "id", operator: "empty" } }

/** shared-filter-keys: a condition on a key of another list reads the key as `""` on every item (it matches all or none). */
const foreignKeysAsEmpty = (filter: unknown, foreign: ReadonlySet<string>): unknown =>
  mapFilter(filter, (part) => {
    const field = part.field
    if (
      !isObject(field) ||
      !foreign.has(field.key as string) ||
      !operators.has(field.operator as string)
    )
      return part
    const value =
      isObject(field.value) && typeof field.value.value === "string" ? field.value.value : ""
    const condition = {
      field: {
        key: "k",
        operator: field.operator as Filter.Operator,
        value: { "@type": Filter.STRING_VALUE_TYPE, value }
      }
    } as Filter.Filter<string>
    return Filter.evaluate(condition, () => "") ? MATCH_ALL : MATCH_NONE
  })

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")

/** search-like-wildcards: a search term as the pattern of SQL's `LIKE '%term%'` (`%` any run, `_` any character, a backslash escapes the next). */
const likePattern = (term: string): RegExp => {
  let source = ""
  for (let i = 0; i < term.length; i++) {
    const ch = term[i]!
    if (ch === "\\" && i + 1 < term.length) source += escapeRegExp(term[++i]!)
    else source += ch === "%" ? "[\\s\\S]*" : ch === "_" ? "[\\s\\S]" : escapeRegExp(ch)
  }
  return new RegExp(source, "i")
}

/** search-like-wildcards: the items a search keeps under the LIKE reading (the request's `search` is then left out). */
const likeSearch = (
  store: StoreService,
  search: string,
  keys: ReadonlyArray<string>
): StoreService => {
  const pattern = likePattern(search)
  return {
    ...store,
    all: (c) =>
      Effect.map(store.all(c), (items) =>
        items.filter((item) => keys.some((k) => pattern.test(fieldValue(item, k))))
      )
  }
}

/** filter-regex: how each string operator anchors its value read as a regular expression. */
const ANCHORS: Partial<Record<Filter.Operator, readonly [string, string]>> = {
  equals: ["^(?:", ")$"],
  not_equals: ["^(?:", ")$"],
  contains: ["", ""],
  not_contains: ["", ""],
  starts_with: ["^(?:", ")"],
  ends_with: ["(?:", ")$"]
}

/** filter-regex: a filter whose string operators read their value as a regular expression (a value that is no valid one compares as text). */
const regexMatches = (filter: Filter.Filter<string>, item: Json): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined) {
    const results = filter.group.filters.map((f) => regexMatches(f, item))
    return filter.group.operator === "and" ? results.every(Boolean) : results.some(Boolean)
  }
  const { key, operator } = filter.field
  const anchors = ANCHORS[operator]
  if (anchors === undefined || key.endsWith("_at")) return matches(filter, item)
  let pattern: RegExp
  try {
    pattern = new RegExp(`${anchors[0]}${filter.field.value?.value ?? ""}${anchors[1]}`, "s")
  } catch {
    return matches(filter, item)
  }
  const hit = pattern.test(fieldValue(item, key))
  return operator.startsWith("not_") ? !hit : hit
}

/**
 * empty-operators-null: `empty` and `equals ""` select only items whose field is absent (SQL's
 * `IS NULL`), `not_empty` and `not_equals ""` every item that holds the field: a field stored as
 * `""` counts as a value. The other conditions are read faithfully.
 */
const nullEmptyMatches = (filter: Filter.Filter<string>, item: Json): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined) {
    const results = filter.group.filters.map((f) => nullEmptyMatches(f, item))
    return filter.group.operator === "and" ? results.every(Boolean) : results.some(Boolean)
  }
  const { key, operator } = filter.field
  const value = filter.field.value?.value ?? ""
  const raw = item[camelOf(key)]
  const absent = raw === undefined || raw === null
  if (operator === "empty" || (operator === "equals" && value === "")) return absent
  if (operator === "not_empty" || (operator === "not_equals" && value === "")) return !absent
  return matches(filter, item)
}

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

// ---------------------------------------------------------------------------------------------
// The records
// ---------------------------------------------------------------------------------------------

/** One violation: its name, the rule of `ContractRules` it breaks, what it does and its hooks. */
export interface ViolationRecord<N extends string = string> {
  readonly name: N
  readonly rule: ContractRules.RuleId
  readonly description: string
  readonly hooks: ViolationHooks
}

const violation = <const N extends string>(record: ViolationRecord<N>): ViolationRecord<N> => record

/**
 * The catalogue, grouped by check in report order. Hooks of the same stage compose in this order,
 * the first innermost.
 */
// ---------------------------------------------------------------------------------------------
// Faults nobody listed: a deadline held past, spellings of a request read apart, near routes
// served, ids that collide
// ---------------------------------------------------------------------------------------------

/** deadline-held: how long past its deadline a short-deadline call is answered. */
const HELD_PAST_DEADLINE_MILLIS = 2000

/** route-case-insensitive: the route paths by their lower-case form. */
const routesByLowerCase: ReadonlyMap<string, string> = new Map(
  Operations.all.map((o) => [o.path.toLowerCase(), o.path])
)

/** route-by-method-name: the route paths by method name alone. */
const routesByMethod: ReadonlyMap<string, string> = new Map(
  Operations.all.map((o) => [o.method, o.path])
)

/** zero-value-refused: the zero values of proto3 JSON (`""`, `false`, `0`, `[]`). */
const isZeroValue = (v: unknown): boolean =>
  v === "" || v === false || v === 0 || (Array.isArray(v) && v.length === 0)

/** ids-from-clock: the span of time whose creates share one id. */
const ID_WINDOW_MILLIS = 250

/** ids-from-clock: an id made of the object's prefix and the current window of time alone. */
const clockId = (id: string): string =>
  `${id.slice(0, id.lastIndexOf("_") + 1)}t${Math.floor(Date.now() / ID_WINDOW_MILLIS).toString(36)}`

/** ids-from-clock: a create stores and returns its object under the id of the current window, replacing the object of an earlier create in it. */
const clockIds: RouteHook<Handler> = (next, op) => {
  const c = collectionOf(op)
  const key = op.wrapperKey
  if (op.kind !== "create" || c === undefined || key === undefined) return next
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

export const records = [
  // no-server-errors
  violation({
    name: "server-error-on-unknown-field",
    rule: "errors.no-internal-for-client-faults",
    description: "A request with a field the operation does not know gets 500 internal.",
    hooks: {
      relax: refusing((body, _, fields) =>
        Object.keys(body).some((k) => !fields.has(k))
          ? ConnectError.make("internal", "internal error")
          : undefined
      )
    }
  }),
  // success-shape
  violation({
    name: "success-content-type",
    rule: "wire.success",
    description: "Successful responses say `Content-Type: text/plain`.",
    hooks: {
      writeSuccess: (next) => (headers, body) =>
        withOutput(next(headers, body), (out) => ({
          ...out,
          headers: { ...out.headers, "content-type": "text/plain" }
        }))
    }
  }),
  // error-shape
  violation({
    name: "invalid-error-body",
    rule: "errors.connect-body",
    description: 'Error bodies are `{"error": "..."}` without a Connect `code`.',
    hooks: {
      writeError: (next) => (error, headers, status) =>
        withOutput(next(error, headers, status), (out) => ({
          ...out,
          body: JSON.stringify({ error: error.message })
        }))
    }
  }),
  violation({
    name: "wrong-status-for-code",
    rule: "errors.status-agrees",
    description:
      "Errors carry an HTTP status that disagrees with their code (400 becomes 409, anything else 400).",
    hooks: {
      writeError: (next) => (error, headers, status) =>
        withOutput(next(error, headers, status), (out) => ({
          ...out,
          status: out.status === 400 ? 409 : 400
        }))
    }
  }),
  violation({
    name: "rate-limit-without-retry-after",
    rule: "errors.retry-after",
    description:
      "Every 20th request to a known route is rate limited: resource_exhausted (429) without `Retry-After`.",
    hooks: {
      admit: (next) => {
        let counter = 0
        return () =>
          ++counter % RATE_LIMIT_EVERY === 0
            ? new Fail(ConnectError.make("resource_exhausted", RATE_LIMITED))
            : next()
      }
    }
  }),
  violation({
    name: "rate-limit-reset-delta",
    rule: "errors.rate-limit-headers",
    description:
      "Every answer carries rate-limit headers whose `X-Ratelimit-Reset` is the seconds left in the window (`60`), not a Unix time.",
    hooks: {
      writeSuccess: (next) => (headers, body) =>
        withOutput(next(headers, body), (out) => ({
          ...out,
          headers: { ...out.headers, ...RateLimit.headers(100, 99, 60) }
        })),
      writeError: (next) => (error, headers, status) =>
        withOutput(next(error, headers, status), (out) => ({
          ...out,
          headers: { ...out.headers, ...RateLimit.headers(100, 99, 60) }
        }))
    }
  }),
  violation({
    name: "unknown-id-invalid",
    rule: "errors.unknown-id",
    description:
      "A Get or Update whose `id` names nothing answers invalid_argument instead of not_found.",
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        if ((op.kind !== "get" && op.kind !== "update") || c === undefined) return next
        return (request, ctx) =>
          typeof request.id !== "string"
            ? next(request, ctx)
            : Effect.flatMap(ctx.store.get(c, request.id), (found) =>
                found === undefined
                  ? Effect.fail(
                      ConnectError.make(
                        "invalid_argument",
                        `id: ${JSON.stringify(request.id)} is not a valid id`
                      )
                    )
                  : next(request, ctx)
              )
      }
    }
  }),
  violation({
    name: "unknown-reference-accepted",
    rule: "errors.unknown-reference",
    description:
      "Referenced ids that name nothing are accepted (CreateConnector `spaceId`, CreateDataDiscoveryConfiguration `resourceId` / `nativeUserId`, CreateNativeUserIdentityLink `nativeUserId` / `identityId`, UpdateSatellite `spaceId`); CreateHumanUserPassword for an unknown user answers for the first user.",
    hooks: {
      handler: (next, op) => {
        const oneOf = op.oneOf
        if (oneOf !== undefined) {
          // The user the request names, or the first one.
          return (request, ctx) =>
            Effect.flatMap(ctx.store.all("users"), (users) => {
              const first = users[0]
              const key = oneOf.find((k) => request[k] !== undefined)
              const known = key !== undefined && users.some((u) => u[key] === request[key])
              return first === undefined || known ? next(request, ctx) : next({ id: first.id }, ctx)
            })
        }
        return op.references.length === 0
          ? next
          : (request, ctx) => next(request, { ...ctx, store: lenientStore(ctx.store) })
      }
    }
  }),
  // secrets
  violation({
    name: "secret-in-error",
    rule: "secrets.not-in-errors",
    description:
      "invalid_argument error messages quote the request body as received, secret fields (`apiKey`, `apiSecret`, `certificate`, `privateKey`, `password`...) included.",
    hooks: {
      error: (next) => (e, ex) => {
        const error = next(e, ex)
        if (error.code !== "invalid_argument") return error
        const text = lenientText.decode(
          ex.bytes.length > MAX_QUOTED_BODY ? ex.bytes.subarray(0, MAX_QUOTED_BODY) : ex.bytes
        )
        return ConnectError.make("invalid_argument", `${error.message} (request body: ${text})`)
      }
    }
  }),
  violation({
    name: "key-in-error",
    rule: "secrets.key-not-in-errors",
    description:
      "An `X-API-KEY` the server does not know is quoted in the unauthenticated error message.",
    hooks: {
      checks: (next) => {
        const quoting = (c: Check): Check =>
          c.name !== "auth"
            ? c
            : {
                name: c.name,
                run: (input, op) => {
                  const refusal = c.run(input, op)
                  const key = input.headers["x-api-key"]
                  return refusal === undefined || key === undefined || key === ""
                    ? refusal
                    : {
                        ...refusal,
                        error: ConnectError.make(
                          "unauthenticated",
                          `the API key ${key} is not known`
                        )
                      }
                }
              }
        return { beforeBody: next.beforeBody.map(quoting), afterBody: next.afterBody.map(quoting) }
      }
    }
  }),
  // response-schema
  violation({
    name: "missing-required-field",
    rule: "response.schema",
    description: "The returned object has no `id` (HumanUserPassword: no `password`).",
    hooks: {
      respond: onTarget((target, _, op) => delete target[isTopLevel(op) ? "password" : "id"])
    }
  }),
  violation({
    name: "wrong-field-type",
    rule: "response.field-types",
    description: "The returned object's `id` (HumanUserPassword: `username`) is a JSON number.",
    hooks: {
      respond: onTarget((target, _, op) => (target[isTopLevel(op) ? "username" : "id"] = 12345))
    }
  }),
  violation({
    name: "non-utc-timestamp",
    rule: "timestamps.utc-z",
    description: "`createdAt` is written with a `+02:00` offset instead of `Z`.",
    hooks: {
      respond: onTarget((target) => {
        if (typeof target.createdAt !== "string") return
        // The same instant, written with a +02:00 offset.
        const shifted = new Date(Date.parse(target.createdAt) + 2 * 3_600_000).toISOString()
        target.createdAt = `${shifted.slice(0, -1)}+02:00`
      })
    }
  }),
  violation({
    name: "timestamp-fraction-digits",
    rule: "timestamps.fraction-digits",
    description:
      "`createdAt` of the object a Get, create or update returns is written with 2 fractional digits (`...:00.12Z`).",
    hooks: {
      // Not in lists: a truncated createdAt could reorder a descending page.
      respond: onTarget(
        (target) => {
          if (typeof target.createdAt === "string") target.createdAt = twoDigits(target.createdAt)
        },
        (op) => op.kind !== "list"
      )
    }
  }),
  violation({
    name: "int64-as-number",
    rule: "int64.as-string",
    description: "`relativeTime` of saved log queries is written as a JSON number.",
    hooks: {
      respond: responding(
        (body, _, op) => {
          const items = body[op.itemField!]
          if (!Array.isArray(items)) return
          // The one int64 of the interface: a saved log query's `query.relativeTime`.
          for (const item of items as Array<unknown>) {
            const query = isObject(item) ? item.query : undefined
            if (isObject(query) && typeof query.relativeTime === "string")
              query.relativeTime = Number(query.relativeTime)
          }
        },
        (op) => op.itemField !== undefined
      )
    }
  }),
  violation({
    name: "snake-case-output",
    rule: "wire.output-camel-case",
    description:
      "Success bodies name their fields in snake_case (`created_at`, `list_metadata`) at every depth.",
    hooks: { respond: responding((body) => snakeKeys(body)) }
  }),
  // timestamps
  violation({
    name: "created-at-in-future",
    rule: "timestamps.past",
    description: "`createdAt` of returned objects is one day after the response time.",
    hooks: {
      respond: onTarget((target) => {
        if (typeof target.createdAt === "string")
          target.createdAt = new Date(Date.now() + 86_400_000).toISOString()
      })
    }
  }),
  violation({
    name: "expires-at-in-past",
    rule: "timestamps.expires-future",
    description: "CreateHumanUserPassword's `expiresAt` is one hour before the response time.",
    hooks: {
      respond: onTarget((target) => {
        if (typeof target.expiresAt === "string")
          target.expiresAt = new Date(Date.now() - 3_600_000).toISOString()
      })
    }
  }),
  // valid-accepted
  violation({
    name: "rejects-unknown-field",
    rule: "wire.unknown-fields-ignored",
    description: "A request with a field the operation does not know gets invalid_argument.",
    hooks: {
      relax: refusing((body, _, fields) => {
        const unknown = Object.keys(body).find((k) => !fields.has(k))
        return unknown === undefined
          ? undefined
          : ConnectError.make("invalid_argument", `${unknown}: unknown field`)
      })
    }
  }),
  violation({
    name: "rejects-snake-case",
    rule: "wire.snake-case",
    description:
      "A request that names one of its fields in snake_case (`resource_id`) gets invalid_argument.",
    hooks: {
      parse: (next, op) => {
        const fields = fieldsOf(op)
        return (bytes) => {
          const parsed = next(bytes)
          if (
            typeof parsed === "string" ||
            parsed instanceof ConnectError.ConnectError ||
            parsed === STAND_IN
          )
            return parsed
          // The names as sent: the faithful parser has already turned them into lowerCamelCase.
          const raw: unknown = JSON.parse(lenientText.decode(bytes))
          const snake = isObject(raw) ? snakeCaseField(fields, raw) : undefined
          return snake === undefined
            ? parsed
            : ConnectError.make(
                "invalid_argument",
                `${snake}: unknown field name; use lowerCamelCase`
              )
        }
      }
    }
  }),
  violation({
    name: "rejects-null",
    rule: "wire.null-is-unset",
    description: "A request with `null` for a field gets invalid_argument.",
    hooks: {
      relax: refusing((body) => {
        const path = nullField(body, "")
        return path === undefined
          ? undefined
          : ConnectError.make("invalid_argument", `${path}: null is not a value`)
      })
    }
  }),
  violation({
    name: "requires-optional-field",
    rule: "fields.valid-accepted",
    description: "A create or update that leaves out an optional field gets invalid_argument.",
    hooks: {
      relax: refusing(
        (body, op) => {
          const missing = [...fieldsOf(op)].find(
            ([k, f]) => !f.required && f.shape._tag === "boolean" && body[k] === undefined
          )
          return missing === undefined
            ? undefined
            : ConnectError.make("invalid_argument", `${missing[0]}: required`)
        },
        (op) => op.kind === "create"
      )
    }
  }),
  violation({
    name: "limit-off-by-one",
    rule: "lists.limit-accepted",
    description: "`limit: 500` gets invalid_argument.",
    hooks: {
      relax: refusing(
        (body) =>
          body.limit === 500
            ? ConnectError.make("invalid_argument", "limit must be from 1 to 499")
            : undefined,
        (op) => op.kind === "list"
      )
    }
  }),
  // invalid-rejected
  violation({
    name: "ignored-min-length",
    rule: "fields.min-length",
    description:
      "Strings under their min length (1; 9 for `workerSchedule`) are accepted, padded with `x`.",
    hooks: { relax: relaxing((body, op) => padMinLengths(fieldsOf(op), body)) }
  }),
  violation({
    name: "ignored-limit-range",
    rule: "lists.limit-range",
    description: "List `limit` outside 1 to 500 (or absent) is clamped instead of rejected.",
    hooks: {
      relax: relaxing(
        (body) => {
          const limit = body.limit
          body.limit =
            typeof limit === "number" && Number.isFinite(limit)
              ? Math.min(500, Math.max(1, Math.trunc(limit)))
              : 100
        },
        (op) => op.kind === "list"
      )
    }
  }),
  violation({
    name: "ignored-enum",
    rule: "fields.enum",
    description:
      "A request enum value outside its list (`status`, `workerRuntime`, `deletionPolicy`, `identityType`, `order`, `searchFields` entries) is taken as the first listed value.",
    hooks: { relax: relaxing((body, op) => ignoreEnums(fieldsOf(op), body)) }
  }),
  violation({
    name: "ignored-json-type",
    rule: "fields.json-type",
    description:
      "An optional request field of the wrong JSON type is taken as not set, and a fractional `limit` is truncated.",
    hooks: { relax: relaxing((body, op) => ignoreJsonTypes(fieldsOf(op), body)) }
  }),
  violation({
    name: "ignored-required",
    rule: "fields.required",
    description:
      'A missing or `null` required string field is taken as `"missing"` (a required object as `{}`, a missing `limit` as 100).',
    hooks: { relax: relaxing((body, op) => fillRequired(fieldsOf(op), body)) }
  }),
  violation({
    name: "ignored-one-of",
    rule: "fields.one-of",
    description:
      "CreateHumanUserPassword with two or none of `email`, `username`, `id` uses the first one set (none: the first user).",
    hooks: {
      relax: (next, op, fields) => {
        const oneOf = op.oneOf
        if (oneOf === undefined) return next
        return relaxing((body) => {
          const set = oneOf.filter((k) => body[k] !== undefined && body[k] !== null)
          if (set.length === 0) body[oneOf[oneOf.length - 1]!] = FIRST_USER
          for (const k of set.slice(1)) delete body[k]
        })(next, op, fields)
      },
      handler: (next, op) => {
        const oneOf = op.oneOf
        if (oneOf === undefined) return next
        // The stand-in goes in the last of the fields (CreateHumanUserPassword's `id`).
        const last = oneOf[oneOf.length - 1]!
        return (request, ctx) =>
          request[last] !== FIRST_USER
            ? next(request, ctx)
            : Effect.flatMap(ctx.store.all("users"), (users) =>
                users[0] === undefined ? next(request, ctx) : next({ [last]: users[0][last] }, ctx)
              )
      }
    }
  }),
  violation({
    name: "ignored-connector-name-pattern",
    rule: "fields.connector-name",
    description: "CreateConnector accepts any non-empty `name`.",
    hooks: {
      // A stand-in takes the name's place for decoding; the request then gets the name sent.
      relax: (next, op, fields) => {
        const names = connectorNameFields(op)
        if (names.length === 0) return next
        return relaxing((body) => {
          for (const k of names)
            if (typeof body[k] === "string" && body[k] !== "") body[k] = "connector"
        })(next, op, fields)
      },
      prepare: (next, op) => {
        const names = connectorNameFields(op)
        if (names.length === 0) return next
        return (request, ex) => {
          const named: Record<string, unknown> = { ...request }
          for (const k of names)
            if (typeof ex.sent[k] === "string" && ex.sent[k] !== "") named[k] = ex.sent[k]
          return next(named, ex)
        }
      }
    }
  }),
  violation({
    name: "empty-body-accepted",
    rule: "wire.empty-body",
    description:
      "A zero-length body is read as `{}`, its required fields taken as `ignored-required` takes them.",
    hooks: {
      parse: (next) => (bytes) => (bytes.length === 0 ? STAND_IN : next(bytes)),
      relax: standInFilled
    }
  }),
  violation({
    name: "non-object-body-accepted",
    rule: "wire.json-object-body",
    description:
      "A body that is malformed JSON, an array or a string is read as `{}`, its required fields taken as `ignored-required` takes them.",
    hooks: {
      parse: (next) => (bytes) => {
        const parsed = next(bytes)
        return typeof parsed === "string" && bytes.length > 0 ? STAND_IN : parsed
      },
      relax: standInFilled
    }
  }),
  violation({
    name: "unknown-cursor-accepted",
    rule: "lists.unknown-cursor",
    description: "A cursor the server never gave starts at the first page.",
    hooks: {
      relax: relaxing((body) => {
        if (
          typeof body.cursor === "string" &&
          body.cursor !== "" &&
          decodeCursor(body.cursor) === undefined
        )
          delete body.cursor
      })
    }
  }),
  violation({
    name: "unknown-filter-key-accepted",
    rule: "filter.unknown-key",
    description: "A filter condition with an unknown key or operator matches every item.",
    hooks: {
      relax: relaxing((body, op) => {
        if (body.filter !== undefined)
          body.filter = acceptUnknownKeys(body.filter, filterKeysOf(op))
      })
    }
  }),
  violation({
    name: "empty-group-accepted",
    rule: "filter.group-not-empty",
    description: "A filter group with no filters matches every item.",
    hooks: {
      relax: relaxing((body) => {
        if (body.filter !== undefined) body.filter = acceptEmptyGroups(body.filter)
      })
    }
  }),
  // auth
  violation({
    name: "auth-ignored",
    rule: "auth.key-required",
    description: "A missing, empty or unknown `X-API-KEY` is accepted.",
    hooks: { checks: without("auth") }
  }),
  // protocol
  violation({
    name: "wrong-method-accepted",
    rule: "protocol.method",
    description: "Other HTTP methods than POST are served instead of answered 405.",
    hooks: { checks: without("method") }
  }),
  violation({
    name: "unknown-route-wrong-code",
    rule: "protocol.unknown-route",
    description: "Unknown routes get 404 with the code not_found instead of unimplemented.",
    hooks: { unknownRoute: (next) => (path) => ConnectError.make("not_found", next(path).message) }
  }),
  violation({
    name: "content-type-ignored",
    rule: "protocol.content-type",
    description:
      "Requests with another content type than `application/json` are served as JSON instead of answered 415.",
    hooks: { checks: without("content-type") }
  }),
  violation({
    name: "version-header-ignored",
    rule: "protocol.version-header",
    description:
      "CreatePermission is served without `Connect-Protocol-Version` (or with another value).",
    hooks: { checks: without("headers") }
  }),
  violation({
    name: "small-body-limit",
    rule: "protocol.body-limit",
    description: "Bodies over 64 KiB get resource_exhausted.",
    hooks: { bodyLimit: (next) => (configured) => Math.min(SMALL_BODY_LIMIT, next(configured)) }
  }),
  violation({
    name: "deadline-wrong-code",
    rule: "protocol.deadline",
    description:
      "A call with `Connect-Timeout-Ms` under 100 answers canceled (499) at once; a passed deadline answers canceled instead of deadline_exceeded.",
    hooks: {
      deadline: (next) => (work, millis, started) =>
        millis < 100
          ? Effect.succeed(
              new Fail(ConnectError.make("canceled", `the deadline of ${millis} ms is too short`))
            )
          : Effect.map(next(work, millis, started), (answer) =>
              answer instanceof Fail && answer.error.code === "deadline_exceeded"
                ? new Fail(ConnectError.make("canceled", answer.error.message))
                : answer
            )
    }
  }),
  // Faults nobody listed (each a cause across the contract)
  violation({
    name: "deadline-held",
    rule: "protocol.deadline",
    description: `A call whose \`Connect-Timeout-Ms\` is under 1000 runs to its end and is answered normally ${HELD_PAST_DEADLINE_MILLIS} ms after its deadline passed, instead of deadline_exceeded.`,
    hooks: {
      deadline: (next) => (work, millis, started) =>
        millis < 1000
          ? Effect.zipLeft(work, Effect.sleep(millis + HELD_PAST_DEADLINE_MILLIS))
          : next(work, millis, started)
    }
  }),
  violation({
    name: "media-type-exact",
    rule: "protocol.content-type",
    description:
      "A `Content-Type` other than exactly `application/json` (with a `charset` parameter, or in capitals) is answered 415.",
    hooks: {
      checks: (next) => ({
        beforeBody: next.beforeBody.map((c): Check =>
          c.name !== "content-type"
            ? c
            : {
                name: c.name,
                run: (input, op) =>
                  c.run(input, op) ??
                  (input.headers["content-type"] === "application/json"
                    ? undefined
                    : { error: ConnectError.make("unknown", "use application/json"), status: 415 })
              }
        ),
        afterBody: next.afterBody
      })
    }
  }),
  violation({
    name: "json-escapes-literal",
    rule: "wire.json-spellings",
    description:
      "The body's JSON is read with `\\uXXXX` escapes kept as the six characters written: an escaped name or value is another name or value.",
    hooks: {
      parse: (next) => (bytes) =>
        next(
          new TextEncoder().encode(
            new TextDecoder().decode(bytes).replace(/\\u([0-9a-fA-F]{4})/g, "\\\\u$1")
          )
        )
    }
  }),
  violation({
    name: "zero-value-refused",
    rule: "wire.zero-is-unset",
    description:
      'A request (but an update) that sends an optional field as its zero value (`""`, `false`, `0`, `[]`) gets invalid_argument, where the field left out is accepted.',
    hooks: {
      relax: (next, op) =>
        op.kind === "update"
          ? next
          : (body, ex) => {
              const zero = [...fieldsOf(op)].find(([k, f]) => !f.required && isZeroValue(body[k]))
              return zero === undefined
                ? next(body, ex)
                : ConnectError.make("invalid_argument", `${zero[0]} must not be empty`)
            }
    }
  }),
  violation({
    name: "route-case-insensitive",
    rule: "protocol.unknown-route",
    description:
      "Routes match without regard to case: `/core.v1.resourceservice/getresource` is GetResource.",
    hooks: { resolve: (next) => (path) => routesByLowerCase.get(path.toLowerCase()) ?? next(path) }
  }),
  violation({
    name: "route-by-method-name",
    rule: "protocol.unknown-route",
    description:
      "Routes match by the method name alone, the last segment of the path: the package and the service are not read (`/core.v2.SatelliteService/GetResource` is GetResource).",
    hooks: {
      resolve: (next) => (path) =>
        routesByMethod.get(/([^/]+)\/?$/.exec(path)?.[1] ?? "") ?? next(path)
    }
  }),
  violation({
    name: "route-by-prefix",
    rule: "protocol.unknown-route",
    description:
      "A path that starts with a route's path is that route: `/core.v1.ResourceService/GetResources` and `/core.v1.ResourceService/GetResource/` are GetResource.",
    hooks: {
      resolve: (next) => (path) =>
        Operations.all.find((o) => path.startsWith(o.path))?.path ?? next(path)
    }
  }),
  violation({
    name: "ids-from-clock",
    rule: "echo.create-stored",
    description: `A created object's id is made of the time alone, to ${ID_WINDOW_MILLIS} ms: creates in quick succession get one id, and the last replaces the others in the store.`,
    hooks: { handler: clockIds }
  }),
  // create-echo
  violation({
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
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
    name: "create-default-not-zero",
    rule: "echo.create-zero-values",
    description:
      "A create that leaves `terminationProtection` out turns it on (a default of its own instead of proto3's zero value), and stores it so.",
    hooks: {
      handler: (next, op) =>
        op.kind !== "create" ||
        !SchemaAST.getPropertySignatures(op.request.ast).some(
          (p) => p.name === "terminationProtection"
        )
          ? next
          : (request, ctx) =>
              next(
                request.terminationProtection === undefined ||
                  request.terminationProtection === null
                  ? { ...request, terminationProtection: true }
                  : request,
                ctx
              )
    }
  }),
  violation({
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
  }),
  violation({
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
  }),
  // update-semantics
  violation({
    name: "update-ignored",
    rule: "updates.apply",
    description: "Updates change nothing and return the object as it was.",
    hooks: { handler: onUpdates((current) => both({ ...current })) }
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
    name: "update-null-clears",
    rule: "updates.null-unchanged",
    description: "A field sent as `null` in an update is reset to its zero value.",
    hooks: {
      handler: onUpdates((_, changed, c, sent) =>
        both(clearFields(c, changed, (k) => sent[k] === null))
      )
    }
  }),
  violation({
    name: "update-not-stored",
    rule: "updates.stored",
    description: "An update returns the changed object but stores nothing.",
    hooks: { handler: onUpdates((current, changed) => ({ stored: current, returned: changed })) }
  }),
  violation({
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
  }),
  violation({
    name: "update-stale-index",
    rule: "updates.listed",
    description:
      "`search`, `filter` and the parent scope of a List read an updated object as it was before its first update (a stale search index); the items come back as they are now.",
    hooks: { handler: staleIndex }
  }),
  // paging
  violation({
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
  }),
  violation({
    name: "limit-exceeded",
    rule: "lists.limit-respected",
    description: "Pages hold `limit` + 1 items when there are that many.",
    hooks: {
      handler: (next, op) =>
        op.kind === "list"
          ? (request, ctx) => next({ ...request, limit: (request.limit as number) + 1 }, ctx)
          : next
    }
  }),
  violation({
    name: "paging-duplicates",
    rule: "lists.walk-once",
    description: "`nextCursor` points one item back, so the next page repeats the last item.",
    hooks: { handler: onPages((op, body) => pointCursorBack(op, body)) }
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
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
  }),
  violation({
    name: "order-ignored",
    rule: "lists.order",
    description: "`order: desc` is ignored; pages are always ascending.",
    hooks: { prepare: listIgnores("order") }
  }),
  // search-filter
  violation({
    name: "search-ignored",
    rule: "search.match",
    description: "`search` is ignored.",
    hooks: { prepare: listIgnores("search") }
  }),
  violation({
    name: "search-case-sensitive",
    rule: "search.case-insensitive",
    description: "`search` compares case-sensitively.",
    hooks: { handler: searchedBy(caseSensitiveSearch) }
  }),
  violation({
    name: "search-fields-ignored",
    rule: "search.fields",
    description: "`search` looks only in `name`, whatever `searchFields` says.",
    hooks: { prepare: listIgnores("searchFields") }
  }),
  violation({
    name: "filter-ignored",
    rule: "filter.match",
    description: "`filter` is ignored.",
    hooks: { prepare: listIgnores("filter") }
  }),
  violation({
    name: "filter-or-as-and",
    rule: "filter.group-operator",
    description: "A filter group with `operator: or` is evaluated as `and`.",
    hooks: {
      prepare: (next, op) =>
        op.kind !== "list"
          ? next
          : (request, ex) =>
              request.filter === undefined
                ? next(request, ex)
                : next({ ...request, filter: orAsAnd(request.filter as Filter.Filter<string>) }, ex)
    }
  }),
  violation({
    name: "time-filter-as-text",
    rule: "filter.time-instants",
    description:
      "`lower_than` / `greater_than` on `created_at` / `updated_at` compare the texts, not the instants they name.",
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        return op.kind !== "list" || c === undefined
          ? next
          : filteringWith(c, (filter, item) =>
              Filter.evaluate(filter, (key) => fieldValue(item, key))
            )(next)
      }
    }
  }),
  violation({
    name: "space-filter-ignored",
    rule: "lists.space-scope",
    description: "ListSatellites ignores `spaceId`.",
    // The optional parent of a list (ListSatellites' `spaceId`).
    hooks: {
      prepare: (next, op, fields) =>
        op.parent === undefined || op.parent.required
          ? next
          : listIgnores(op.parent.field)(next, op, fields)
    }
  }),
  violation({
    name: "parent-scope-ignored",
    rule: "lists.parent-scope",
    description: "ListNativeUsers ignores `resourceId`: every native user comes back.",
    // The required parent of a list (ListNativeUsers' `resourceId`).
    hooks: {
      prepare: (next, op, fields) =>
        op.parent === undefined || !op.parent.required
          ? next
          : listIgnores(op.parent.field)(next, op, fields)
    }
  }),
  violation({
    name: "key-id-ignored",
    rule: "keys.by-key-id",
    description: "GetEncryptionKeysByKeyId returns every key, whatever `keyId` says.",
    // A Get by another field than `id` (the operation's `lookupKey`) answers every object.
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        const key = op.wrapperKey
        return op.lookupKey === undefined || c === undefined || key === undefined
          ? next
          : (_, ctx) => Effect.map(ctx.store.all(c), (all) => ({ [key]: all }))
      }
    }
  }),
  violation({
    name: "key-id-as-object-id",
    rule: "keys.known-key-id",
    description:
      "GetEncryptionKeysByKeyId looks keys up by their object `id`, not their provider-side `keyId`: a real keyId finds nothing.",
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        const key = op.wrapperKey
        const lookup = op.lookupKey
        return lookup === undefined || c === undefined || key === undefined
          ? next
          : (request, ctx) =>
              Effect.map(ctx.store.all(c), (all) => ({
                [key]: all.filter((k) => k.id === request[lookup])
              }))
      }
    }
  }),
  // stable-reads
  violation({
    name: "get-wrong-object",
    rule: "reads.named-object",
    description:
      "A Get of an existing id returns another object of the same collection (the first one that is not it).",
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        const key = op.wrapperKey
        if (op.kind !== "get" || c === undefined || key === undefined) return next
        return (request, ctx) =>
          Effect.flatMap(next(request, ctx), (body) =>
            Effect.map(ctx.store.all(c), (all) => {
              const other = all.find((o) => o.id !== request.id)
              return other === undefined || typeof request.id !== "string" ? body : { [key]: other }
            })
          )
      }
    }
  }),
  violation({
    name: "unstable-read",
    rule: "reads.stable",
    description: "Each Get returns a fresh `updatedAt`, so two reads differ.",
    hooks: {
      respond: onTarget(
        (target) => {
          if (typeof target.updatedAt === "string") target.updatedAt = stamp()
        },
        (op) => op.kind === "get"
      )
    }
  }),
  // Faults of the List operations' inputs that no earlier violation made (each breaks a rule another record breaks too)
  violation({
    name: "shared-search-fields",
    rule: "fields.enum",
    description:
      "Every List with `searchFields` accepts the entries any List allows (one enum for all): ListSatellites takes `type`, which it reads as a field no satellite has.",
    hooks: {
      relax: relaxing(
        (body, op) => {
          const foreign = foreignSearchFields(op)
          if (Array.isArray(body.searchFields))
            body.searchFields = body.searchFields.filter((f) => !foreign.has(f as string))
        },
        (op) => foreignSearchFields(op).size > 0
      )
    }
  }),
  violation({
    name: "shared-filter-keys",
    rule: "filter.unknown-key",
    description:
      'Every filtered List accepts the filter keys of any List (one key list for all): ListIntegrationsMDM takes `satellite_type`, `space_id`... and reads them as `""` on every item.',
    hooks: {
      relax: relaxing(
        (body, op) => {
          if (body.filter !== undefined)
            body.filter = foreignKeysAsEmpty(body.filter, foreignFilterKeys(op))
        },
        (op) => foreignFilterKeys(op).size > 0
      )
    }
  }),
  violation({
    name: "search-like-wildcards",
    rule: "search.match",
    description:
      "`search` is read as SQL's `LIKE '%term%'` without escaping: `%` and `_` in a term are wildcards.",
    hooks: { handler: searchedBy(likeSearch) }
  }),
  violation({
    name: "filter-regex",
    rule: "filter.match",
    description:
      "The string operators of a filter read their value as a regular expression (`.` any character, `^` and `$` anchors...); a value that is no valid one compares as text.",
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        return op.kind !== "list" || c === undefined ? next : filteringWith(c, regexMatches)(next)
      }
    }
  }),
  violation({
    name: "empty-operators-null",
    rule: "filter.match",
    description:
      '`empty` and `equals ""` select only items whose field is absent (SQL\'s `IS NULL`), `not_empty` and `not_equals ""` every item that holds it: a field stored as `""` (a satellite without a space) counts as a value.',
    hooks: {
      handler: (next, op) => {
        const c = collectionOf(op)
        return op.kind !== "list" || c === undefined
          ? next
          : filteringWith(c, nullEmptyMatches)(next)
      }
    }
  }),
  violation({
    name: "cursor-page-number",
    rule: "lists.walk-complete",
    description:
      "`nextCursor` names the next page by its number, and a page starts at that number times the request's `limit`: a walk that changes `limit` between pages skips or repeats items.",
    hooks: { handler: pageNumberCursors }
  }),
  violation({
    name: "limit-one-refused",
    rule: "lists.limit-accepted",
    description: "`limit: 1` gets invalid_argument (the range read as 2 to 500).",
    hooks: {
      relax: refusing(
        (body) =>
          body.limit === 1
            ? ConnectError.make("invalid_argument", "limit must be from 2 to 500")
            : undefined,
        (op) => op.kind === "list"
      )
    }
  }),
  violation({
    name: "short-parent-id-refused",
    rule: "fields.valid-accepted",
    description:
      "A List's required parent id of one character (ListNativeUsers' `resourceId`: `x`, `😀`) gets invalid_argument (its min length read as 2).",
    hooks: {
      relax: (next, op, fields) => {
        const field = op.parent?.required === true ? op.parent.field : undefined
        if (field === undefined) return next
        return refusing((body) =>
          typeof body[field] === "string" && Array.from(body[field]).length === 1
            ? ConnectError.make("invalid_argument", `${field} must be at least 2 characters`)
            : undefined
        )(next, op, fields)
      }
    }
  })
] as const

/** A violation's name. */
export type ViolationName = (typeof records)[number]["name"]

type Unbroken = Exclude<(typeof ContractRules.rules)[number]["violation"], ViolationName>
/** Every rule of `ContractRules` has its violation's record (a compile error names the rules that do not). */
export const everyRuleHasARecord: [Unbroken] extends [never] ? true : Unbroken = true

/** Finds a record by name. */
export const byName: ReadonlyMap<string, ViolationRecord<ViolationName>> = new Map(
  records.map((r) => [r.name, r])
)
