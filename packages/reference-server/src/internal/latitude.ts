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
import { ContractRules, Filter, Operations, RateLimit, Timestamp } from "@data-access/schema"
import * as ConnectError from "./connectError.js"
import * as Compression from "@data-access/schema/Compression"
import * as Crypto from "node:crypto"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
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
  parseIssueOf,
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

// What it reads holds no null (the pipeline drops nulls before decoding: decisions.md section 1)
// and no array where an object stands (arrays are read first); the JSON it parses is this server's
// own answers, objects.
const isRecord = (u: unknown): u is Record<string, unknown> =>
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral: equivalent: no null, no array here
  u !== null && typeof u === "object" && !Array.isArray(u)

type OnString = (s: string, path: ReadonlyArray<PropertyKey>, field: string) => void

/** Calls `f` with every string of a decoded request (secrets aside), its path and its field's name. */
// Fewer strings walked (none, those in arrays, nested ones, fewer fields) is nearer the default
// choice of strict-formats and string-limits (any string accepted): the marks "fewer strings".
// Stryker disable BlockStatement: latitude strict-formats, string-limits: fewer strings
const eachString = (
  value: unknown,
  path: Array<PropertyKey>,
  field: string,
  skip: ReadonlySet<string>,
  f: OnString
): void => {
  if (typeof value === "string") return f(value, path, field)
  if (Array.isArray(value))
    // Stryker disable next-line ArrowFunction,ArrayDeclaration: latitude strict-formats, string-limits: fewer strings
    return value.forEach((x, i) => eachString(x, [...path, i], field, skip, f))
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: latitude strict-formats, string-limits: fewer strings (a Redacted holds none)
  if (!isRecord(value) || Redacted.isRedacted(value)) return
  // More fields checks a filter's `key` as the format `key` (not blank), which a filter key never is.
  for (const [k, x] of Object.entries(value))
    // Stryker disable next-line ConditionalExpression,BooleanLiteral,ArrayDeclaration: latitude strict-formats, string-limits: fewer strings
    if (!skip.has(k)) eachString(x, [...path, k], k, skip, f)
}

// Stryker restore BlockStatement
const CRON_ITEM = "(?:\\*|\\?|[0-9A-Za-z]+(?:-[0-9A-Za-z]+)?)(?:/[0-9]+)?"
const CRON_FIELD = `${CRON_ITEM}(?:,${CRON_ITEM})*`
const cron = (fields: number) => new RegExp(`^${CRON_FIELD}(?: +${CRON_FIELD}){${fields - 1}}$`)
const SIX_FIELD_CRON = cron(6)
const FIVE_FIELD_CRON = cron(5)

const isHttpUrl = (s: string): boolean => {
  if (!URL.canParse(s)) return false
  const url = new URL(s)
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: latitude strict-formats: how strictly a URL is validated is the server's choice (any scheme, https only, no host check); the runner's valid URLs are https URLs with a host, which every variant accepts
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== ""
}

const notBlank = (s: string) => /\S/.test(s)

/** strict-formats: the formats decisions.md section 7 shows, by field name. */
const formats: Readonly<Record<string, readonly [(s: string) => boolean, string]>> = {
  workerSchedule: [
    (s) => SIX_FIELD_CRON.test(s),
    "must be a six-field cron expression with seconds first (*/30 * * * * *)"
  ],
  // A pattern without an anchor, or a check that accepts all, accepts more, as a server that
  // validates less (or not at all) does: the marks "validates less".
  schedule: [
    // Stryker disable next-line Regex,ConditionalExpression: latitude strict-formats: validates less
    (s) => /^(?:6|12|18|24)h$/.test(s) || FIVE_FIELD_CRON.test(s),
    "must be 6h, 12h, 18h, 24h or a five-field cron expression"
  ],
  email: [
    // Stryker disable next-line Regex: latitude strict-formats: validates less
    (s) => /^[^@]+@[^@]+$/.test(s),
    "must be an email address (one @ with text on both sides)"
  ],
  // Stryker disable next-line ConditionalExpression: latitude strict-formats: `true` accepts any URL, the default choice
  apiUrl: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: equivalent: no request carries decryptorUri (an EncryptionKey has no create or update: decisions.md section 9), so this format is never checked
  decryptorUri: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],
  key: [notBlank, "must not be blank"],
  code: [notBlank, "must not be blank"],
  workerCode: [notBlank, "must not be blank"]
}

