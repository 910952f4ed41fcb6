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
import { ConnectError, ContractRules, Filter, Operations, RateLimit, Timestamp } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import * as Crypto from "node:crypto"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Collections from "../Collections.js"
import type { CollectionName } from "../Collections.js"
import type { StoreService } from "../Store.js"
import { filteringWith, matches, normalize, snakeToCamel } from "./handlers.js"
import {
  deadlinePassed,
  type Decode,
  type Handle,
  type Handler,
  type Hooks,
  type Input,
  type Issue,
  issueError,
  type Op,
  type Output,
  type Req,
  type Validate
} from "./pipeline-types.js"

type LatitudeName = ContractRules.LatitudeName

/** body-limit-1mib: 1 MiB. */
const ONE_MIB = 1024 * 1024

// ---------------------------------------------------------------------------------------------
// Checks and rewrites of a decoded request
// ---------------------------------------------------------------------------------------------

/** A check of a decoded request, as a hook on the `validate` stage: it runs after the checks before it. */
const validating =
  (step: Validate): ((next: Validate) => Validate) =>
  (next) =>
  (request, issues) =>
    step(next(request, issues), issues)

const isRecord = (u: unknown): u is Record<string, unknown> => u !== null && typeof u === "object" && !Array.isArray(u)

/** Calls `f` with every string of a decoded request (secrets aside), its path and its field's name. */
const eachString = (
  value: unknown,
  path: Array<PropertyKey>,
  field: string,
  skip: ReadonlySet<string>,
  f: (s: string, path: ReadonlyArray<PropertyKey>, field: string) => void
): void => {
  if (typeof value === "string") f(value, path, field)
  else if (Array.isArray(value)) value.forEach((x, i) => eachString(x, [...path, i], field, skip, f))
  else if (isRecord(value) && !Redacted.isRedacted(value)) {
    for (const [k, x] of Object.entries(value)) if (!skip.has(k)) eachString(x, [...path, k], k, skip, f)
  }
}

const CRON_ITEM = "(?:\\*|\\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/[0-9]+)?"
const CRON_FIELD = `${CRON_ITEM}(?:,${CRON_ITEM})*`
const cron = (fields: number) => new RegExp(`^${CRON_FIELD}(?: +${CRON_FIELD}){${fields - 1}}$`)
const SIX_FIELD_CRON = cron(6)
const FIVE_FIELD_CRON = cron(5)

const isHttpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false
  const url = new URL(s)
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
}

const notBlank = (s: string) => /\S/.test(s)

/** strict-formats: the formats decisions.md section 7 shows, by field name. */
const formats: Readonly<Record<string, readonly [(s: string) => boolean, string]>> = {
  workerSchedule: [(s) => SIX_FIELD_CRON.test(s), "must be a six-field cron expression with seconds first (*/30 * * * * *)"],
  schedule: [(s) => /^(?:6|12|18|24)h$/.test(s) || FIVE_FIELD_CRON.test(s), "must be 6h, 12h, 18h, 24h or a five-field cron expression"],
  email: [(s) => /^[^@]+@[^@]+$/.test(s), "must be an email address (one @ with text on both sides)"],
  apiUrl: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],
  decryptorUri: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],
  key: [notBlank, "must not be blank"],
  code: [notBlank, "must not be blank"],
  workerCode: [notBlank, "must not be blank"]
}

/** A filter's `key` names a filter key, not a format. */
const NOT_FORMATS: ReadonlySet<string> = new Set(["filter"])

const strictFormats: Validate = (request, issues) => {
  eachString(request, [], "", NOT_FORMATS, (s, path, field) => {
    const format = formats[field]
    if (format !== undefined && !format[0](s)) issues.push({ path, message: format[1] })
  })
  return request
}

const MAX_CHARACTERS = 255
/** Fields that hold source code or a server's own token: no length limit. */
const UNLIMITED: ReadonlySet<string> = new Set(["cursor", "code", "workerCode"])
/** Fields that may hold several lines: tabs and line breaks are not refused there. */
const MULTILINE: ReadonlySet<string> = new Set(["code", "workerCode", "description"])
const CONTROL = /\p{Cc}/u
const LINE_BREAKS = /[\t\n\r]/g
const NOTHING: ReadonlySet<string> = new Set()

