/**
 * The operations' behaviour: generic handlers by kind (get, list, update) driven by the operation
 * table's `object`, `wrapperKey` and `itemField`, and one create function per create operation.
 *
 * @internal
 */
import { Filter, Operations, ProtoJson, Timestamp } from "@data-access/schema"
import * as ConnectError from "./connectError.js"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Collections from "./collections.js"
import type { CollectionName, Json } from "./collections.js"
import { compareKeys, sortKey } from "./store.js"
import { type CursorPosition, decodeCursor, encodeCursor } from "./cursor.js"
import type { Context, Handler, Op, Req } from "./pipeline-types.js"
import { makeId, token } from "./random.js"
import { collectionOf as anyCollectionOf } from "./operationCollections.js"

type Mutable = Record<string, unknown>

const notFound = (field: string, what: string, id: string) =>
  ConnectError.make("not_found", `${field}: no ${what} with id ${JSON.stringify(id)}`)

const invalid = (field: string, message: string) =>
  ConnectError.make("invalid_argument", `${field}: ${message}`)

// ---------------------------------------------------------------------------------------------
// Normalising stored objects
// ---------------------------------------------------------------------------------------------

const normalizers = Object.fromEntries(
  Collections.names.map((name) => {
    const schema = Collections.collections[name].schema as Schema.Schema<unknown, unknown>
    const decode = Schema.decodeUnknownSync(schema)
    const encode = Schema.encodeSync(schema)
    return [name, (o: unknown) => encode(decode(o)) as Json]
  })
) as Record<CollectionName, (o: unknown) => Json>

/** Validates an object in wire form against its collection's schema and writes every field. */
export const normalize = (collection: CollectionName, object: unknown): Json =>
  normalizers[collection](object)

// ---------------------------------------------------------------------------------------------
// Get
// ---------------------------------------------------------------------------------------------

/** The collection an operation's handler serves, which every handled operation has. */
const collectionOf = (op: Op): CollectionName => {
  const c = anyCollectionOf(op)
  if (c === undefined) throw new Error(`no collection holds the objects of ${op.method}`)
  return c
}

const objectName = (c: CollectionName) => Collections.collections[c].prefix

const makeGet = (op: Op): Handler => {
  const c = collectionOf(op)
  const key = op.wrapperKey!
  const lookupKey = op.lookupKey
  if (lookupKey !== undefined) {
    return (req, ctx) =>
      Effect.gen(function* () {
        const value = String(req[lookupKey])
        // A value that names nothing is an empty array (not_found under the parent-not-found latitude switch).
        return { [key]: (yield* ctx.store.all(c)).filter((k) => k[lookupKey] === value) }
      })
  }
  return (req, ctx) =>
    Effect.gen(function* () {
      const id = String(req.id)
      const found = yield* ctx.store.get(c, id)
      if (found === undefined) return yield* notFound("id", objectName(c), id)
      return { [key]: found }
    })
}

// ---------------------------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------------------------

/** `space_id` to `spaceId`. */
export const snakeToCamel = ProtoJson.snakeToCamel

/** The value of a filter or search key (snake_case) of a listed object, as a string. */
export const fieldValue = (item: Json, key: string): string => {
  if (key === "type") return item.mdmVendorA !== undefined ? "mdm_vendor_a" : ""
  const v = item[snakeToCamel(key)]
  return v === undefined || v === null ? "" : typeof v === "string" ? v : String(v)
}

const compareTimestamps = (key: string, a: string, b: string): number | undefined => {
  if (!key.endsWith("_at")) return undefined
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b)
  if (typeof ta === "string" || typeof tb === "string") return undefined
  return Timestamp.Order(ta, tb)
}

/** Whether an item matches a filter (decisions.md section 3). */
export const matches = (
  filter: Filter.Filter<string>,
  item: Json,
  options?: Filter.EvaluateOptions
): boolean => Filter.evaluate(filter, (key) => fieldValue(item, key), compareTimestamps, options)

/**
 * A List handler whose request's `filter` is applied by `keep` instead of the faithful reading
 * (another reading a switch or a violation makes): the handler sees only the items of `c` that
 * `keep` keeps, and the request without its filter.
 */
export const filteringWith =
  (c: CollectionName, keep: (filter: Filter.Filter<string>, item: Json) => boolean) =>
  (handler: Handler): Handler =>
  (request, ctx) => {
    const filter = request.filter as Filter.Filter<string> | undefined
    if (filter === undefined || Filter.isEmpty(filter)) return handler(request, ctx)
    const { filter: _, ...rest } = request
    const store = {
      ...ctx.store,
      all: (name: CollectionName) =>
        name === c
          ? Effect.map(ctx.store.all(name), (items) => items.filter((item) => keep(filter, item)))
          : ctx.store.all(name)
    }
    return handler(rest, { ...ctx, store })
  }

