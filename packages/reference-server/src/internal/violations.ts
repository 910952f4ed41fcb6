/**
 * The contract violations of the fault catalogue (`Faults.violations`): transforms of a request
 * (its bytes, its fields before and after decoding), of a handler (the store it sees, the request
 * it gets, the body it returns), of a success body and of an error. `make` builds them for one
 * request, only while a violation is on; the protocol's own violations (method, content type,
 * key, headers, routes, deadlines, body size, error status and body) are single checks in
 * `app.ts`.
 *
 * Each violation breaks the one rule of `ContractRules` it names, and as little else as it can.
 *
 * @internal
 */
import { ConnectError, Filter, type Operations } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as SchemaAST from "effect/SchemaAST"
import * as Collections from "../Collections.js"
import type { CollectionName, Json } from "../Collections.js"
import type { ViolationName } from "../Faults.js"
import { sortKey, type StoreService } from "../Store.js"
import { decodeCursor, encodeCursor } from "./cursor.js"
import { fieldValue, type Handler, normalize } from "./handlers.js"

type Op = Operations.Operations[Operations.MethodName]
type Body = Record<string, unknown>
type Request = Readonly<Record<string, unknown>>

// ---------------------------------------------------------------------------------------------
// Request shapes: the JSON types, required fields, enums and min lengths of a request, read once
// per operation from its schema (the encoded side, refinements kept).
// ---------------------------------------------------------------------------------------------

type Shape =
  | { readonly _tag: "string"; readonly minLength: number; readonly literals: ReadonlyArray<string> | undefined }
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
      return typeof ast.literal === "string" ? { _tag: "string", minLength: 0, literals: [ast.literal] } : OTHER
    case "Refinement": {
      const from = shapeOf(ast.from)
      const json = ast.annotations[SchemaAST.JSONSchemaAnnotationId] as { readonly minLength?: unknown; readonly type?: unknown } | undefined
      if (from._tag === "string" && typeof json?.minLength === "number") return { ...from, minLength: Math.max(from.minLength, json.minLength) }
      if (from._tag === "number" && json?.type === "integer") return { _tag: "number", int: true }
      return from
    }
    case "Union": {
      // `null` and `undefined` members are how optional request fields are written.
      const members = ast.types.filter((t) => !(t._tag === "Literal" && t.literal === null) && t._tag !== "UndefinedKeyword")
      const literals = members.flatMap((t) => (t._tag === "Literal" && typeof t.literal === "string" ? [t.literal] : []))
      if (members.length > 1 && literals.length === members.length) return { _tag: "string", minLength: 0, literals }
      return members.length === 1 ? shapeOf(members[0]!) : OTHER
    }
    case "TypeLiteral":
      return {
        _tag: "object",
        fields: new Map(ast.propertySignatures.map((p) => [String(p.name), { required: !p.isOptional, shape: shapeOf(p.type) }]))
      }
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1 ? { _tag: "array", item: shapeOf(ast.rest[0]!.type) } : OTHER
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
const eachField = (fields: Fields, body: Body, f: (body: Body, key: string, field: { readonly required: boolean; readonly shape: Shape }) => void): void => {
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
    } else if (shape._tag === "number" && shape.int && typeof value === "number" && !Number.isInteger(value)) {
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
    const fix = (s: Shape, x: unknown) => (s._tag === "string" && s.literals !== undefined && typeof x === "string" && !s.literals.includes(x) ? s.literals[0] : x)
    if (shape._tag === "array" && Array.isArray(value)) b[key] = value.map((x) => fix(shape.item, x))
    else b[key] = fix(shape, value)
    if (b[key] === undefined) delete b[key]
  })

/** ignored-min-length: a string under its min length is padded with `x`. */
const padMinLengths = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { shape }) => {
    const value = b[key]
    if (shape._tag === "string" && shape.minLength > 0 && typeof value === "string" && value.length < shape.minLength) {
      b[key] = value + "x".repeat(shape.minLength - value.length)
    }
  })

const snakeToCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())

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
      else if (ast._tag === "Literal" && path.join(".") === "filter.field.key" && typeof ast.literal === "string") found.add(ast.literal)
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