/** string-limits: no string over 255 characters, none with control characters. */
const stringLimits: Validate = (request, issues) => {
  eachString(request, [], "", NOTHING, (s, path, field) => {
    if (!UNLIMITED.has(field) && s.length > MAX_CHARACTERS && [...s].length > MAX_CHARACTERS) {
      issues.push({ path, message: `must be at most ${MAX_CHARACTERS} characters` })
    }
    if (CONTROL.test(MULTILINE.has(field) ? s.replace(LINE_BREAKS, "") : s)) issues.push({ path, message: "must not contain control characters" })
  })
  return request
}

/** require-enums: the request enums with no empty value (decisions.md section 10). */
const REQUIRED_ENUMS = ["workerRuntime", "deletionPolicy", "identityType", "status"] as const

const requireEnums =
  (fields: ReadonlyArray<string>): Validate =>
  (request, issues) => {
    for (const field of fields) if (request[field] === undefined) issues.push({ path: [field], message: "is required (this server applies no default)" })
    return request
  }

type AnyFilter = Filter.Filter<string>

/** Calls the functions with every condition and every empty filter of a decoded filter. */
const eachFilter = (
  filter: AnyFilter,
  path: ReadonlyArray<PropertyKey>,
  onCondition: (condition: Filter.Condition<string>, path: ReadonlyArray<PropertyKey>) => void,
  onEmpty: (path: ReadonlyArray<PropertyKey>) => void
): void => {
  if (Filter.isEmpty(filter)) onEmpty(path)
  else if ("group" in filter && filter.group !== undefined) {
    filter.group.filters.forEach((f, i) => eachFilter(f, [...path, "group", "filters", i], onCondition, onEmpty))
  } else if ("field" in filter && filter.field !== undefined) onCondition(filter.field, [...path, "field"])
}

const STRING_OPERATORS: ReadonlySet<Filter.Operator> = new Set(["contains", "not_contains", "starts_with", "ends_with"])
const ORDER_OPERATORS: ReadonlySet<Filter.Operator> = new Set(["lower_than", "greater_than"])

const isTimeKey = (key: string) => key.endsWith("_at")

/** Whether a filter key of a collection holds booleans (read from an object of zero values). */
const booleanKeysOf = (c: CollectionName): ((key: string) => boolean) => {
  const zero = normalize(c, { id: "zero" })
  return (key) => typeof zero[snakeToCamel(key)] === "boolean"
}

/** The checks of each condition and each empty filter of a request's filter. */
const filterCheck =
  (
    onCondition: (condition: Filter.Condition<string>, path: ReadonlyArray<PropertyKey>, issues: Array<Issue>) => void,
    onEmpty: (path: ReadonlyArray<PropertyKey>, issues: Array<Issue>) => void
  ): Validate =>
  (request, issues) => {
    const filter = request.filter as AnyFilter | undefined
    if (filter === undefined) return request
    eachFilter(
      filter,
      ["filter"],
      (condition, path) => onCondition(condition, path, issues),
      (path) => onEmpty(path, issues)
    )
    return request
  }

const NO_CONDITION_CHECK = () => {}

/** strict-filter-types: string operators on timestamps and booleans, order operators on booleans, are refused. */
const strictFilterTypes = (isBoolean: (key: string) => boolean): Validate =>
  filterCheck(({ key, operator }, path, issues) => {
    const kind = isTimeKey(key) ? "a timestamp" : isBoolean(key) ? "a boolean" : undefined
    if (kind !== undefined && (STRING_OPERATORS.has(operator) || (kind === "a boolean" && ORDER_OPERATORS.has(operator)))) {
      issues.push({ path: [...path, "operator"], message: `${operator} does not apply to ${key} (${kind})` })
    }
  }, NO_CONDITION_CHECK)

/** strict-time-filter: a value that is not a timestamp, for a time key, is refused. */
const strictTimeFilter: Validate = filterCheck(({ key, operator, value }, path, issues) => {
  if (isTimeKey(key) && !Filter.valueless.has(operator) && typeof Timestamp.parse(value?.value ?? "") === "string") {
    issues.push({ path: [...path, "value", "value"], message: `must be an RFC 3339 timestamp for ${key}` })
  }
}, NO_CONDITION_CHECK)

/** reject-empty-filter: an empty filter, at any depth, is refused. */
const rejectEmptyFilter: Validate = filterCheck(NO_CONDITION_CHECK, (path, issues) =>
  issues.push({ path, message: "an empty filter is not accepted; send a field or a group, or no filter" })
)

/** The collection of the objects a list with a `filter` reads, if any. */
const filteredCollection = (op: Op, fields: ReadonlySet<string>): CollectionName | undefined => (fields.has("filter") ? collectionOf(op) : undefined)