/** The scope of a list under a parent (the operation's `parent`): the items of the parent the request names, if it names one. */
const scopeOf = (op: Op): ((req: Req) => ((item: Json) => boolean) | undefined) | undefined => {
  const parent = op.parent
  if (parent === undefined) return undefined
  const field = parent.field
  // A required parent is always there once the request is valid (min length 1).
  // No request sends a parent id empty: ListNativeUsers' resourceId has min length 1, and what
  // ListSatellites' spaceId "" selects (every satellite, or those in no space) the documents do not say.
  return (req) =>
    req[field] !== undefined && req[field] !== "" ? (item) => item[field] === req[field] : undefined
}

const makeList = (op: Op): Handler => {
  const c = collectionOf(op)
  const itemField = op.itemField!
  const scope = scopeOf(op)
  return (req, ctx) =>
    Effect.gen(function* () {
      const limit = req.limit as number
      const order: "asc" | "desc" = req.order === "desc" ? "desc" : "asc"
      let start: CursorPosition | undefined
      if (typeof req.cursor === "string" && req.cursor !== "") {
        // A cursor continues the walk from its position in the order asked now, whatever the
        // request it came from (the cursor-bound latitude switch rejects a change).
        start = decodeCursor(req.cursor)
        if (start === undefined)
          return yield* invalid("cursor", "unknown cursor; pass back listMetadata.nextCursor")
      }
      let items = yield* ctx.store.all(c)
      const predicates: Array<(item: Json) => boolean> = []
      const scoped = scope?.(req)
      if (scoped) predicates.push(scoped)
      const search = typeof req.search === "string" ? req.search.toLowerCase() : ""
      if (search !== "") {
        const fields = (req.searchFields as ReadonlyArray<string> | undefined) ?? []
        const keys = fields.length > 0 ? fields : ["name"]
        predicates.push((item) =>
          keys.some((k) => fieldValue(item, k).toLowerCase().includes(search))
        )
      }
      const filter = req.filter as Filter.Filter<string> | undefined
      if (filter !== undefined) predicates.push((item) => matches(filter, item))
      if (predicates.length > 0) items = items.filter((item) => predicates.every((p) => p(item)))
      // Items come ascending by (createdAt, id); a cursor resumes after its position.
      const n = items.length
      // Ordering keys (memoised per object by `sortKey`) are read only where needed: while
      // skipping to a cursor's position and for the next cursor, not for every item.
      let from = 0
      if (start !== undefined) {
        const s = start
        if (order === "asc") {
          while (
            from < n &&
            compareKeys(sortKey(items[from]!), String(items[from]!.id), s.key, s.id) <= 0
          )
            from++
        } else {
          while (
            from < n &&
            compareKeys(
              sortKey(items[n - 1 - from]!),
              String(items[n - 1 - from]!.id),
              s.key,
              s.id
            ) >= 0
          )
            from++
        }
      }
      const page: Array<Json> = []
      for (let i = from; i < Math.min(n, from + limit); i++)
        page.push(items[order === "asc" ? i : n - 1 - i]!)
      const more = from + page.length < n
      const last = page[page.length - 1]
      const nextCursor =
        more && last !== undefined
          ? encodeCursor({ order, key: sortKey(last), id: String(last.id) })
          : ""
      return {
        [itemField]: page,
        listMetadata: {
          after: page.length > 0 ? String(page[page.length - 1]!.id) : "",
          before: page.length > 0 ? String(page[0]!.id) : "",
          count: page.length,
          nextCursor
        }
      }
    })
}

// ---------------------------------------------------------------------------------------------
// Update
// ---------------------------------------------------------------------------------------------

/** Per-operation update steps beyond copying the fields the request sets. */
const updateExtras: {
  readonly [M in Operations.MethodName]?: (
    req: Operations.RequestOf<M>,
    next: Mutable,
    ctx: Context
  ) => Effect.Effect<void, ConnectError.ConnectError>
} = {
  UpdateSatellite: (req, next, ctx) =>
    Effect.gen(function* () {
      if (req.spaceId === undefined) return
      if (req.spaceId === "") {
        next.spaceId = ""
        delete next.space
        return
      }
      const space = yield* ctx.store.get("spaces", req.spaceId)
      if (space === undefined) return yield* notFound("spaceId", "space", req.spaceId)
      next.space = space
    })
}

