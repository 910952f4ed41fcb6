/**
 * The latitude switches (`ContractRules.latitude`, decisions.md section 10), one record each:
 * where the documents let a faithful server choose, the reference server makes one choice by
 * default and the other while a switch is on. A record is the switch's name (a row of
 * `ContractRules.latitude`, which holds its topic and both choices) and its hooks on the stages of
 * the faithful pipeline (`pipeline-types.ts`); `app.ts` puts the hooks of the switches that are on
 * on the pipeline once, when the server starts. With none on, the request path runs none of this.
 *
 * Each switch makes a faithful choice: no must of sections 1 to 9 breaks, alone or together.
 *
 * @internal
 */
import { ContractRules, Filter, Operations } from "@data-access/schema"
import * as ConnectError from "./connectError.js"
import * as Crypto from "node:crypto"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Collections from "./collections.js"
import type { CollectionName } from "./collections.js"
import type { StoreService } from "./store.js"
import { filteringWith, matches } from "./handlers.js"
import {
  deadlinePassed,
  type Decode,
  type Handler,
  type Hooks,
  parseIssueOf,
  type Op,
  type Req,
  type Validate
} from "./pipeline-types.js"
import { collectionOf } from "./operationCollections.js"
import {
  type AnyFilter,
  booleanKeysOf,
  emptyReferencesIgnored,
  filteredCollection,
  rejectEmptyFilter,
  REQUIRED_ENUMS,
  requireEnums,
  strictFilterTypes,
  strictFormats,
  strictTimeFilter,
  stringLimits,
  validating
} from "./latitudeChecks.js"
import {
  connectGet,
  emptyPageMeta,
  emptyProtocolBodies,
  PAGE_SIZE,
  rateLimitHeaders
} from "./latitudeProtocol.js"

type LatitudeName = ContractRules.LatitudeName

/** body-limit-1mib: 1 MiB. */
const ONE_MIB = 1024 * 1024

// ---------------------------------------------------------------------------------------------
// cursor-bound: a cursor carries a digest of the request that produced it
// ---------------------------------------------------------------------------------------------

/** The digest of what a walk depends on: filter, search, spaceId and order. */
const walkDigest = (request: Req): string => {
  const filter = request.filter as AnyFilter | undefined
  // A digest of less (or other text for the same parts) binds the cursor to less, down to nothing:
  // continuing the walk is the other faithful choice; the same digest is computed for the cursor
  // and its check.
  const walk = [
    filter === undefined || Filter.isEmpty(filter) ? null : filter,
    request.search ?? "",
    request.spaceId ?? "",
    request.order === "desc" ? "desc" : "asc"
  ]
  return Crypto.createHash("sha256").update(JSON.stringify(walk)).digest("base64url").slice(0, 16)
}

const cursorBound: Validate = (request, issues) => {
  const cursor = request.cursor
  if (typeof cursor !== "string" || cursor === "") return request
  const dot = cursor.lastIndexOf(".")
  if (dot === -1) {
    issues.push({ path: ["cursor"], message: "unknown cursor; pass back listMetadata.nextCursor" })
    return request
  }
  if (cursor.slice(dot + 1) !== walkDigest(request)) {
    issues.push({
      path: ["cursor"],
      message:
        "the cursor belongs to a walk with another filter, search, spaceId or order; start again without a cursor"
    })
  }
  return { ...request, cursor: cursor.slice(0, dot) }
}

const bindNextCursor =
  (handler: Handler): Handler =>
  (request, ctx) =>
    Effect.map(handler(request, ctx), (body) => {
      const meta = body.listMetadata as Readonly<Record<string, unknown>> | undefined
      if (typeof meta?.nextCursor !== "string" || meta.nextCursor === "") return body
      return {
        ...body,
        listMetadata: { ...meta, nextCursor: `${meta.nextCursor}.${walkDigest(request)}` }
      }
    })

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

const CASE_INSENSITIVE: Filter.EvaluateOptions = { caseInsensitive: true }