/** space-empty-ignored: an update's reference sent as `""` (UpdateSatellite's `spaceId`) is not set. */
const emptyReferencesIgnored =
  (references: ReadonlyArray<string>): Validate =>
  (request) => {
    if (!references.some((field) => request[field] === "")) return request
    const rest: Record<string, unknown> = { ...request }
    for (const field of references) if (rest[field] === "") delete rest[field]
    return rest
  }

// ---------------------------------------------------------------------------------------------
// cursor-bound: a cursor carries a digest of the request that produced it
// ---------------------------------------------------------------------------------------------

/** The digest of what a walk depends on: filter, search, spaceId and order. */
const walkDigest = (request: Req): string => {
  const filter = request.filter as AnyFilter | undefined
  const walk = [filter === undefined || Filter.isEmpty(filter) ? null : filter, request.search ?? "", request.spaceId ?? "", request.order === "desc" ? "desc" : "asc"]
  return Crypto.createHash("sha256").update(JSON.stringify(walk)).digest("base64url").slice(0, 16)
}

const cursorBound: Validate = (request, issues) => {
  const cursor = request.cursor
  if (typeof cursor !== "string" || cursor === "") return request
  const dot = cursor.lastIndexOf(".")
  if (dot === -1) {
    issues.push({ path: ["cursor"], message: "unknown cursor; pass back listMetadata.nextCursor" })
  } else if (cursor.slice(dot + 1) !== walkDigest(request)) {
    issues.push({ path: ["cursor"], message: "the cursor belongs to a walk with another filter, search, spaceId or order; start again without a cursor" })
  }
  return { ...request, cursor: dot === -1 ? cursor : cursor.slice(0, dot) }
}

const bindNextCursor =
  (handler: Handler): Handler =>
  (request, ctx) =>
    Effect.map(handler(request, ctx), (body) => {
      const meta = body.listMetadata as Readonly<Record<string, unknown>> | undefined
      if (typeof meta?.nextCursor !== "string" || meta.nextCursor === "") return body
      return { ...body, listMetadata: { ...meta, nextCursor: `${meta.nextCursor}.${walkDigest(request)}` } }
    })

// ---------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------

const collectionOf = (op: Op): CollectionName | undefined => Collections.bySchema(op.object)

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
          get: (name, i) => (name === "connectorHostnames" && i === id ? Effect.succeed({ id }) : ctx.store.get(name, i))
        }
        return yield* handler(request, { ...ctx, store })
      }
      return yield* handler(request, ctx)
    })
  }

const notFound = (field: string, what: string, id: string) => ConnectError.make("not_found", `${field}: no ${what} with ${field === "keyId" ? "key id" : "id"} ${JSON.stringify(id)}`)

/** How a not_found message names the objects of a collection. */
const WHAT: { readonly [C in CollectionName]?: string } = { resources: "resource", encryptionKeys: "encryption key" }
const whatOf = (c: CollectionName) => WHAT[c] ?? Collections.collections[c].prefix

/**
 * parent-not-found: a parent id that names nothing is not_found, not an empty answer: the
 * required parent of a list (the operation's `parent`), and the value a Get looks objects up by
 * (its `lookupKey`) when it finds none.
 */
const parentNotFound = (op: Op, handler: Handler): Handler => {
  const parent = op.parent
  const parentCollection = parent?.required === true ? Collections.bySchema(parent.object) : undefined
  if (parent !== undefined && parentCollection !== undefined) {
    return (request, ctx) =>
      Effect.flatMap(ctx.store.get(parentCollection, String(request[parent.field])), (found) =>
        found === undefined ? Effect.fail(notFound(parent.field, whatOf(parentCollection), String(request[parent.field]))) : handler(request, ctx)
      )
  }
  const lookupKey = op.lookupKey
  const c = collectionOf(op)
  if (lookupKey !== undefined && op.wrapperKey !== undefined && c !== undefined) {
    const key = op.wrapperKey
    return (request, ctx) =>
      Effect.flatMap(handler(request, ctx), (body) => {
        const found = body[key]
        return Array.isArray(found) && found.length === 0 ? Effect.fail(notFound(lookupKey, whatOf(c), String(request[lookupKey]))) : Effect.succeed(body)
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
          ? Effect.fail(ConnectError.make("already_exists", `name: a ${Collections.collections[c].prefix} named ${JSON.stringify(truncate(String(request.name)))} already exists`))
          : handler(request, ctx)
      )
    )

// ---------------------------------------------------------------------------------------------
// Around the request
// ---------------------------------------------------------------------------------------------

const pathOf = (url: string) => {
  const q = url.indexOf("?")
  return q === -1 ? url : url.slice(0, q)
}

const utf8 = new TextDecoder("utf-8")

const parseJson = (body: string | Uint8Array): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(typeof body === "string" ? body : utf8.decode(body))
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

const lists: ReadonlyMap<string, Op> = new Map(Operations.all.filter((o) => o.kind === "list").map((o) => [o.path, o]))

/** empty-page-meta: an empty page writes `after` and `before` as `""`. */
const emptyPageMeta =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) => {
      const op = lists.get(pathOf(input.url))
      if (out._tag !== "Response" || out.status !== 200 || op === undefined) return out
      const body = parseJson(out.body)
      const items = body?.[op.itemField!]
      if (body === undefined || (Array.isArray(items) && items.length > 0)) return out
      const meta = isRecord(body.listMetadata) ? body.listMetadata : {}
      return { ...out, body: JSON.stringify({ ...body, listMetadata: { after: "", before: "", ...meta } }) }
    })