/** A filter's `key` names a filter key, not a format. */
const NOT_FORMATS: ReadonlySet<string> = new Set(["filter"])

const strictFormats: Validate = (request, issues) => {
  // Stryker disable next-line ArrayDeclaration,StringLiteral,BlockStatement: latitude strict-formats: an empty check is the default choice (any string); the root path and field name only name issues, and a request is an object, never a string at its root
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
  // Stryker disable next-line ArrayDeclaration,StringLiteral,BlockStatement: latitude string-limits: an empty check is the default choice (any string); the root path and field name only name issues, and a request is an object, never a string at its root
  eachString(request, [], "", NOTHING, (s, path, field) => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral,EqualityOperator,ArrayDeclaration,BlockStatement: latitude string-limits: a limit counted in code points or UTF-16 units, at 255 or 256, on any string field (source code and cursors too: this server's cursors are short), or none at all, are each a faithful choice ("longer than 255 characters" under some count); the whole condition `true` (every string refused) is killed
    if (!UNLIMITED.has(field) && s.length > MAX_CHARACTERS && [...s].length > MAX_CHARACTERS) {
      issues.push({ path, message: `must be at most ${MAX_CHARACTERS} characters` })
    }
    // Stryker disable next-line ConditionalExpression,StringLiteral: latitude string-limits: no control-character check is the default choice; line breaks replaced by other text still hold no control character; the message's text is free (`true`, every string refused, is killed)
    if (CONTROL.test(MULTILINE.has(field) ? s.replace(LINE_BREAKS, "") : s))
      issues.push({ path, message: "must not contain control characters" })
  })
  return request
}

/** require-enums: the request enums with no empty value (decisions.md section 10). */
const REQUIRED_ENUMS = ["workerRuntime", "deletionPolicy", "identityType", "status"] as const

const requireEnums =
  (fields: ReadonlyArray<string>): Validate =>
  (request, issues) => {
    for (const field of fields)
      // Stryker disable next-line ConditionalExpression: latitude require-enums: an enum left out gets the default
      if (request[field] === undefined)
        issues.push({ path: [field], message: "is required (this server applies no default)" })
    return request
  }

type AnyFilter = Filter.Filter<string>

type OnCondition = (condition: Filter.Condition<string>, path: ReadonlyArray<PropertyKey>) => void

/** Calls the functions with every condition and every empty filter of a decoded filter. */
// A filter not walked (a group, a condition) is accepted as the default choices of
// strict-time-filter, strict-filter-types and reject-empty-filter do: the marks "fewer filters".
// A group or a field is never present and unset (nulls are dropped before decoding).
// Stryker disable BlockStatement: latitude strict-time-filter, strict-filter-types, reject-empty-filter: fewer filters
const eachFilter = (
  filter: AnyFilter,
  path: ReadonlyArray<PropertyKey>,
  onCondition: OnCondition,
  onEmpty: (path: ReadonlyArray<PropertyKey>) => void
): void => {
  // Stryker disable next-line ConditionalExpression: latitude reject-empty-filter: an empty filter not seen matches every item, the default choice; `true` sees every filter as empty
  if (Filter.isEmpty(filter)) return onEmpty(path)
  // Stryker disable ConditionalExpression,ArrowFunction,StringLiteral,ArrayDeclaration: latitude strict-time-filter, strict-filter-types, reject-empty-filter: fewer filters
  if ("group" in filter && filter.group !== undefined)
    return filter.group.filters.forEach((f, i) =>
      eachFilter(f, [...path, "group", "filters", i], onCondition, onEmpty)
    )
  // Stryker restore ConditionalExpression,ArrowFunction,StringLiteral,ArrayDeclaration
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration,StringLiteral: latitude strict-time-filter, strict-filter-types: fewer filters
  if ("field" in filter && filter.field !== undefined) onCondition(filter.field, [...path, "field"])
}

// Stryker restore BlockStatement
const STRING_OPERATORS: ReadonlySet<Filter.Operator> = new Set([
  "contains",
  "not_contains",
  "starts_with",
  "ends_with"
])
const ORDER_OPERATORS: ReadonlySet<Filter.Operator> = new Set(["lower_than", "greater_than"])