const makeUpdate = (op: Op): Handler => {
  const c = collectionOf(op)
  const key = op.wrapperKey!
  const fields = new Set(Object.keys((op.object as unknown as { readonly fields: object }).fields))
  const extra = updateExtras[op.method] as
    | ((req: Req, next: Mutable, ctx: Context) => Effect.Effect<void, ConnectError.ConnectError>)
    | undefined
  return (req, ctx) =>
    Effect.gen(function* () {
      const id = String(req.id)
      const updated = yield* ctx.store.modify(c, id, (current) =>
        Effect.gen(function* () {
          const next: Mutable = { ...current }
          for (const [k, value] of Object.entries(req)) {
            if (k === "id" || value === undefined || !fields.has(k)) continue
            const type = typeof value
            if (type === "string" || type === "boolean" || type === "number") next[k] = value
          }
          if (extra) yield* extra(req, next, ctx)
          if (fields.has("updatedAt")) next.updatedAt = ctx.stamp()
          return next as Json
        })
      )
      if (updated === undefined) return yield* notFound("id", objectName(c), id)
      return { [key]: updated }
    })
}

// ---------------------------------------------------------------------------------------------
// Create
// ---------------------------------------------------------------------------------------------

type CreateMethod = {
  [M in Operations.MethodName]: Operations.Operations[M]["kind"] extends "create" ? M : never
}[Operations.MethodName]

const reveal = (r: Redacted.Redacted<string> | undefined): string =>
  r === undefined ? "" : Redacted.value(r)

const newId = (c: CollectionName) => makeId(Collections.collections[c].prefix, Date.now())

const insert = (ctx: Context, c: CollectionName, object: Record<string, unknown>) =>
  Effect.gen(function* () {
    const stored = normalize(c, object)
    yield* ctx.store.put(c, [stored])
    return stored
  })

const times = (ctx: Context) => {
  const t = ctx.stamp()
  return { createdAt: t, updatedAt: t }
}