/** unknown-filter-key-accepted, empty-group-accepted: those parts of a filter (as sent) match every item. */
const relaxFilter = (filter: unknown, keys: ReadonlySet<string>, v: ReadonlySet<ViolationName>): unknown => {
  if (!isObject(filter)) return filter
  const field = filter.field
  if (isObject(field) && v.has("unknown-filter-key-accepted") && (!keys.has(field.key as string) || !operators.has(field.operator as string))) {
    return MATCH_ALL
  }
  const group = filter.group
  if (isObject(group) && Array.isArray(group.filters)) {
    if (group.filters.length === 0 && v.has("empty-group-accepted")) return MATCH_ALL
    return { ...filter, group: { ...group, filters: group.filters.map((f) => relaxFilter(f, keys, v)) } }
  }
  return filter
}

/** filter-or-as-and: every `or` group of a decoded filter becomes `and`. */
const orAsAnd = (filter: Filter.Filter<string>): Filter.Filter<string> =>
  "group" in filter && filter.group !== undefined
    ? { group: { operator: "and", filters: filter.group.filters.map(orAsAnd) as unknown as readonly [Filter.Filter<string>, ...Array<Filter.Filter<string>>] } }
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

/**
 * The store an update handler sees: the update-semantics violations. update-clears-unsent acts on
 * an update that sends a field: one that sends only its id (a read) changes nothing, so the state
 * before an update can still be seen.
 */
const updateStore = (store: StoreService, v: ReadonlySet<ViolationName>, sent: Body): StoreService => ({
  ...store,
  modify: <E>(c: CollectionName, id: string, f: (current: Json) => Effect.Effect<Json, E>) => {
    const clearsUnsent = v.has("update-clears-unsent") && Object.keys(sent).some((k) => k !== "id")
    let returned: Json | undefined
    const modified = store.modify(c, id, (current) =>
      Effect.map(f(current), (changed): Json => {
        let next: Record<string, unknown> = v.has("update-ignored") ? { ...current } : { ...changed }
        if (clearsUnsent || v.has("update-null-clears")) {
          for (const [k, zero] of Object.entries(zeroOf(c))) {
            if (UNCLEARED.has(k) || (zero !== null && typeof zero === "object")) continue
            if ((clearsUnsent && !(k in sent)) || (v.has("update-null-clears") && sent[k] === null)) next[k] = zero
          }
        }
        if (v.has("updated-at-not-moved")) {
          const { updatedAt: _, ...rest } = next
          next = current.updatedAt === undefined ? rest : { ...rest, updatedAt: current.updatedAt }
        }
        returned = next
        return v.has("update-not-stored") ? current : next
      })
    )
    return Effect.map(modified, (stored) => (stored === undefined ? undefined : returned))
  }
})

/** unknown-reference-accepted: an id that names nothing reads as an object with only that id. */
const lenientStore = (store: StoreService): StoreService => ({
  ...store,
  get: (c, id) => Effect.map(store.get(c, id), (found) => found ?? { id })
})