const isTimeKey = (key: string) => key.endsWith("_at")

/** Whether a filter key of a collection holds booleans (read from an object of zero values). */
const booleanKeysOf = (c: CollectionName): ((key: string) => boolean) => {
  const zero = normalize(c, { id: "zero" })
  // Stryker disable next-line ConditionalExpression: latitude strict-filter-types: no key read as a boolean applies the operators to the value's text, the other faithful choice
  return (key) => typeof zero[snakeToCamel(key)] === "boolean"
}

/** The checks of each condition and each empty filter of a request's filter. */
const filterCheck =
  (
    onCondition: (
      condition: Filter.Condition<string>,
      path: ReadonlyArray<PropertyKey>,
      issues: Array<Issue>
    ) => void,
    onEmpty: (path: ReadonlyArray<PropertyKey>, issues: Array<Issue>) => void
  ): Validate =>
  (request, issues) => {
    const filter = request.filter as AnyFilter | undefined
    if (filter === undefined) return request
    // Stryker disable next-line CallExpression: latitude strict-time-filter, strict-filter-types, reject-empty-filter: a filter not walked is accepted as the default choices do
    eachFilter(
      filter,
      // Stryker disable next-line ArrayDeclaration,StringLiteral: latitude strict-time-filter, strict-filter-types, reject-empty-filter: the path only names the issue (an empty array or text there changes the message only)
      ["filter"],
      // Stryker disable next-line ArrowFunction: latitude strict-time-filter, strict-filter-types: a check that sees no condition accepts every one, the default choice
      (condition, path) => onCondition(condition, path, issues),
      // Stryker disable next-line ArrowFunction: latitude reject-empty-filter: a check that sees no empty filter accepts it (matching every item), the default choice
      (path) => onEmpty(path, issues)
    )
    return request
  }

const NO_CONDITION_CHECK = () => {}

/** strict-filter-types: string operators on timestamps and booleans, order operators on booleans, are refused. */
const strictFilterTypes = (isBoolean: (key: string) => boolean): Validate =>
  // Stryker disable next-line BlockStatement: latitude strict-filter-types: no check applies the operators to the value's text, the other faithful choice
  filterCheck(({ key, operator }, path, issues) => {
    // Stryker disable next-line StringLiteral: equivalent: "a timestamp" names the kind in the message only (the kind compared is "a boolean")
    const kind = isTimeKey(key) ? "a timestamp" : isBoolean(key) ? "a boolean" : undefined
    // Refusing fewer operators (or none) applies them to the value's text, the other faithful choice.
    // Stryker disable ConditionalExpression,LogicalOperator,BlockStatement: latitude strict-filter-types: refuses fewer
    if (
      kind !== undefined &&
      (STRING_OPERATORS.has(operator) || (kind === "a boolean" && ORDER_OPERATORS.has(operator)))
    ) {
      issues.push({
        path: [...path, "operator"],
        message: `${operator} does not apply to ${key} (${kind})`
      })
    }
  }, NO_CONDITION_CHECK)

// Stryker restore ConditionalExpression,LogicalOperator,BlockStatement
/** strict-time-filter: a value that is not a timestamp, for a time key, is refused. */
// No check, `false` or an empty block accepts any value for a time key, the default choice; a
// condition without a value fails the filter's own decoding before this check.
// Stryker disable next-line BlockStatement: latitude strict-time-filter: accepts any value
const strictTimeFilter: Validate = filterCheck(({ key, operator, value }, path, issues) => {
  // Stryker disable StringLiteral,ConditionalExpression,BlockStatement: latitude strict-time-filter: accepts any value
  if (
    isTimeKey(key) &&
    !Filter.valueless.has(operator) &&
    typeof Timestamp.parse(value?.value ?? "") === "string"
  ) {
    issues.push({
      path: [...path, "value", "value"],
      message: `must be an RFC 3339 timestamp for ${key}`
    })
  }
}, NO_CONDITION_CHECK)

// Stryker restore StringLiteral,ConditionalExpression,BlockStatement
/** reject-empty-filter: an empty filter, at any depth, is refused. */
const rejectEmptyFilter: Validate = filterCheck(NO_CONDITION_CHECK, (path, issues) =>
  issues.push({
    path,
    message: "an empty filter is not accepted; send a field or a group, or no filter"
  })
)