/** The create operations: what each stores and returns (the object, in wire form). */
const creates: {
  readonly [M in CreateMethod]: (
    req: Operations.RequestOf<M>,
    ctx: Context
  ) => Effect.Effect<Json, ConnectError.ConnectError>
} = {
  CreateNativeUserIdentityLink: (req, ctx) =>
    Effect.gen(function* () {
      const nativeUser = yield* ctx.store.get("nativeUsers", req.nativeUserId)
      if (nativeUser === undefined)
        return yield* notFound("nativeUserId", "native user", req.nativeUserId)
      const identity: Mutable = {}
      // An absent identityType takes the first listed value (decisions.md section 10).
      const identityType = req.identityType ?? "user"
      if (identityType === "group") {
        const group = yield* ctx.store.get("groups", req.identityId)
        if (group === undefined) return yield* notFound("identityId", "group", req.identityId)
        identity.group = group
      } else if (identityType === "user") {
        const user = yield* ctx.store.get("users", req.identityId)
        if (user === undefined) return yield* notFound("identityId", "user", req.identityId)
        identity.user = { id: user.id, email: user.email, username: user.username }
      } else {
        const hostname = yield* ctx.store.get("connectorHostnames", req.identityId)
        if (hostname === undefined)
          return yield* notFound("identityId", "resource hostname", req.identityId)
        identity.resourceHostname = { id: hostname.id, hostname: hostname.hostname }
      }
      return yield* insert(ctx, "nativeUserIdentityLinks", {
        id: newId("nativeUserIdentityLinks"),
        ...identity,
        nativeUser,
        terminationProtection: req.terminationProtection ?? false,
        ...times(ctx)
      })
    }),
  CreateConnector: (req, ctx) =>
    Effect.gen(function* () {
      let space: Json | undefined
      if (req.spaceId !== undefined && req.spaceId !== "") {
        space = yield* ctx.store.get("spaces", req.spaceId)
        if (space === undefined) return yield* notFound("spaceId", "space", req.spaceId)
      }
      return yield* insert(ctx, "connectors", {
        id: newId("connectors"),
        name: req.name,
        terminationProtection: req.terminationProtection ?? false,
        spaceId: req.spaceId ?? "",
        ...(space ? { space } : {}),
        ...times(ctx)
      })
    }),
  CreatePolicyDataLoader: (req, ctx) =>
    insert(ctx, "policyDataLoaders", {
      id: newId("policyDataLoaders"),
      name: req.name,
      description: req.description ?? "",
      key: req.key,
      workerRuntime: req.workerRuntime ?? "python3.11",
      workerCode: req.workerCode,
      workerSchedule: req.workerSchedule,
      status: req.status ?? "draft",
      terminationProtection: req.terminationProtection ?? false,
      ...times(ctx)
    }),
  CreateHumanUserPassword: (req, ctx) =>
    Effect.gen(function* () {
      const users = yield* ctx.store.all("users")
      const [field, value] =
        req.email !== undefined
          ? (["email", req.email] as const)
          : req.username !== undefined
            ? (["username", req.username] as const)
            : (["id", req.id ?? ""] as const)
      const user = users.find((u) => u[field] === value)
      if (user === undefined)
        return yield* ConnectError.make("not_found", `${field}: no user with that ${field}`)
      const groups: Array<Json> = []
      for (const gid of (user.groupIds as ReadonlyArray<string> | undefined) ?? []) {
        const g = yield* ctx.store.get("groups", gid)
        if (g) groups.push(g)
      }
      const createdAt = ctx.stamp()
      const expires = Timestamp.parse(createdAt) as Timestamp.Timestamp
      return {
        password: token(18),
        username: user.username,
        groups,
        expiresAt: Timestamp.format(Timestamp.addNanos(expires, 24n * 3600n * 1_000_000_000n)),
        createdAt
      }
    }),
  CreateDataDiscoveryConfiguration: (req, ctx) =>
    Effect.gen(function* () {
      if ((yield* ctx.store.get("resources", req.resourceId)) === undefined)
        return yield* notFound("resourceId", "resource", req.resourceId)
      if ((yield* ctx.store.get("nativeUsers", req.nativeUserId)) === undefined) {
        return yield* notFound("nativeUserId", "native user", req.nativeUserId)
      }
      return yield* insert(ctx, "dataDiscoveryConfigurations", {
        id: newId("dataDiscoveryConfigurations"),
        resourceId: req.resourceId,
        nativeUserId: req.nativeUserId,
        database: req.database ?? "",
        schedule: req.schedule,
        deletionPolicy: req.deletionPolicy ?? "delete",
        path: req.path ?? null,
        ...times(ctx)
      })
    }),
  CreatePermission: (req, ctx) =>
    insert(ctx, "permissions", {
      id: newId("permissions"),
      name: req.name,
      description: req.description,
      code: req.code,
      status: req.status ?? "draft",
      terminationProtection: req.terminationProtection ?? false,
      ...times(ctx)
    }),
  CreateBIIntegration: (req, ctx) =>
    Effect.gen(function* () {
      const stored = yield* insert(ctx, "biIntegrations", {
        biVendorA: {
          apiKey: reveal(req.biVendorA.apiKey),
          apiSecret: reveal(req.biVendorA.apiSecret)
        },
        id: newId("biIntegrations"),
        name: req.name,
        createdAt: ctx.stamp(),
        linkedDbUserId: req.linkedDbUserId ?? "",
        sync: req.sync ?? false
      })
      // The secrets are stored, never echoed (the create-echo rule).
      return { ...stored, biVendorA: {} }
    }),
  CreateIntegrationMDM: (req, ctx) =>
    Effect.gen(function* () {
      const stored = yield* insert(ctx, "mdmIntegrations", {
        mdmVendorA: { apiKey: reveal(req.mdmVendorA.apiKey), apiUrl: req.mdmVendorA.apiUrl ?? "" },
        id: newId("mdmIntegrations"),
        name: req.name,
        ...times(ctx)
      })
      return { ...stored, mdmVendorA: { apiUrl: req.mdmVendorA.apiUrl ?? "" } }
    })
}

const makeCreate = (op: Op): Handler => {
  const create = creates[op.method as CreateMethod] as (
    req: Req,
    ctx: Context
  ) => Effect.Effect<Json, ConnectError.ConnectError>
  const key = op.wrapperKey
  return key === undefined
    ? create
    : (req, ctx) => Effect.map(create(req, ctx), (o) => ({ [key]: o }))
}

/** The handler of every operation, keyed by method. */
export const handlers: ReadonlyMap<Operations.MethodName, Handler> = new Map(
  Operations.all.map((op) => {
    switch (op.kind) {
      case "get":
        return [op.method, makeGet(op)] as const
      case "list":
        return [op.method, makeList(op)] as const
      case "update":
        return [op.method, makeUpdate(op)] as const
      case "create":
        return [op.method, makeCreate(op)] as const
    }
  })
)