/** empty-protocol-bodies: the 405 and 415 answers have an empty body. */
const emptyProtocolBodies =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) =>
      out._tag === "Response" && (out.status === 405 || out.status === 415) ? { ...out, headers: { ...out.headers, "content-type": "text/plain" }, body: "" } : out
    )

const RATE_LIMIT = 10_000
const RATE_WINDOW_SECONDS = 60

/** rate-limit-headers: `X-Ratelimit-*` on every answer (a fixed window that nothing enforces), no `X-Request-Id`. */
const rateLimitHeaders = (handle: Handle): Handle => {
  let windowEnd = 0
  let used = 0
  return (input) =>
    Effect.map(handle(input), (out) => {
      if (out._tag !== "Response") return out
      const now = Math.floor(Date.now() / 1000)
      if (now >= windowEnd) {
        windowEnd = now - (now % RATE_WINDOW_SECONDS) + RATE_WINDOW_SECONDS
        used = 0
      }
      used++
      const { "x-request-id": _, ...headers } = out.headers
      return {
        ...out,
        headers: {
          ...RateLimit.headers(RATE_LIMIT, RATE_LIMIT - used, windowEnd),
          // A rate-limited answer keeps its own figures.
          ...headers
        }
      }
    })
}

/** connect-get: a Connect GET (`?encoding=json&message=...`) of a read, as the POST it stands for. */
const fromConnectGet = (input: Input): Input | undefined => {
  const q = input.url.indexOf("?")
  if (q === -1) return undefined
  const path = input.url.slice(0, q)
  const op = Operations.byPath.get(path)
  if (op === undefined || (op.kind !== "get" && op.kind !== "list")) return undefined
  const params = new URLSearchParams(input.url.slice(q + 1))
  const encoding = params.get("encoding")
  if (encoding === null) return undefined
  const message = params.get("message") ?? ""
  // Node's base64 decoder reads the URL-safe alphabet too, padded or not.
  const bytes = params.get("base64") === "1" ? Buffer.from(message, "base64") : Buffer.from(message, "utf8")
  const { "content-encoding": _, ...headers } = input.headers
  const compression = params.get("compression")
  return {
    method: "POST",
    url: path,
    headers: {
      ...headers,
      "content-type": `application/${encoding}`,
      "content-length": String(bytes.length),
      ...(compression !== null && compression !== "identity" ? { "content-encoding": compression } : {}),
      ...(params.get("connect") === "v1" ? { "connect-protocol-version": "1" } : {})
    },
    body: (max) => Effect.succeed(bytes.length > max ? "too-large" : bytes)
  }
}

/** connect-get: a compressed body (gzip, deflate, br), decompressed (the size limit applies to what it decompresses to). */
const decompressed = (input: Input, encoding: Compression.Encoding): Input => {
  const { "content-encoding": _, ...headers } = input.headers
  return {
    ...input,
    headers,
    body: (max) =>
      Effect.map(input.body(max), (bytes) => {
        if (bytes === "too-large") return bytes
        // Over the limit; or not what it says it is, which then reads as a body that is not JSON.
        return Either.getOrElse(Compression.decompress(bytes, encoding, max), (e) => (e.reason === "TooLarge" ? ("too-large" as const) : bytes))
      })
  }
}