/** search-case-sensitive: the items a search keeps, compared as they are (the request's `search` is then left out). */
const caseSensitiveSearch = (store: StoreService, search: string, keys: ReadonlyArray<string>): StoreService => ({
  ...store,
  all: (c) => Effect.map(store.all(c), (items) => items.filter((item) => keys.some((k) => fieldValue(item, k).includes(search))))
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
  return Array.isArray(items) ? { items: items as ReadonlyArray<Json>, meta: { ...(body.listMetadata as Body | undefined) } } : undefined
}

const cursorAt = (order: "asc" | "desc", item: Json) => encodeCursor({ order, key: sortKey(item), id: String(item.id) })

/** paging-duplicates: the next cursor points at the page's next-to-last item, so the next page repeats the last. */
const pointCursorBack = (op: Op, body: Json): Json => {
  const page = pageOf(op, body)
  const cursor = typeof page?.meta.nextCursor === "string" ? decodeCursor(page.meta.nextCursor) : undefined
  if (page === undefined || cursor === undefined || page.items.length < 2) return body
  return { ...body, listMetadata: { ...page.meta, nextCursor: cursorAt(cursor.order, page.items[page.items.length - 2]!) } }
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
  const nextCursor = page.meta.nextCursor !== "" && page.meta.nextCursor !== undefined ? page.meta.nextCursor : cursorAt(order, last)
  return { ...body, [op.itemField!]: kept, listMetadata: { ...page.meta, count: kept.length, after: String(last.id), nextCursor } }
}

// ---------------------------------------------------------------------------------------------
// Responses and errors
// ---------------------------------------------------------------------------------------------

/** The object a response carries (the first item of a list or array), for response violations. */
const targetOf = (op: Op, body: Body): Body | undefined => {
  const holder = op.itemField !== undefined ? body[op.itemField] : op.wrapperKey !== undefined ? body[op.wrapperKey] : body
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
// One request
// ---------------------------------------------------------------------------------------------

/** The violations of one request, around its operation. */
export interface Violated {
  /** The body as a JSON object, or why not: a message (invalid_argument) or an error. */
  readonly parse: (bytes: Uint8Array, parse: (bytes: Uint8Array) => Body | string) => Body | string | ConnectError.ConnectError
  /** The request before decoding (names normalised): relaxed, or an error. */
  readonly before: (body: Body) => Body | ConnectError.ConnectError
  /** The decoded request. */
  readonly after: (request: Request) => Request
  readonly handler: (handler: Handler) => Handler
  /** The success body (its zero values already left out or not). */
  readonly response: (request: Request, body: Json) => Json
  /** An error answer to a request whose body was read. */
  readonly error: (error: ConnectError.ConnectError, bytes: Uint8Array) => ConnectError.ConnectError
}

/** Builds the violations of one request to `op`; call only when some are on. */
export const make = (op: Op, fieldNames: ReadonlySet<string>, v: ReadonlySet<ViolationName>, stamp: () => string): Violated => {
  const fields = fieldsOf(op)
  /** The request as sent (names normalised), before any violation changed it. */
  let sent: Body = {}
  /** The body was not a JSON object and stands for one. */
  let standIn = false
  /** ignored-connector-name-pattern: the name sent, when a stand-in took its place for decoding. */
  let connectorName: string | undefined

  const parse: Violated["parse"] = (bytes, parseBody) => {
    if (bytes.length === 0 && v.has("empty-body-accepted")) {
      standIn = true
      return {}
    }
    const parsed = parseBody(bytes)
    if (typeof parsed === "string") {
      if (bytes.length > 0 && v.has("non-object-body-accepted")) {
        standIn = true
        return {}
      }
      return parsed
    }
    if (v.has("rejects-snake-case")) {
      // The names as sent: `parseBody` has already turned them into lowerCamelCase.
      const raw = JSON.parse(lenientText.decode(bytes)) as Body
      const snake = snakeCaseField(fields, raw)
      if (snake !== undefined) return ConnectError.make("invalid_argument", `${snake}: unknown field name; use lowerCamelCase`)
    }
    return parsed
  }

  const before: Violated["before"] = (input) => {
    sent = input
    if (v.has("rejects-null")) {
      const path = nullField(input, "")
      if (path !== undefined) return ConnectError.make("invalid_argument", `${path}: null is not a value`)
    }
    const unknownField = Object.keys(input).find((k) => !fieldNames.has(k))
    if (unknownField !== undefined) {
      if (v.has("server-error-on-unknown-field")) return ConnectError.make("internal", "internal error")
      if (v.has("rejects-unknown-field")) return ConnectError.make("invalid_argument", `${unknownField}: unknown field`)
    }
    if (v.has("requires-optional-field") && op.kind === "create") {
      const missing = [...fields].find(([k, f]) => !f.required && f.shape._tag === "boolean" && input[k] === undefined)
      if (missing !== undefined) return ConnectError.make("invalid_argument", `${missing[0]}: required`)
    }
    if (v.has("limit-off-by-one") && op.kind === "list" && input.limit === 500) {
      return ConnectError.make("invalid_argument", "limit must be from 1 to 499")
    }
    const body = structuredClone(input)
    if (v.has("ignored-json-type")) ignoreJsonTypes(fields, body)
    if (v.has("ignored-required") || standIn) fillRequired(fields, body)
    if (v.has("ignored-enum")) ignoreEnums(fields, body)
    if (v.has("ignored-min-length")) padMinLengths(fields, body)
    if (v.has("ignored-limit-range") && op.kind === "list") {
      const limit = body.limit
      body.limit = typeof limit === "number" && Number.isFinite(limit) ? Math.min(500, Math.max(1, Math.trunc(limit))) : 100
    }
    if (v.has("ignored-one-of") && op.method === "CreateHumanUserPassword") {
      const set = (["email", "username", "id"] as const).filter((k) => body[k] !== undefined && body[k] !== null)
      if (set.length === 0) body.id = FIRST_USER
      for (const k of set.slice(1)) delete body[k]
    }
    if (v.has("ignored-connector-name-pattern") && op.method === "CreateConnector" && typeof body.name === "string" && body.name !== "") {
      connectorName = body.name
      body.name = "connector"
    }
    if (v.has("unknown-cursor-accepted") && typeof body.cursor === "string" && body.cursor !== "" && decodeCursor(body.cursor) === undefined) {
      delete body.cursor
    }
    if ((v.has("unknown-filter-key-accepted") || v.has("empty-group-accepted")) && body.filter !== undefined) {
      body.filter = relaxFilter(body.filter, filterKeysOf(op), v)
    }
    return body
  }

  const after: Violated["after"] = (decoded) => {
    const request: Body = { ...decoded }
    if (connectorName !== undefined) request.name = connectorName
    if (op.kind === "list") {
      // The server behaves as if the field had not been sent (a bad value is still rejected).
      if (v.has("order-ignored")) delete request.order
      if (v.has("search-ignored")) delete request.search
      if (v.has("search-fields-ignored")) delete request.searchFields
      if (v.has("filter-ignored")) delete request.filter
      if (v.has("space-filter-ignored")) delete request.spaceId
      if (v.has("filter-or-as-and") && request.filter !== undefined) request.filter = orAsAnd(request.filter as Filter.Filter<string>)
    }
    return request
  }

  const violatePage = (o: Op, body: Json, order: "asc" | "desc"): Json => {
    let out = v.has("paging-duplicates") ? pointCursorBack(o, body) : body
    const page = pageOf(o, out)
    if (page === undefined) return out
    const meta = { ...page.meta }
    const last = page.items[page.items.length - 1]
    if (v.has("next-cursor-on-last-page") && last !== undefined && (meta.nextCursor === "" || meta.nextCursor === undefined)) meta.nextCursor = cursorAt(order, last)
    if (v.has("after-before-swapped")) [meta.after, meta.before] = [meta.before, meta.after]
    out = { ...out, listMetadata: meta }
    return out
  }

  const handler: Violated["handler"] = (inner) => {
    const c = collectionOf(op)
    let h = inner
    if (v.has("key-id-ignored") && op.method === "GetEncryptionKeysByKeyId" && c !== undefined) {
      h = (_, ctx) => Effect.map(ctx.store.all(c), (all) => ({ [op.wrapperKey!]: all }))
    }
    // The store the operation sees.
    const updates = ["update-ignored", "updated-at-not-moved", "update-clears-unsent", "update-null-clears", "update-not-stored"] as const
    if (op.kind === "update" && updates.some((x) => v.has(x))) {
      const run = h
      h = (request, ctx) => run(request, { ...ctx, store: updateStore(ctx.store, v, sent) })
    }
    if (v.has("unknown-reference-accepted") && (op.kind === "create" || op.method === "UpdateSatellite")) {
      const run = h
      h = (request, ctx) => run(request, { ...ctx, store: lenientStore(ctx.store) })
    }
    if (v.has("search-case-sensitive") && op.kind === "list") {
      const run = h
      h = (request, ctx) => {
        const search = typeof request.search === "string" ? request.search : ""
        if (search === "") return run(request, ctx)
        const named = request.searchFields as ReadonlyArray<string> | undefined
        const { search: _, ...rest } = request
        return run(rest, { ...ctx, store: caseSensitiveSearch(ctx.store, search, named !== undefined && named.length > 0 ? named : ["name"]) })
      }
    }
    // The request it gets.
    if (op.method === "CreateHumanUserPassword" && (v.has("unknown-reference-accepted") || v.has("ignored-one-of"))) {
      const run = h
      h = (request, ctx) =>
        Effect.flatMap(ctx.store.all("users"), (users) => {
          const first = users[0]
          if (first === undefined) return run(request, ctx)
          if (request.id === FIRST_USER) return run({ id: first.id }, ctx)
          const key = (["email", "username", "id"] as const).find((k) => request[k] !== undefined)
          const known = key !== undefined && users.some((u) => u[key] === request[key])
          return !known && v.has("unknown-reference-accepted") ? run({ id: first.id }, ctx) : run(request, ctx)
        })
    }
    if (op.kind === "list" && (v.has("limit-exceeded") || v.has("paging-skips"))) {
      const run = h
      h = (request, ctx) => {
        const limit = request.limit as number
        const order = request.order === "desc" ? "desc" : "asc"
        const more = run({ ...request, limit: limit + 1 }, ctx)
        return v.has("limit-exceeded") ? more : Effect.map(more, (body) => skipOne(op, body, limit, order))
      }
    }
    if (v.has("unknown-id-invalid") && (op.kind === "get" || op.kind === "update") && c !== undefined) {
      const run = h
      h = (request, ctx) =>
        typeof request.id !== "string"
          ? run(request, ctx)
          : Effect.flatMap(ctx.store.get(c, request.id), (found) =>
              found === undefined ? Effect.fail(ConnectError.make("invalid_argument", `id: ${JSON.stringify(request.id)} is not a valid id`)) : run(request, ctx)
            )
    }
    // The body it returns.
    if (v.has("get-wrong-object") && op.kind === "get" && c !== undefined) {
      const run = h
      h = (request, ctx) =>
        Effect.flatMap(run(request, ctx), (body) =>
          Effect.map(ctx.store.all(c), (all) => {
            const other = all.find((o) => o.id !== request.id)
            return other === undefined || typeof request.id !== "string" ? body : { [op.wrapperKey!]: other }
          })
        )
    }
    if (op.kind === "list") {
      const paging = ["paging-duplicates", "next-cursor-on-last-page", "after-before-swapped"] as const
      if (paging.some((x) => v.has(x))) {
        const run = h
        h = (request, ctx) => Effect.map(run(request, ctx), (body) => violatePage(op, body, request.order === "desc" ? "desc" : "asc"))
      }
    }
    return h
  }

  const response: Violated["response"] = (request, body) => {
    const copy = structuredClone(body) as Body
    if (v.has("int64-as-number") && op.itemField !== undefined && Array.isArray(copy[op.itemField])) {
      // The one int64 of the interface: a saved log query's `query.relativeTime`.
      for (const item of copy[op.itemField] as Array<unknown>) {
        const query = isObject(item) ? item.query : undefined
        if (isObject(query) && typeof query.relativeTime === "string") query.relativeTime = Number(query.relativeTime)
      }
    }
    if (v.has("paging-count-mismatch") && op.kind === "list") {
      const meta = (copy.listMetadata ?? {}) as Body
      copy.listMetadata = { ...meta, count: Number(meta.count ?? 0) + 1 }
    }
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
    // Not in lists: a truncated createdAt could reorder a descending page.
    if (v.has("timestamp-fraction-digits") && op.kind !== "list" && typeof target.createdAt === "string") target.createdAt = twoDigits(target.createdAt)
    if (v.has("expires-at-in-past") && typeof target.expiresAt === "string") target.expiresAt = new Date(Date.now() - 3_600_000).toISOString()
    if (v.has("unstable-read") && op.kind === "get" && typeof target.updatedAt === "string") target.updatedAt = stamp()
    if (v.has("identity-link-wrong-group") && op.method === "CreateNativeUserIdentityLink" && request.identityType === "group") delete target.group
    if (v.has("create-not-echoed") && op.kind === "create") {
      const key = Object.keys(request).find((k) => k !== "id" && typeof request[k] === "string" && typeof target[k] === "string")
      if (key !== undefined) target[key] = `${String(target[key])}-changed`
    }
    return copy
  }

  const error: Violated["error"] = (e, bytes) => {
    if (!v.has("secret-in-error") || e.code !== "invalid_argument") return e
    const text = lenientText.decode(bytes.length > MAX_QUOTED_BODY ? bytes.subarray(0, MAX_QUOTED_BODY) : bytes)
    return ConnectError.make("invalid_argument", `${e.message} (request body: ${text})`)
  }

  return { parse, before, after, handler, response, error }
}
