/**
 * The latitude switches' checks and rewrites of a decoded request (hooks on the `validate` stage):
 * string limits and formats, required enums, the filters' types, empty filters and references
 * sent as `""`. `latitude.ts` puts them in the switches' records.
 *
 * @internal
 */
import { Filter, Timestamp } from "@data-access/schema"
import * as Redacted from "effect/Redacted"
import type { CollectionName } from "./collections.js"
import { normalize, snakeToCamel } from "./handlers.js"
import { collectionOf } from "./operationCollections.js"
import { type Issue, type Op, type Validate } from "./pipeline-types.js"

/** A check of a decoded request, as a hook on the `validate` stage: it runs after the checks before it. */
export const validating =
  (step: Validate): ((next: Validate) => Validate) =>
  (next) =>
  (request, issues) =>
    step(next(request, issues), issues)

// What it reads holds no null (the pipeline drops nulls before decoding: decisions.md section 1)
// and no array where an object stands (arrays are read first); the JSON it parses is this server's
// own answers, objects.
export const isRecord = (u: unknown): u is Record<string, unknown> =>
  u !== null && typeof u === "object" && !Array.isArray(u)

type OnString = (s: string, path: ReadonlyArray<PropertyKey>, field: string) => void

/** Calls `f` with every string of a decoded request (secrets aside), its path and its field's name. */
// Fewer strings walked (none, those in arrays, nested ones, fewer fields) is nearer the default
// choice of strict-formats and string-limits (any string accepted): the marks "fewer strings".
const eachString = (
  value: unknown,
  path: Array<PropertyKey>,
  field: string,
  skip: ReadonlySet<string>,
  f: OnString
): void => {
  if (typeof value === "string") return f(value, path, field)
  if (Array.isArray(value))
    return value.forEach((x, i) => eachString(x, [...path, i], field, skip, f))
  if (!isRecord(value) || Redacted.isRedacted(value)) return
  // More fields checks a filter's `key` as the format `key` (not blank), which a filter key never is.
  for (const [k, x] of Object.entries(value))
    if (!skip.has(k)) eachString(x, [...path, k], k, skip, f)
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
  workerSchedule: [
    (s) => SIX_FIELD_CRON.test(s),
    "must be a six-field cron expression with seconds first (*/30 * * * * *)"
  ],
  // A pattern without an anchor, or a check that accepts all, accepts more, as a server that
  // validates less (or not at all) does: the marks "validates less".
  schedule: [
    (s) => /^(?:6|12|18|24)h$/.test(s) || FIVE_FIELD_CRON.test(s),
    "must be 6h, 12h, 18h, 24h or a five-field cron expression"
  ],
  email: [
    (s) => /^[^@]+@[^@]+$/.test(s),
    "must be an email address (one @ with text on both sides)"
  ],
  apiUrl: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],
  decryptorUri: [(s) => s === "" || isHttpUrl(s), "must be an absolute http or https URL"],
  key: [notBlank, "must not be blank"],
  code: [notBlank, "must not be blank"],
  workerCode: [notBlank, "must not be blank"]
}

/** A filter's `key` names a filter key, not a format. */
const NOT_FORMATS: ReadonlySet<string> = new Set(["filter"])

export const strictFormats: Validate = (request, issues) => {
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
export const stringLimits: Validate = (request, issues) => {
  eachString(request, [], "", NOTHING, (s, path, field) => {
    if (!UNLIMITED.has(field) && s.length > MAX_CHARACTERS && [...s].length > MAX_CHARACTERS) {
      issues.push({ path, message: `must be at most ${MAX_CHARACTERS} characters` })
    }
    if (CONTROL.test(MULTILINE.has(field) ? s.replace(LINE_BREAKS, "") : s))
      issues.push({ path, message: "must not contain control characters" })
  })
  return request
}

/** require-enums: the request enums with no empty value (decisions.md section 10). */
export const REQUIRED_ENUMS = ["workerRuntime", "deletionPolicy", "identityType", "status"] as const

export const requireEnums =
  (fields: ReadonlyArray<string>): Validate =>
  (request, issues) => {
    for (const field of fields)
      if (request[field] === undefined)
        issues.push({ path: [field], message: "is required (this server applies no default)" })
    return request
  }

export type AnyFilter = Filter.Filter<string>

type OnCondition = (condition: Filter.Condition<string>, path: ReadonlyArray<PropertyKey>) => void

/** Calls the functions with every condition and every empty filter of a decoded filter. */
// A filter not walked (a group, a condition) is accepted as the default choices of
// strict-time-filter, strict-filter-types and reject-empty-filter do: the marks "fewer filters".
// A group or a field is never present and unset (nulls are dropped before decoding).
const eachFilter = (
  filter: AnyFilter,
  path: ReadonlyArray<PropertyKey>,
  onCondition: OnCondition,
  onEmpty: (path: ReadonlyArray<PropertyKey>) => void
): void => {
  if (Filter.isEmpty(filter)) return onEmpty(path)
  if ("group" in filter && filter.group !== undefined)
    return filter.group.filters.forEach((f, i) =>
      eachFilter(f, [...path, "group", "filters", i], onCondition, onEmpty)
    )
  if ("field" in filter && filter.field !== undefined) onCondition(filter.field, [...path, "field"])
}

const STRING_OPERATORS: ReadonlySet<Filter.Operator> = new Set([
  "contains",
  "not_contains",
  "starts_with",
  "ends_with"
])
const ORDER_OPERATORS: ReadonlySet<Filter.Operator> = new Set(["lower_than", "greater_than"])

const isTimeKey = (key: string) => key.endsWith("_at")

/** Whether a filter key of a collection holds booleans (read from an object of zero values). */
export const booleanKeysOf = (c: CollectionName): ((key: string) => boolean) => {
  const zero = normalize(c, { id: "zero" })
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
export const strictFilterTypes = (isBoolean: (key: string) => boolean): Validate =>
  filterCheck(({ key, operator }, path, issues) => {
    const kind = isTimeKey(key) ? "a timestamp" : isBoolean(key) ? "a boolean" : undefined
    // Refusing fewer operators (or none) applies them to the value's text, the other faithful choice.
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

/** strict-time-filter: a value that is not a timestamp, for a time key, is refused. */
// No check, `false` or an empty block accepts any value for a time key, the default choice; a
// condition without a value fails the filter's own decoding before this check.
export const strictTimeFilter: Validate = filterCheck(({ key, operator, value }, path, issues) => {
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

/** reject-empty-filter: an empty filter, at any depth, is refused. */
export const rejectEmptyFilter: Validate = filterCheck(NO_CONDITION_CHECK, (path, issues) =>
  issues.push({
    path,
    message: "an empty filter is not accepted; send a field or a group, or no filter"
  })
)

/** The collection of the objects a list with a `filter` reads, if any. */
// A switch that finds no List with a filter leaves every filter to the default choices.
export const filteredCollection = (
  op: Op,
  fields: ReadonlySet<string>
): CollectionName | undefined => (fields.has("filter") ? collectionOf(op) : undefined)

/** space-empty-ignored: an update's reference sent as `""` (UpdateSatellite's `spaceId`) is not set. */
export const emptyReferencesIgnored =
  (references: ReadonlyArray<string>): Validate =>
  (request) => {
    if (!references.some((field) => request[field] === "")) return request
    const rest: Record<string, unknown> = { ...request }
    for (const field of references) if (rest[field] === "") delete rest[field]
    return rest
  }