/** Answers from this size up are compressed for a client that offers an encoding, as Connect servers do. */
const COMPRESS_FROM_BYTES = 1024

/** connect-get: an answer of at least 1 KiB compressed with the first encoding the client offers (`Accept-Encoding`). */
const compressedAnswer = (out: Output, acceptEncoding: string | undefined): Output => {
  const encoding = Compression.parseAcceptEncoding(acceptEncoding)[0]
  if (out._tag !== "Response" || encoding === undefined || out.headers["content-encoding"] !== undefined) return out
  const bytes = typeof out.body === "string" ? Buffer.from(out.body) : out.body
  if (bytes.length < COMPRESS_FROM_BYTES) return out
  const body = Compression.compress(bytes, encoding)
  return { ...out, headers: { ...out.headers, "content-encoding": encoding }, body }
}

const connectGet =
  (handle: Handle): Handle =>
  (input) => {
    const request = (input.method === "GET" ? fromConnectGet(input) : undefined) ?? input
    const encoding = Compression.parseContentEncoding(request.headers["content-encoding"])
    return Effect.map(handle(encoding._tag === "Compressed" ? decompressed(request, encoding.encoding) : request), (out) =>
      compressedAnswer(out, input.headers["accept-encoding"])
    )
  }

// ---------------------------------------------------------------------------------------------
// The records
// ---------------------------------------------------------------------------------------------

/** body-before-auth: a decode that reports the last broken field rule. */
const lastIssueDecode = (op: Op): Decode => {
  const decode = Schema.decodeUnknownEither(op.request as Schema.Schema<Req, unknown>, { errors: "all" })
  return (u) =>
    Either.mapLeft(decode(u), (error) => {
      const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
      const last = issues[issues.length - 1]
      return last === undefined ? error : issueError({ path: last.path, message: last.message })
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

const rows: ReadonlyMap<string, ContractRules.Latitude> = new Map(ContractRules.latitude.map((r) => [r.name, r]))

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
      return op.kind === "create" && fields.has("name") && c !== undefined ? uniqueNames(c, Effect.unsafeMakeSemaphore(1), next) : next
    }
  }),
  latitude("require-enums", {
    validate: (next, op, fields) => {
      const enums = REQUIRED_ENUMS.filter((f) => fields.has(f))
      return op.kind === "create" && enums.length > 0 ? validating(requireEnums(enums))(next) : next
    }
  }),
  latitude("identity-any-kind", { handler: (next, op) => (op.kindedReference === undefined ? next : identityAnyKind(op.kindedReference, next)) }),
  latitude("strict-time-filter", { validate: (next, op, fields) => (filteredCollection(op, fields) === undefined ? next : validating(strictTimeFilter)(next)) }),
  latitude("strict-filter-types", {
    validate: (next, op, fields) => {
      const c = filteredCollection(op, fields)
      return c === undefined ? next : validating(strictFilterTypes(booleanKeysOf(c)))(next)
    }
  }),
  latitude("filter-case-insensitive", {
    handler: (next, op, fields) => {
      const c = filteredCollection(op, fields)
      return c === undefined ? next : filteringWith(c, (filter, item) => matches(filter, item, CASE_INSENSITIVE))(next)
    }
  }),
  latitude("reject-empty-filter", { validate: (next, op, fields) => (filteredCollection(op, fields) === undefined ? next : validating(rejectEmptyFilter)(next)) }),
  latitude("parent-not-found", { handler: (next, op) => parentNotFound(op, next) }),
  latitude("return-secrets", { returnSecrets: () => true }),
  latitude("space-empty-ignored", {
    validate: (next, op) => (op.kind === "update" && op.references.length > 0 ? validating(emptyReferencesIgnored(op.references))(next) : next)
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
  latitude("body-limit-1mib", { bodyLimit: (next) => (configured) => Math.min(next(configured), ONE_MIB) }),
  latitude("lenient-deadline", {
    // Checked before the work starts, which then runs to its end.
    deadline: () => (work, millis, started) => (performance.now() - started < millis ? work : Effect.succeed(deadlinePassed(millis)))
  }),
  latitude("rate-limit-headers", { around: rateLimitHeaders }),
  latitude("empty-page-meta", { around: emptyPageMeta }),
  latitude("connect-get", { around: connectGet })
] as const

type Missing = Exclude<LatitudeName, (typeof records)[number]["name"]>
/** Every switch of `ContractRules.latitude` has a record (a compile error names the ones that do not). */
export const everySwitchHasARecord: [Missing] extends [never] ? true : Missing = true