/** The collection of the objects a list with a `filter` reads, if any. */
// A switch that finds no List with a filter leaves every filter to the default choices.
const filteredCollection = (op: Op, fields: ReadonlySet<string>): CollectionName | undefined =>
  // Stryker disable next-line StringLiteral: latitude strict-time-filter, strict-filter-types, filter-case-insensitive, reject-empty-filter: no filter read
  fields.has("filter") ? collectionOf(op) : undefined

/** space-empty-ignored: an update's reference sent as `""` (UpdateSatellite's `spaceId`) is not set. */
const emptyReferencesIgnored =
  (references: ReadonlyArray<string>): Validate =>
  (request) => {
    // Stryker disable next-line BooleanLiteral,ConditionalExpression,MethodExpression,ArrowFunction,EqualityOperator,StringLiteral: latitude space-empty-ignored: `""` kept takes the object out of its space, the other faithful choice; a reference that is not `""` is kept by every variant (the loop below deletes only `""`, or every reference when one of them is `""`: UpdateSatellite has only spaceId)
    if (!references.some((field) => request[field] === "")) return request
    const rest: Record<string, unknown> = { ...request }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: latitude space-empty-ignored: `""` kept takes the object out of its space, the other faithful choice; deleting every reference when one is `""` deletes only that one (UpdateSatellite's spaceId is its only reference)
    for (const field of references) if (rest[field] === "") delete rest[field]
    return rest
  }

// ---------------------------------------------------------------------------------------------
// cursor-bound: a cursor carries a digest of the request that produced it
// ---------------------------------------------------------------------------------------------

/** The digest of what a walk depends on: filter, search, spaceId and order. */
const walkDigest = (request: Req): string => {
  const filter = request.filter as AnyFilter | undefined
  // A digest of less (or other text for the same parts) binds the cursor to less, down to nothing:
  // continuing the walk is the other faithful choice; the same digest is computed for the cursor
  // and its check.
  // Stryker disable ConditionalExpression,LogicalOperator,StringLiteral,EqualityOperator: latitude cursor-bound: binds to less
  const walk = [
    filter === undefined || Filter.isEmpty(filter) ? null : filter,
    request.search ?? "",
    request.spaceId ?? "",
    request.order === "desc" ? "desc" : "asc"
  ]
  // Stryker restore ConditionalExpression,LogicalOperator,StringLiteral,EqualityOperator
  // Stryker disable next-line MethodExpression: equivalent: a longer digest binds the cursor the same way
  return Crypto.createHash("sha256").update(JSON.stringify(walk)).digest("base64url").slice(0, 16)
}

const cursorBound: Validate = (request, issues) => {
  const cursor = request.cursor
  if (typeof cursor !== "string" || cursor === "") return request
  const dot = cursor.lastIndexOf(".")
  // Stryker disable next-line ConditionalExpression,UnaryOperator,BlockStatement: latitude cursor-bound: a cursor this server did not write (no digest) is then refused by the faithful pipeline as unknown (invalid_argument), the same answer
  if (dot === -1) {
    issues.push({ path: ["cursor"], message: "unknown cursor; pass back listMetadata.nextCursor" })
    return request
  }
  // Stryker disable next-line ConditionalExpression,BlockStatement: latitude cursor-bound: no check of the digest (`false`, or no issue) continues the walk, the other faithful choice (`true` is killed)
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

const collectionOf = (op: Op): CollectionName | undefined => Collections.bySchema(op.object)

const CASE_INSENSITIVE: Filter.EvaluateOptions = { caseInsensitive: true }

/** identity-any-kind: a `resource_hostname` identity (`identityId` of kind `identityType`) names an object of any kind. */
const identityAnyKind =
  ({ field, kindField }: Operations.KindedReference, handler: Handler): Handler =>
  (request, ctx) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: latitude identity-any-kind: `true` reads identityId as a connector hostname only (not_found for another kind), the other faithful choice; `false` and the others look the id up in every collection, where a user or group id is still checked as one by the handler
    if (request[kindField] !== "resource_hostname") return handler(request, ctx)
    const id = String(request[field])
    return Effect.gen(function* () {
      // Stryker disable next-line BlockStatement: latitude identity-any-kind: no lookup reads identityId as a connector hostname only, the other faithful choice
      for (const c of Collections.names) {
        // Stryker disable next-line ConditionalExpression: latitude identity-any-kind: always going on reads identityId as a connector hostname only, the other faithful choice
        if ((yield* ctx.store.get(c, id)) === undefined) continue
        // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude identity-any-kind: a connector hostname found first goes to the handler either way (its own store holds it); another kind found is taken or not, both faithful choices
        if (c === "connectorHostnames") break
        // Another kind of object: the link names it by its id.
        const store: StoreService = {
          ...ctx.store,
          // The link's handler reads only the connector hostname named by identityId through this
          // store: a variant that finds it nowhere answers not_found (the other faithful choice),
          // one that finds more finds only ids that exist.
          // Stryker disable ConditionalExpression,LogicalOperator,EqualityOperator,ObjectLiteral: latitude identity-any-kind: finds it nowhere or more
          get: (name, i) =>
            name === "connectorHostnames" && i === id
              ? Effect.succeed({ id })
              : ctx.store.get(name, i)
        }
        // Stryker restore ConditionalExpression,LogicalOperator,EqualityOperator,ObjectLiteral
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
  // Stryker disable BooleanLiteral: latitude parent-not-found: no parent checked
  const parentCollection =
    parent?.required === true ? Collections.bySchema(parent.object) : undefined
  // Stryker restore BooleanLiteral
  // Stryker disable next-line BlockStatement: latitude parent-not-found: no parent checked
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
  // Stryker disable next-line BlockStatement: latitude parent-not-found: a Get by keyId that finds none answers an empty array, the other faithful choice
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

// Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,MethodExpression: equivalent: it shortens a name quoted in an error's message, text the documents leave free
const truncate = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n)}...` : s)

/** unique-names: a create whose name is taken is already_exists. Creates are taken one at a time, so two at once cannot both win. */
const uniqueNames =
  (c: CollectionName, lock: Effect.Semaphore, handler: Handler): Handler =>
  (request, ctx) =>
    lock.withPermits(1)(
      Effect.flatMap(ctx.store.all(c), (objects) =>
        // Stryker disable next-line MethodExpression,ArrowFunction,ConditionalExpression: latitude unique-names: a check that finds no taken name accepts duplicates, the other faithful choice (`every` on a collection that holds objects of other names does too)
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

const pathOf = (url: string) => {
  // Stryker disable next-line StringLiteral: latitude empty-page-meta: a path not found among the Lists leaves after and before out, the other faithful choice
  const q = url.indexOf("?")
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator,MethodExpression: latitude empty-page-meta: a path not found among the Lists leaves after and before out, the other faithful choice
  return q === -1 ? url : url.slice(0, q)
}

const utf8 = new TextDecoder("utf-8")

const parseText = Option.liftThrowable((text: string): unknown => JSON.parse(text))

const parseJson = (body: string | Uint8Array): Record<string, unknown> | undefined => {
  const value = Option.getOrUndefined(
    parseText(typeof body === "string" ? body : utf8.decode(body))
  )
  return isRecord(value) ? value : undefined
}

const lists: ReadonlyMap<string, Op> = new Map(
  Operations.all.filter((o) => o.kind === "list").map((o) => [o.path, o])
)

/** page-size: the most items a page holds, whatever `limit` asks. */
const PAGE_SIZE = 100

/** empty-page-meta: an empty page writes `after` and `before` as `""`. */
const emptyPageMeta =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) => {
      const op = lists.get(pathOf(input.url))
      // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude empty-page-meta: answers not rewritten leave after and before out (the other faithful choice); an error's body given `listMetadata` has a field readers ignore (decisions.md section 1)
      if (out._tag !== "Response" || out.status !== 200 || op === undefined) return out
      const body = parseJson(out.body)
      const items = body?.[op.itemField!]
      // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude empty-page-meta: answers not rewritten leave after and before out (the other faithful choice); a full page rewritten keeps its own after and before; every 200 of a List here is JSON (no binary codec), so body is never undefined
      if (body === undefined || (Array.isArray(items) && items.length > 0)) return out
      const meta = isRecord(body.listMetadata) ? body.listMetadata : {}
      // An empty page written as `{}` or with an empty listMetadata reads as the same zero values
      // (decisions.md section 1: readers treat an absent field as its zero value).
      // Stryker disable next-line ObjectLiteral: equivalent: zero values
      const listMetadata = { after: "", before: "", ...meta }
      // Stryker disable next-line ObjectLiteral: equivalent: zero values
      return { ...out, body: JSON.stringify({ ...body, listMetadata }) }
    })

/** empty-protocol-bodies: the 405 and 415 answers have an empty body. */
// A Connect error body is the other faithful choice; an empty body with another content type is
// still empty.
// Stryker disable StringLiteral: latitude empty-protocol-bodies: a Connect error body
const emptyProtocolBodies =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) =>
      // Stryker disable next-line ConditionalExpression: latitude empty-protocol-bodies: a Connect error body
      out._tag === "Response" && (out.status === 405 || out.status === 415)
        ? { ...out, headers: { ...out.headers, "content-type": "text/plain" }, body: "" }
        : out
    )

// Stryker restore StringLiteral
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
      // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude rate-limit-headers: the figures of X-Ratelimit-* on an answer that is not limited are the server's own (no limit is enforced; the headers may be left out altogether)
      if (now >= windowEnd) {
        // Stryker disable next-line ArithmeticOperator: latitude rate-limit-headers: the figures of X-Ratelimit-* on an answer that is not limited are the server's own (no limit is enforced; the headers may be left out altogether)
        windowEnd = now - (now % RATE_WINDOW_SECONDS) + RATE_WINDOW_SECONDS
        used = 0
      }
      // Stryker disable next-line UpdateOperator: latitude rate-limit-headers: the figures of X-Ratelimit-* on an answer that is not limited are the server's own (no limit is enforced; the headers may be left out altogether)
      used++
      const { "x-request-id": _, ...headers } = out.headers
      return {
        ...out,
        headers: {
          // Stryker disable next-line ArithmeticOperator: latitude rate-limit-headers: the figures of X-Ratelimit-* on an answer that is not limited are the server's own (no limit is enforced; the headers may be left out altogether)
          ...RateLimit.headers(RATE_LIMIT, RATE_LIMIT - used, windowEnd),
          // A rate-limited answer keeps its own figures.
          ...headers
        }
      }
    })
}

/** connect-get: a Connect GET (`?encoding=json&message=...`) of a read, as the POST it stands for. */
const fromConnectGet = (input: Input): Input | undefined => {
  // Stryker disable next-line StringLiteral: latitude connect-get: a GET not read as a Connect GET is refused (415, 405), the other faithful choice
  const q = input.url.indexOf("?")
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator: latitude connect-get: a GET not read as a Connect GET is refused (415, 405), the other faithful choice; a POST has no query
  if (q === -1) return undefined
  // Stryker disable next-line MethodExpression: latitude connect-get: a GET not read as a Connect GET is refused (415, 405), the other faithful choice
  const path = input.url.slice(0, q)
  const op = Operations.byPath.get(path)
  // Stryker disable next-line ConditionalExpression: latitude connect-get: a GET not read as a Connect GET is refused (415, 405), the other faithful choice
  if (op === undefined || (op.kind !== "get" && op.kind !== "list")) return undefined
  // Stryker disable next-line MethodExpression,ArithmeticOperator: latitude connect-get: a query read from the wrong place loses its first parameter (`connect`, which a read does not need, or the encoding: then refused, the other faithful choice)
  const params = new URLSearchParams(input.url.slice(q + 1))
  // Stryker disable next-line StringLiteral: latitude connect-get: a GET without its encoding read is refused (415, 405), the other faithful choice
  const encoding = params.get("encoding")
  // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude connect-get: a GET without an encoding is refused either way (not read, or read as the content type application/null: 415)
  if (encoding === null) return undefined
  const message = params.get("message")
  // Stryker disable next-line StringLiteral: equivalent: a GET without a message reads as an empty body, refused (invalid_argument) as any text that is not JSON is
  const text = message ?? ""
  // Node's base64 decoder reads the URL-safe alphabet too, padded or not.
  const bytes =
    params.get("base64") === "1" ? Buffer.from(text, "base64") : Buffer.from(text, "utf8")
  const { "content-encoding": _, ...headers } = input.headers
  const compression = params.get("compression")
  return {
    // Stryker disable next-line StringLiteral: latitude connect-get: a GET turned into another method is refused (405), the other faithful choice
    method: "POST",
    url: path,
    // Stryker disable next-line ObjectLiteral: latitude connect-get: a GET without a content type is refused (415), the other faithful choice
    headers: {
      ...headers,
      // Stryker disable next-line StringLiteral: latitude connect-get: a GET without a content type is refused (415), the other faithful choice
      "content-type": `application/${encoding}`,
      "content-length": String(bytes.length),
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: `true` sets `identity` or nothing (null) where no compression is named, and `"identity"` emptied sets `identity`: all read as not compressed (`false` is killed by a GET with a gzip message)
      ...(compression !== null && compression !== "identity"
        ? { "content-encoding": compression }
        : {}),
      // Stryker disable next-line ObjectLiteral,StringLiteral,ConditionalExpression,EqualityOperator: equivalent: a Connect GET is a read, and only CreatePermission requires Connect-Protocol-Version (decisions.md section 1)
      ...(params.get("connect") === "v1" ? { "connect-protocol-version": "1" } : {})
    },
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a message in a URL is far under any body limit (1 MiB at least); `true` (every GET too large) is killed
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
        return Either.getOrElse(Compression.decompress(bytes, encoding, max), (e) =>
          e.reason === "TooLarge" ? ("too-large" as const) : bytes
        )
      })
  }
}

/** Answers from this size up are compressed for a client that offers an encoding, as Connect servers do. */
const COMPRESS_FROM_BYTES = 1024

/** connect-get: an answer of at least 1 KiB compressed with the first encoding the client offers (`Accept-Encoding`). */
const compressedAnswer = (out: Output, acceptEncoding: string | undefined): Output => {
  const encoding = Compression.parseAcceptEncoding(acceptEncoding)[0]
  if (
    out._tag !== "Response" ||
    encoding === undefined ||
    out.headers["content-encoding"] !== undefined
  )
    return out
  // Stryker disable next-line EqualityOperator: equivalent: Buffer.from of bytes copies them and of a string encodes it: the same bytes either way
  const bytes = typeof out.body === "string" ? Buffer.from(out.body) : out.body
  // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude connect-get: the size from which answers are compressed (none, all, from 1 KiB) is a server's choice; the runner reads every answer by its Content-Encoding
  if (bytes.length < COMPRESS_FROM_BYTES) return out
  const body = Compression.compress(bytes, encoding)
  return { ...out, headers: { ...out.headers, "content-encoding": encoding }, body }
}

const connectGet =
  (handle: Handle): Handle =>
  (input) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: latitude connect-get: a GET not read as a Connect GET is refused (405), the other faithful choice; a POST has no query, so reading it as a GET finds none
    const request = (input.method === "GET" ? fromConnectGet(input) : undefined) ?? input
    // Stryker disable next-line StringLiteral: latitude connect-get: a body not decompressed here keeps its Content-Encoding, which the faithful pipeline refuses (415), the other faithful choice
    const encoding = Compression.parseContentEncoding(request.headers["content-encoding"])
    return Effect.map(
      handle(encoding._tag === "Compressed" ? decompressed(request, encoding.encoding) : request),
      (out) =>
        // Stryker disable next-line StringLiteral: latitude connect-get: answers never compressed is the other faithful choice
        compressedAnswer(out, input.headers["accept-encoding"])
    )
  }

// ---------------------------------------------------------------------------------------------
// The records
// ---------------------------------------------------------------------------------------------

/** body-before-auth: a decode that reports the last broken field rule. */
const lastIssueDecode = (op: Op): Decode => {
  // Stryker disable next-line ObjectLiteral: latitude body-before-auth: with the first issue instead of the last, the answer is still one of the errors that apply (decisions.md section 10: any one of them)
  const decode = ParseResult.decodeUnknownEither(op.request as Schema.Schema<Req, unknown>, {
    errors: "all"
  })
  return (u) =>
    Either.mapLeft(decode(u), (error) => {
      const issues = ParseResult.ArrayFormatter.formatIssueSync(error)
      // Stryker disable next-line ArithmeticOperator: latitude body-before-auth: no issue picked falls back to the decode's own error, still one of the errors that apply (decisions.md section 10: any one of them)
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