/** identity-any-kind: a `resource_hostname` identity (`identityId` of kind `identityType`) names an object of any kind. */
const identityAnyKind =
  ({ field, kindField }: Operations.KindedReference, handler: Handler): Handler =>
  (request, ctx) => {
    if (request[kindField] !== "resource_hostname") return handler(request, ctx)
    const id = String(request[field])
    return Effect.gen(function* () {
      for (const c of Collections.names) {
        if ((yield* ctx.store.get(c, id)) === undefined) continue
        if (c === "connectorHostnames") break
        // Another kind of object: the link names it by its id.
        const store: StoreService = {
          ...ctx.store,
          // The link's handler reads only the connector hostname named by identityId through this
          // store: a variant that finds it nowhere answers not_found (the other faithful choice),
          // one that finds more finds only ids that exist.
          get: (name, i) =>
            name === "connectorHostnames" && i === id
              ? Effect.succeed({ id })
              : ctx.store.get(name, i)
        }
        return yield* handler(request, { ...ctx, store })
      }
      return yield* handler(request, ctx)
    })
  }

const notFound = (field: string, what: string, id: string) =>
  ConnectError.make(
    "not_found",
    `${field}: no ${what} with ${field === "keyId" ? "key id" : "id"} ${JSON.stringify(id)}`
  )

/** How a not_found message names the objects of a collection. */
const WHAT: { readonly [C in CollectionName]?: string } = {
  resources: "resource",
  encryptionKeys: "encryption key"
}
const whatOf = (c: CollectionName) => WHAT[c] ?? Collections.collections[c].prefix

/**
 * parent-not-found: a parent id that names nothing is not_found, not an empty answer: the
 * required parent of a list (the operation's `parent`), and the value a Get looks objects up by
 * (its `lookupKey`) when it finds none.
 */
const parentNotFound = (op: Op, handler: Handler): Handler => {
  const parent = op.parent
  // No parent checked answers an empty page, the other faithful choice: the marks "no parent checked".
  const parentCollection =
    parent?.required === true ? Collections.bySchema(parent.object) : undefined
  if (parent !== undefined && parentCollection !== undefined) {
    return (request, ctx) =>
      Effect.flatMap(ctx.store.get(parentCollection, String(request[parent.field])), (found) =>
        found === undefined
          ? Effect.fail(
              notFound(parent.field, whatOf(parentCollection), String(request[parent.field]))
            )
          : handler(request, ctx)
      )
  }
  const lookupKey = op.lookupKey
  const c = collectionOf(op)
  if (lookupKey !== undefined && op.wrapperKey !== undefined && c !== undefined) {
    const key = op.wrapperKey
    return (request, ctx) =>
      Effect.flatMap(handler(request, ctx), (body) => {
        const found = body[key]
        return Array.isArray(found) && found.length === 0
          ? Effect.fail(notFound(lookupKey, whatOf(c), String(request[lookupKey])))
          : Effect.succeed(body)
      })
  }
  return handler
}

const truncate = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n)}...` : s)

/** unique-names: a create whose name is taken is already_exists. Creates are taken one at a time, so two at once cannot both win. */
const uniqueNames =
  (c: CollectionName, lock: Effect.Semaphore, handler: Handler): Handler =>
  (request, ctx) =>
    lock.withPermits(1)(
      Effect.flatMap(ctx.store.all(c), (objects) =>
        objects.some((o) => o.name === request.name)
          ? Effect.fail(
              ConnectError.make(
                "already_exists",
                `name: a ${Collections.collections[c].prefix} named ${JSON.stringify(truncate(String(request.name)))} already exists`
              )
            )
          : handler(request, ctx)
      )
    )

// ---------------------------------------------------------------------------------------------
// Around the request
// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// The records
// ---------------------------------------------------------------------------------------------

/** body-before-auth: a decode that reports the last broken field rule. */
const lastIssueDecode = (op: Op): Decode => {
  const decode = ParseResult.decodeUnknownEither(op.request as Schema.Schema<Req, unknown>, {
    errors: "all"
  })
  return (u) =>
    Either.mapLeft(decode(u), (error) => {
      const issues = ParseResult.ArrayFormatter.formatIssueSync(error)
      const last = issues[issues.length - 1]
      return last === undefined ? error : parseIssueOf({ path: last.path, message: last.message })
    })
}

/**
 * One latitude switch: its name (the row of `ContractRules.latitude` it switches, which says what
 * the server does by default and with the switch on) and its hooks.
 */
export interface LatitudeRecord<N extends LatitudeName = LatitudeName> {
  readonly name: N
  /** The row of decisions.md section 10. */
  readonly row: ContractRules.Latitude & { readonly name: N }
  readonly hooks: Hooks
}

const rows: ReadonlyMap<string, ContractRules.Latitude> = new Map(
  ContractRules.latitude.map((r) => [r.name, r])
)

const latitude = <const N extends LatitudeName>(name: N, hooks: Hooks): LatitudeRecord<N> => ({
  name,
  row: rows.get(name) as ContractRules.Latitude & { readonly name: N },
  hooks
})

/**
 * Every switch, in the order of `ContractRules.latitude`. Hooks of the same stage compose in this
 * order, the first innermost: the cursor is bound to the request as sent, before
 * filter-case-insensitive takes its filter out; connect-get sees the request before anything else.
 */
export const records = [
  latitude("strict-formats", { validate: validating(strictFormats) }),
  latitude("string-limits", { validate: validating(stringLimits) }),
  latitude("unique-names", {
    handler: (next, op, fields) => {
      const c = collectionOf(op)
      return op.kind === "create" && fields.has("name") && c !== undefined
        ? uniqueNames(c, Effect.unsafeMakeSemaphore(1), next)
        : next
    }
  }),
  latitude("require-enums", {
    validate: (next, op, fields) => {
      const enums = REQUIRED_ENUMS.filter((f) => fields.has(f))
      return op.kind === "create" && enums.length > 0 ? validating(requireEnums(enums))(next) : next
    }
  }),
  latitude("identity-any-kind", {
    handler: (next, op) =>
      op.kindedReference === undefined ? next : identityAnyKind(op.kindedReference, next)
  }),
  latitude("strict-time-filter", {
    validate: (next, op, fields) =>
      filteredCollection(op, fields) === undefined ? next : validating(strictTimeFilter)(next)
  }),
  latitude("strict-filter-types", {
    validate: (next, op, fields) => {
      const c = filteredCollection(op, fields)
      return c === undefined ? next : validating(strictFilterTypes(booleanKeysOf(c)))(next)
    }
  }),
  latitude("filter-case-insensitive", {
    handler: (next, op, fields) => {
      const c = filteredCollection(op, fields)
      return c === undefined
        ? next
        : filteringWith(c, (filter, item) => matches(filter, item, CASE_INSENSITIVE))(next)
    }
  }),
  latitude("reject-empty-filter", {
    validate: (next, op, fields) =>
      filteredCollection(op, fields) === undefined ? next : validating(rejectEmptyFilter)(next)
  }),
  latitude("parent-not-found", { handler: (next, op) => parentNotFound(op, next) }),
  latitude("return-secrets", { returnSecrets: () => true }),
  latitude("space-empty-ignored", {
    validate: (next, op) =>
      op.kind === "update" && op.references.length > 0
        ? validating(emptyReferencesIgnored(op.references))(next)
        : next
  }),
  latitude("cursor-bound", {
    validate: (next, op) => (op.kind === "list" ? validating(cursorBound)(next) : next),
    handler: (next, op) => (op.kind === "list" ? bindNextCursor(next) : next)
  }),
  latitude("body-before-auth", {
    decode: (_, op) => lastIssueDecode(op),
    pickIssue: () => (issues) => issues[issues.length - 1],
    // The key is checked once the body is read and decoded.
    checks: ({ afterBody, beforeBody }) => ({
      beforeBody: beforeBody.filter((c) => c.name !== "auth"),
      afterBody: [...afterBody, ...beforeBody.filter((c) => c.name === "auth")]
    })
  }),
  latitude("empty-protocol-bodies", { around: emptyProtocolBodies }),
  latitude("body-limit-1mib", {
    bodyLimit: (next) => (configured) => Math.min(next(configured), ONE_MIB)
  }),
  latitude("lenient-deadline", {
    // Checked before the work starts, which then runs to its end.
    deadline: () => (work, millis, started) =>
      performance.now() - started < millis ? work : Effect.succeed(deadlinePassed(millis))
  }),
  latitude("rate-limit-headers", { around: rateLimitHeaders }),
  latitude("empty-page-meta", { around: emptyPageMeta }),
  // A page of at most PAGE_SIZE items: the List reads `limit` as its most, as the cursor does.
  latitude("page-size", {
    handler: (next, op) =>
      op.kind === "list"
        ? (req, ctx) => next({ ...req, limit: Math.min(Number(req.limit), PAGE_SIZE) }, ctx)
        : next
  }),
  latitude("connect-get", { around: connectGet })
] as const

type Missing = Exclude<LatitudeName, (typeof records)[number]["name"]>
/** Every switch of `ContractRules.latitude` has a record (a compile error names the ones that do not). */
export const everySwitchHasARecord: [Missing] extends [never] ? true : Missing = true
