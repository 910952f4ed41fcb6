/**
 * The rules a server of this API must follow, as data: every must of `interface.md` and
 * `decisions.md` (sections 1 to 9), each with the sentence that makes it a must, the contract
 * check that tests it and the reference server's violation that breaks it.
 *
 * A contract-test finding always names one of these rules, so every finding rests on a quoted
 * must. What the documents leave open (decisions.md section 10) is not a rule: `latitude` lists
 * those choices, and `notes` the observations about them that are reported but never fail a run.
 *
 * @since 0.2.0
 */
import type { CheckId } from "./ContractChecks.js"

/**
 * Where a rule is written: the document, its section and a verbatim quote (whitespace may differ).
 *
 * @since 0.2.0
 * @category models
 */
export interface Source {
  readonly doc: "interface.md" | "decisions.md"
  readonly section: string
  readonly quote: string
}

/**
 * One must.
 *
 * @since 0.2.0
 * @category models
 */
export interface Rule {
  readonly id: RuleId
  /** The must, in one sentence. */
  readonly must: string
  readonly source: Source
  /** The contract check whose findings report a break of this rule. */
  readonly check: CheckId
  /** The reference server's violation (`Faults.violations`) that breaks it. */
  readonly violation: string
}

const i = (section: string, quote: string): Source => ({ doc: "interface.md", section, quote })
const d = (section: string, quote: string): Source => ({ doc: "decisions.md", section, quote })

/**
 * Every rule, grouped by check in report order.
 *
 * @since 0.2.0
 * @category rules
 */
export const rules = [
  // no-server-errors
  {
    id: "errors.no-internal-for-client-faults",
    must: "A request, valid or not, never gets a 5xx or a dropped connection: bad input is invalid_argument, unknown fields are ignored.",
    source: d(
      "2. Errors",
      "A field breaks a rule of the interface (min length, enum value, `limit` out of range, port range, two variants of a one-of at once, wrong JSON type) | invalid_argument"
    ),
    check: "no-server-errors",
    violation: "server-error-on-unknown-field"
  },
  // success-shape
  {
    id: "wire.success",
    must: "A success is HTTP 200 with `Content-Type: application/json` and a JSON object body.",
    source: d(
      "1. Wire rules (all operations)",
      "HTTP 200, `Content-Type: application/json`, body the response object."
    ),
    check: "success-shape",
    violation: "success-content-type"
  },
  // error-shape
  {
    id: "errors.connect-body",
    must: "Every non-200 answer (but 405 and 415) carries a Connect error body with a known `code`; its optional `message` is a string, and each of its optional `details` has a `type` and a base64 `value`.",
    source: d("2. Errors", "Every non-200 response carries a Connect error body"),
    check: "error-shape",
    violation: "invalid-error-body"
  },
  {
    id: "errors.status-agrees",
    must: "The HTTP status of an error is the one the Connect mapping gives its code.",
    source: d("2. Errors", "The 16 codes and their HTTP statuses (current Connect mapping)"),
    check: "error-shape",
    violation: "wrong-status-for-code"
  },
  {
    id: "errors.retry-after",
    must: "A rate-limited call (resource_exhausted to a body of at most 1 MiB) carries `Retry-After` in seconds.",
    source: d(
      "2. Errors",
      "| Rate limit reached | resource_exhausted, with `Retry-After` (seconds) |"
    ),
    check: "error-shape",
    violation: "rate-limit-without-retry-after"
  },
  {
    id: "errors.rate-limit-headers",
    must: "`X-Ratelimit-Limit` and `X-Ratelimit-Remaining`, when sent, are whole numbers, and `X-Ratelimit-Reset` a Unix time in seconds.",
    source: d(
      "2. Errors",
      "Responses may carry `X-Ratelimit-Limit`, `X-Ratelimit-Remaining` and `X-Ratelimit-Reset` (Unix seconds)"
    ),
    check: "error-shape",
    violation: "rate-limit-reset-delta"
  },
  {
    id: "errors.unknown-id",
    must: "A Get or Update whose id names nothing is not_found.",
    source: d(
      "2. Errors",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    check: "error-shape",
    violation: "unknown-id-invalid"
  },
  {
    id: "errors.unknown-reference",
    must: "A Create whose referenced id names nothing, or CreateHumanUserPassword for an unknown user, is not_found.",
    source: d(
      "2. Errors",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    check: "error-shape",
    violation: "unknown-reference-accepted"
  },
  // secrets
  {
    id: "secrets.not-in-errors",
    must: "No error message or body carries the value of a secret field of the request.",
    source: d("8. Secrets", "no log line, span attribute, error message or report may print them"),
    check: "secrets",
    violation: "secret-in-error"
  },
  {
    id: "secrets.key-not-in-errors",
    must: "No error message or body carries the `X-API-KEY` the request sent (a wrong key included).",
    source: d(
      "8. Secrets",
      "no log line, span attribute, error message or report may print them: the `X-API-KEY` header"
    ),
    check: "secrets",
    violation: "key-in-error"
  },
  // response-schema
  {
    id: "response.schema",
    must: "A success body has the operation's wrapper and fields with their types, enum values and ranges; `id` and min-length-1 fields are present.",
    source: d(
      "1. Wire rules (all operations)",
      "Fields that the interface marks min length 1 (and `id` everywhere) are always present."
    ),
    check: "response-schema",
    violation: "missing-required-field"
  },
  {
    id: "response.field-types",
    must: "Every field of a response has its JSON type: strings, booleans, int32 numbers, objects, arrays.",
    source: i(
      "Resources and their fields",
      "Types: string, boolean, integer, timestamp (RFC 3339 string), object, array."
    ),
    check: "response-schema",
    violation: "wrong-field-type"
  },
  {
    id: "timestamps.utc-z",
    must: "Timestamps in responses are RFC 3339 in UTC with the suffix `Z`.",
    source: i(
      "What the service does",
      "A parser accepts other offsets; a serializer always writes `Z`."
    ),
    check: "response-schema",
    violation: "non-utc-timestamp"
  },
  {
    id: "timestamps.fraction-digits",
    must: "Timestamps in responses have 0, 3, 6 or 9 fractional digits.",
    source: d("1. Wire rules (all operations)", "Writers emit 0, 3, 6 or 9 fractional digits."),
    check: "response-schema",
    violation: "timestamp-fraction-digits"
  },
  {
    id: "int64.as-string",
    must: "`relativeTime` (int64) is written as a JSON string.",
    source: d(
      "1. Wire rules (all operations)",
      '`relativeTime` (saved log query) is int64: written as a JSON string (`"3600"`)'
    ),
    check: "response-schema",
    violation: "int64-as-number"
  },
  {
    id: "wire.output-camel-case",
    must: "Response field names are lowerCamelCase, never the snake_case form.",
    source: d("1. Wire rules (all operations)", "Output is always lowerCamelCase."),
    check: "response-schema",
    violation: "snake-case-output"
  },
  // timestamps
  {
    id: "timestamps.past",
    must: "`createdAt` and `updatedAt` are earlier than the time of the response.",
    source: i(
      "What the service does",
      "Every `createdAt` and `updatedAt` value is a timestamp earlier than the time of the response."
    ),
    check: "timestamps",
    violation: "created-at-in-future"
  },
  {
    id: "timestamps.expires-future",
    must: "`expiresAt` of a new human user password is later than the time of the response.",
    source: i(
      "Resources and their fields",
      "| expiresAt | timestamp | later than the time of the response |"
    ),
    check: "timestamps",
    violation: "expires-at-in-past"
  },
  // valid-accepted
  {
    id: "wire.unknown-fields-ignored",
    must: "Unknown request fields are ignored, not rejected.",
    source: d(
      "1. Wire rules (all operations)",
      "Ignored by the server (proto3 JSON discards unknown fields)."
    ),
    check: "valid-accepted",
    violation: "rejects-unknown-field"
  },
  {
    id: "wire.snake-case",
    must: "Request field names are accepted in lowerCamelCase and in snake_case.",
    source: d(
      "1. Wire rules (all operations)",
      "lowerCamelCase; a server also accepts the snake_case form (`resource_id`)."
    ),
    check: "valid-accepted",
    violation: "rejects-snake-case"
  },
  {
    id: "wire.null-is-unset",
    must: "`null` for a request field means not set, as if it were absent.",
    source: d("1. Wire rules (all operations)", 'Means "not set", the same as an absent field.'),
    check: "valid-accepted",
    violation: "rejects-null"
  },
  {
    id: "wire.json-spellings",
    must: "A body is read as the JSON value it spells: escapes (`\\u0061` for `a`, `\\/` for `/`) and whitespace between tokens change nothing, so the request is accepted and answered as its plainest spelling is.",
    source: d(
      "1. Wire rules (all operations)",
      "`POST`, `Content-Type: application/json`, body a JSON object."
    ),
    check: "valid-accepted",
    violation: "json-escapes-literal"
  },
  {
    id: "wire.zero-is-unset",
    must: 'An optional request field sent as its zero value (`""`, `false`, `0`, `[]`) is read as the field left out, where the two mean the same (not in an update, whose absent fields stay as they are): the request is accepted and answered as without it.',
    source: d("1. Wire rules (all operations)", "Readers treat an absent field as its zero value."),
    check: "valid-accepted",
    violation: "zero-value-refused"
  },
  {
    id: "fields.valid-accepted",
    must: "A request that keeps every rule (optional fields left out or set to any allowed value) is accepted with 200.",
    source: i(
      "Endpoints",
      "The success response is described as Success; its body is a single wrapper object as listed in the table."
    ),
    check: "valid-accepted",
    violation: "requires-optional-field"
  },
  {
    id: "lists.limit-accepted",
    must: "Every `limit` from 1 to 500 is accepted.",
    source: d("3. Lists", "1 to 500; 0, negative, above 500 or absent is invalid_argument."),
    check: "valid-accepted",
    violation: "limit-off-by-one"
  },
  // invalid-rejected
  {
    id: "fields.min-length",
    must: "A string under its min length (1, or 9 for `workerSchedule`) is invalid_argument.",
    source: i("Limits", "| minimum string length 1 | the create-request fields marked above"),
    check: "invalid-rejected",
    violation: "ignored-min-length"
  },
  {
    id: "lists.limit-range",
    must: "A `limit` of 0, negative, above 500 or absent is invalid_argument.",
    source: d("3. Lists", "1 to 500; 0, negative, above 500 or absent is invalid_argument."),
    check: "invalid-rejected",
    violation: "ignored-limit-range"
  },
  {
    id: "fields.enum",
    must: "A value outside an enum (`status`, `order`, `identityType`, `searchFields`...) is invalid_argument.",
    source: d(
      "2. Errors",
      "A field breaks a rule of the interface (min length, enum value, `limit` out of range, port range, two variants of a one-of at once, wrong JSON type) | invalid_argument"
    ),
    check: "invalid-rejected",
    violation: "ignored-enum"
  },
  {
    id: "fields.json-type",
    must: "A field of the wrong JSON type (a string for a number, a number for a string, a fraction for an int32...) is invalid_argument.",
    source: d(
      "2. Errors",
      "A field breaks a rule of the interface (min length, enum value, `limit` out of range, port range, two variants of a one-of at once, wrong JSON type) | invalid_argument"
    ),
    check: "invalid-rejected",
    violation: "ignored-json-type"
  },
  {
    id: "fields.required",
    must: "A required request field that is missing (or `null`) is invalid_argument.",
    source: d(
      "6. Request fields the interface does not show",
      "Request fields (required unless marked optional)"
    ),
    check: "invalid-rejected",
    violation: "ignored-required"
  },
  {
    id: "fields.one-of",
    must: "CreateHumanUserPassword with none or two of `email`, `username`, `id` is invalid_argument.",
    source: d(
      "6. Request fields the interface does not show",
      "None, or two at once: invalid_argument."
    ),
    check: "invalid-rejected",
    violation: "ignored-one-of"
  },
  {
    id: "fields.connector-name",
    must: "A CreateConnector `name` outside 3 to 63 characters of `0-9`, `a-z` and `-` is invalid_argument.",
    source: d(
      "6. Request fields the interface does not show",
      "`name` (3 to 63 characters, `^[0-9a-z-]+$`)"
    ),
    check: "invalid-rejected",
    violation: "ignored-connector-name-pattern"
  },
  {
    id: "wire.empty-body",
    must: "A zero-length body is invalid_argument.",
    source: d(
      "1. Wire rules (all operations)",
      "a zero-length body is rejected (`invalid_argument`)"
    ),
    check: "invalid-rejected",
    violation: "empty-body-accepted"
  },
  {
    id: "wire.json-object-body",
    must: "A body that is not a JSON object (malformed JSON, an array, a string) is invalid_argument.",
    source: d(
      "1. Wire rules (all operations)",
      "`POST`, `Content-Type: application/json`, body a JSON object."
    ),
    check: "invalid-rejected",
    violation: "non-object-body-accepted"
  },
  {
    id: "lists.unknown-cursor",
    must: "A cursor the server never gave is invalid_argument.",
    source: d("3. Lists", "An unknown cursor is invalid_argument."),
    check: "invalid-rejected",
    violation: "unknown-cursor-accepted"
  },
  {
    id: "filter.unknown-key",
    must: "A filter with an unknown `key` or `operator` is invalid_argument.",
    source: d("3. Lists", "An unknown key or operator is invalid_argument."),
    check: "invalid-rejected",
    violation: "unknown-filter-key-accepted"
  },
  {
    id: "filter.group-not-empty",
    must: "A filter group with no filters is invalid_argument.",
    source: d("3. Lists", "(at least one)"),
    check: "invalid-rejected",
    violation: "empty-group-accepted"
  },
  // auth
  {
    id: "auth.key-required",
    must: "A missing, empty or unknown `X-API-KEY` is unauthenticated (401) on every operation.",
    source: d("2. Errors", "| `X-API-KEY` missing, empty, or not a known key | unauthenticated |"),
    check: "auth",
    violation: "auth-ignored"
  },
  // protocol
  {
    id: "protocol.method",
    must: "Another HTTP method than POST is 405 with `Allow: POST`.",
    source: d("1. Wire rules (all operations)", "`405`, with an `Allow: POST` header."),
    check: "protocol",
    violation: "wrong-method-accepted"
  },
  {
    id: "protocol.unknown-route",
    must: "An unknown service or method is 404 with the Connect code unimplemented.",
    source: d("1. Wire rules (all operations)", "`404` with Connect code `unimplemented`."),
    check: "protocol",
    violation: "unknown-route-wrong-code"
  },
  {
    id: "protocol.content-type",
    must: "Another content type than `application/json` is 415.",
    source: d("1. Wire rules (all operations)", "| Wrong content type | `415`. |"),
    check: "protocol",
    violation: "content-type-ignored"
  },
  {
    id: "protocol.version-header",
    must: "CreatePermission without `Connect-Protocol-Version: 1` is invalid_argument.",
    source: d(
      "2. Errors",
      "| `Connect-Protocol-Version` missing or not `1` on CreatePermission | invalid_argument |"
    ),
    check: "protocol",
    violation: "version-header-ignored"
  },
  {
    id: "protocol.body-limit",
    must: "A body of up to 1 MiB is not refused for its size; a body refused for its size is resource_exhausted.",
    source: d(
      "10. Latitude: where a faithful server may choose",
      "be any size of at least 1 MiB; above it, resource_exhausted."
    ),
    check: "protocol",
    violation: "small-body-limit"
  },
  {
    id: "protocol.deadline",
    must: "A call whose `Connect-Timeout-Ms` deadline passes answers deadline_exceeded (or succeeds when it finished first).",
    source: d("2. Errors", "| The deadline from `Connect-Timeout-Ms` passed | deadline_exceeded |"),
    check: "protocol",
    violation: "deadline-wrong-code"
  },
  // create-echo
  {
    id: "echo.create",
    must: "A create returns the complete object, with the values it was sent.",
    source: i(
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    check: "create-echo",
    violation: "create-not-echoed"
  },
  {
    id: "echo.identity-group",
    must: "CreateNativeUserIdentityLink with `identityType: group` returns the linked group.",
    source: d(
      "6. Request fields the interface does not show",
      "The response of CreateNativeUserIdentityLink names the linked identity: `group` when `identityType` is `group`"
    ),
    check: "create-echo",
    violation: "identity-link-wrong-group"
  },
  {
    id: "echo.create-complete",
    must: "A create's response is the complete object: it carries the fields the server sets, `createdAt` where the object has one.",
    source: i(
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    check: "create-echo",
    violation: "create-without-created-at"
  },
  {
    id: "echo.create-zero-values",
    must: 'A create\'s response has the zero value (`false`, `""`, `0`) in each scalar field of the object that the request left out: a reader of a proto3 message, the server reading a request too, treats an absent field as its zero value (not judged: the request enums a server may default, section 10; ids naming other objects; the variants of a one-of; secrets).',
    source: d("1. Wire rules (all operations)", "Readers treat an absent field as its zero value."),
    check: "create-echo",
    violation: "create-default-not-zero"
  },
  {
    id: "echo.create-references",
    must: "A create returns the objects its sent ids name: a sent `<x>Id` that the object holds only as its nested `<x>` (the `nativeUser` of a native user identity link) comes back as that object, with that id; the nested `<x>` beside a sent `<x>Id` the object holds too (a connector's `space`) is the object with that id, or left out.",
    source: i(
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    check: "create-echo",
    violation: "identity-link-without-native-user"
  },
  {
    id: "echo.password-user",
    must: "CreateHumanUserPassword returns the password of the user its request names: `username` is that user's username, whichever of `email`, `username` or `id` named it.",
    source: d(
      "6. Request fields the interface does not show",
      "exactly one of `email`, `username`, `id` (the three variants)."
    ),
    check: "create-echo",
    violation: "password-for-another-user"
  },
  {
    id: "echo.create-stored",
    must: "What a create returns is what later reads show: the Lists of its kind hold it (found by its id, equal to what the create returned, zero values and secret fields aside), their `search` and `filter` by its name find it, and its Get returns it.",
    source: i(
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    check: "create-echo",
    violation: "create-stored-differently"
  },
  // update-semantics
  {
    id: "updates.apply",
    must: "An update changes the fields it sends, and a later read shows the change.",
    source: d("4. Updates", "Update requests change only the fields present in the request"),
    check: "update-semantics",
    violation: "update-ignored"
  },
  {
    id: "updates.false-applied",
    must: "A boolean sent as `false` in an update is present, not unset: the field becomes false.",
    source: d(
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    check: "update-semantics",
    violation: "update-false-ignored"
  },
  {
    id: "updates.partial",
    must: "An update leaves every field it does not send as it is.",
    source: d(
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    check: "update-semantics",
    violation: "update-clears-unsent"
  },
  {
    id: "updates.null-unchanged",
    must: "A field sent as `null` in an update stays as it is.",
    source: d("4. Updates", "absent or `null` leaves a field as it is."),
    check: "update-semantics",
    violation: "update-null-clears"
  },
  {
    id: "updates.references",
    must: "An update returns the objects its sent ids name: the nested `<x>` beside a sent `<x>Id` (UpdateSatellite's `space`) is the object with that id, or left out.",
    source: i(
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    check: "update-semantics",
    violation: "update-keeps-old-reference"
  },
  {
    id: "updates.stored",
    must: "What an update returns is what later reads show.",
    source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward."),
    check: "update-semantics",
    violation: "update-not-stored"
  },
  {
    id: "updates.updated-at",
    must: "An update moves `updatedAt` forward.",
    source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward."),
    check: "update-semantics",
    violation: "updated-at-not-moved"
  },
  {
    id: "updates.listed",
    must: "After an update, the Lists that hold the object show it as the update returned it (`updatedAt` included), and their `search`, `filter` and parent scope select it by its new values, not by its old ones.",
    source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward."),
    check: "update-semantics",
    violation: "update-stale-index"
  },
  // paging
  {
    id: "lists.count",
    must: "`listMetadata.count` is the number of items in the page.",
    source: d("3. Lists", "| `listMetadata.count` | Number of items in this page. |"),
    check: "paging",
    violation: "paging-count-mismatch"
  },
  {
    id: "lists.limit-respected",
    must: "A page holds at most `limit` items.",
    source: i("Endpoints", "| limit | integer (int32) | at most 500 |"),
    check: "paging",
    violation: "limit-exceeded"
  },
  {
    id: "lists.walk-once",
    must: "Walking every page once yields every item exactly once, and ends.",
    source: d("3. Lists", "walking every page once yields every item exactly once"),
    check: "paging",
    violation: "paging-duplicates"
  },
  {
    id: "lists.walk-complete",
    must: "Walking the pages misses no item.",
    source: d(
      "3. Lists",
      "Paging walks a stable snapshot order: walking every page once yields every item exactly once"
    ),
    check: "paging",
    violation: "paging-skips"
  },
  {
    id: "lists.next-cursor",
    must: "`nextCursor` is set when more items follow, and empty or absent on the last page (an empty page included); a full page may carry one that leads to an empty page ending the walk, since that page, not the full one, can be read as the last.",
    source: d("3. Lists", "Set when more items follow; empty or absent on the last page."),
    check: "paging",
    violation: "next-cursor-on-last-page"
  },
  {
    id: "lists.empty-page",
    must: "An empty page (a `search`, `filter` or parent that selects nothing, or the end of a walk) carries no `nextCursor`: no items follow it.",
    source: d("3. Lists", "Set when more items follow; empty or absent on the last page."),
    check: "paging",
    violation: "empty-page-next-cursor"
  },
  {
    id: "lists.after-before",
    must: "`after` / `before` are the ids of the last / first item of the page.",
    source: d(
      "3. Lists",
      "The id of the last / first item in this page (empty when the page is empty)."
    ),
    check: "paging",
    violation: "after-before-swapped"
  },
  {
    id: "lists.order",
    must: "Items that carry `createdAt` come by `createdAt`, ascending unless `order` is `desc`, and ties by `id` (ascending under `asc`; under `desc` either way, one way throughout; ids are opaque: they order only ties).",
    source: d("3. Lists", "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`."),
    check: "paging",
    violation: "order-ignored"
  },
  // search-filter
  {
    id: "search.match",
    must: "`search` returns the items whose `searchFields` contain the term, and only those.",
    source: d(
      "3. Lists",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    check: "search-filter",
    violation: "search-ignored"
  },
  {
    id: "search.case-insensitive",
    must: "`search` ignores case.",
    source: d("3. Lists", "Case-insensitive substring match"),
    check: "search-filter",
    violation: "search-case-sensitive"
  },
  {
    id: "search.fields",
    must: "`search` looks in the fields named in `searchFields`, `name` when none is named.",
    source: d("3. Lists", "against the fields named in `searchFields` (default: `name`)."),
    check: "search-filter",
    violation: "search-fields-ignored"
  },
  {
    id: "filter.match",
    must: "`filter` returns the items its conditions match, and only those.",
    source: d("3. Lists", "A filter is either one condition or a group, nestable to any depth"),
    check: "search-filter",
    violation: "filter-ignored"
  },
  {
    id: "filter.group-operator",
    must: "A group `and` needs every filter to match, `or` at least one.",
    source: d(
      "3. Lists",
      'group: `{"group": {"operator": "and" | "or", "filters": [<filter>, ...]}}`'
    ),
    check: "search-filter",
    violation: "filter-or-as-and"
  },
  {
    id: "filter.time-instants",
    must: "`lower_than` / `greater_than` on `created_at` / `updated_at` compare instants: an RFC 3339 value at another offset, or with more or fewer fractional digits, is the instant it names.",
    source: d(
      "3. Lists",
      "`lower_than` / `greater_than` compare strings, or timestamps for `created_at` / `updated_at`."
    ),
    check: "search-filter",
    violation: "time-filter-as-text"
  },
  {
    id: "lists.space-scope",
    must: "ListSatellites with `spaceId` returns only the satellites of that space.",
    source: d("3. Lists", "Optional: only satellites of that space."),
    check: "search-filter",
    violation: "space-filter-ignored"
  },
  {
    id: "lists.parent-scope",
    must: "ListNativeUsers returns only the native users of the resource its `resourceId` names.",
    source: d(
      "10. Latitude: where a faithful server may choose",
      "A parent id that names nothing in a read (`resourceId` of ListNativeUsers, `keyId` of GetEncryptionKeysByKeyId)"
    ),
    check: "search-filter",
    violation: "parent-scope-ignored"
  },
  {
    id: "keys.by-key-id",
    must: "GetEncryptionKeysByKeyId returns the keys whose provider-side `keyId` is the one sent.",
    source: d(
      "6. Request fields the interface does not show",
      "`keyId` (min 1): the key's provider-side id, not the object id."
    ),
    check: "search-filter",
    violation: "key-id-ignored"
  },
  {
    id: "keys.known-key-id",
    must: "GetEncryptionKeysByKeyId with the `keyId` of an existing key returns that key: it looks keys up by their provider-side `keyId`, not by their object id.",
    source: d(
      "6. Request fields the interface does not show",
      "`keyId` (min 1): the key's provider-side id, not the object id."
    ),
    check: "search-filter",
    violation: "key-id-as-object-id"
  },
  // stable-reads
  {
    id: "reads.named-object",
    must: "A Get returns the object its id names.",
    source: d(
      "2. Errors",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    check: "stable-reads",
    violation: "get-wrong-object"
  },
  {
    id: "reads.stable",
    must: "Reading an object changes nothing: two Gets with no update between return the same object.",
    source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward."),
    check: "stable-reads",
    violation: "unstable-read"
  }
] as const satisfies ReadonlyArray<Omit<Rule, "id"> & { readonly id: string }>

/**
 * A rule id (`lists.count`).
 *
 * @since 0.2.0
 * @category models
 */
export type RuleId = (typeof rules)[number]["id"]

/**
 * Finds a rule by id.
 *
 * @since 0.2.0
 * @category rules
 */
export const byId: ReadonlyMap<RuleId, Rule> = new Map(rules.map((r) => [r.id, r as Rule]))

/**
 * The rule of an id (every `RuleId` has one).
 *
 * @since 0.2.0
 * @category rules
 */
export const get = (id: RuleId): Rule => byId.get(id)!

/**
 * Whether a string is a rule id.
 *
 * @since 0.2.0
 * @category guards
 */
export const isRuleId = (s: string): s is RuleId => byId.has(s as RuleId)

/**
 * The annotation that carries, on the schema constraint that states a must, the id of that rule
 * (`fields.min-length` on a min length of 1): the contract tests cite it for an input that breaks
 * the constraint. A constraint without it states no must of its own (a format's pattern).
 *
 * @since 0.5.0
 * @category annotations
 */
export const RuleAnnotationId: unique symbol = Symbol.for("@data-access/schema/ContractRules/Rule")

/**
 * The annotation that carries, on a field's schema, the rule that its absence breaks when it is
 * required and that rule is not `fields.required` (an absent `limit` breaks `lists.limit-range`).
 *
 * @since 0.5.0
 * @category annotations
 */
export const MissingRuleAnnotationId: unique symbol = Symbol.for(
  "@data-access/schema/ContractRules/MissingRule"
)

/**
 * The annotations that mark a constraint as stating `rule`; `missing` also marks the rule that the
 * field's absence breaks.
 *
 * @example
 * ```ts
 * import * as Schema from "effect/Schema"
 * import { ContractRules } from "@data-access/schema"
 *
 * const Name = Schema.String.pipe(Schema.minLength(1)).annotations(ContractRules.states("fields.min-length"))
 * ```
 *
 * @since 0.5.0
 * @category annotations
 */
export const states = (
  rule: RuleId,
  missing?: RuleId
): { readonly [RuleAnnotationId]: RuleId; readonly [MissingRuleAnnotationId]?: RuleId } =>
  missing === undefined
    ? { [RuleAnnotationId]: rule }
    : { [RuleAnnotationId]: rule, [MissingRuleAnnotationId]: missing }

const annotation = (
  annotations: Readonly<Record<symbol, unknown>>,
  key: symbol
): RuleId | undefined => {
  const v = annotations[key]
  return typeof v === "string" && isRuleId(v) ? v : undefined
}

/**
 * The rule a schema node's constraint states (`RuleAnnotationId`), if it carries one.
 *
 * @since 0.5.0
 * @category annotations
 */
export const statedBy = (ast: {
  readonly annotations: Readonly<Record<symbol, unknown>>
}): RuleId | undefined => annotation(ast.annotations, RuleAnnotationId)

/**
 * The rule that the absence of a required field of this schema breaks: its `MissingRuleAnnotationId`,
 * else `fields.required`.
 *
 * @since 0.5.0
 * @category annotations
 */
export const missingRuleOf = (ast: {
  readonly annotations: Readonly<Record<symbol, unknown>>
}): RuleId => annotation(ast.annotations, MissingRuleAnnotationId) ?? "fields.required"

/**
 * One choice a faithful server may make where the documents are silent (a row of decisions.md
 * section 10), and the reference server's switch that makes the other choice.
 *
 * @since 0.2.0
 * @category models
 */
export interface Latitude {
  readonly name: string
  readonly topic: string
  /** What the reference server does by default. */
  readonly byDefault: string
  /** What it does with the switch on. */
  readonly switched: string
  /** For a choice that is not a row of section 10: where the documents leave it open. */
  readonly elsewhere?: string
}

const row = <const N extends string>(
  name: N,
  topic: string,
  byDefault: string,
  switched: string,
  elsewhere?: string
): Latitude & { readonly name: N } => ({
  name,
  topic,
  byDefault,
  switched,
  ...(elsewhere === undefined ? {} : { elsewhere })
})

/**
 * The rows of decisions.md section 10, each with the reference server's two faithful choices, and
 * the choices the documents leave open elsewhere (`page-size`).
 *
 * @since 0.2.0
 * @category latitude
 */
export const latitude = [
  row(
    "strict-formats",
    'Formats that are "not shown"',
    "accepts any string of the required length",
    "validates `workerSchedule` (six-field cron), `schedule` (6h/12h/18h/24h or five-field cron), `key`, `code`, `workerCode`, `apiUrl`, `decryptorUri` and emails"
  ),
  row(
    "string-limits",
    "Length and character limits of names and other strings",
    "accepts any length and any character",
    "rejects strings over 255 characters or with control characters (invalid_argument)"
  ),
  row(
    "unique-names",
    "Uniqueness of names",
    "accepts duplicate names",
    "rejects a create whose name is taken with already_exists"
  ),
  row(
    "require-enums",
    "Request enums with no empty value when absent",
    "applies the default (`status`: `draft`, others the first listed value)",
    "rejects the request (invalid_argument)"
  ),
  row(
    "identity-any-kind",
    "`identityId` with `identityType: resource_hostname`",
    "names a connector hostname",
    "names an object of any kind"
  ),
  row(
    "strict-time-filter",
    "Filter on `created_at` / `updated_at`",
    "compares a value that is not a timestamp as text",
    "rejects a value that is not an RFC 3339 timestamp (invalid_argument)"
  ),
  row(
    "strict-filter-types",
    "String operators on non-string keys; `lower_than` / `greater_than` on booleans",
    "applies them to the value's JSON text",
    "rejects them (invalid_argument)"
  ),
  row(
    "filter-case-insensitive",
    "Case of the string filter operators",
    "compares case-sensitively",
    "compares case-insensitively"
  ),
  row(
    "reject-empty-filter",
    "An empty filter",
    "matches every item",
    "rejects it (invalid_argument)"
  ),
  row(
    "parent-not-found",
    "A parent id that names nothing in a read",
    "answers an empty page / empty array",
    "answers not_found"
  ),
  row(
    "return-secrets",
    "Secret fields in responses",
    "leaves them out",
    "returns the stored value"
  ),
  row(
    "space-empty-ignored",
    '`spaceId: ""` on UpdateSatellite',
    "takes the satellite out of its space",
    "treats it as not set"
  ),
  row(
    "cursor-bound",
    "A cursor used with another `filter`, `search`, `spaceId` or `order`",
    "continues the walk",
    "rejects it (invalid_argument)"
  ),
  row(
    "body-before-auth",
    "A request that breaks several rules",
    "checks the key before the body",
    "checks the body before the key, and reports the last broken field rule"
  ),
  row("empty-protocol-bodies", "Body of the 405 and 415 answers", "a Connect error body", "empty"),
  row("body-limit-1mib", "Body size limit", "4 MiB", "1 MiB"),
  row(
    "lenient-deadline",
    "A deadline so short that the call finishes first",
    "answers deadline_exceeded once the deadline passes, even if the work is done",
    "answers normally when the work finished, checking the deadline only before it starts"
  ),
  row(
    "rate-limit-headers",
    "`X-Request-Id`, `X-Ratelimit-*` headers; rate limits",
    "sends `X-Request-Id`, no rate-limit headers",
    "sends `X-Ratelimit-Limit` / `-Remaining` / `-Reset`, no `X-Request-Id`"
  ),
  row(
    "empty-page-meta",
    "Empty page `listMetadata.after` / `before`",
    "leaves them out",
    'writes `""`'
  ),
  row(
    "page-size",
    "A page's size below `limit` while more items follow",
    "serves `limit` items a page while more follow",
    "serves at most 100 items a page, whatever `limit` asks",
    "decisions.md section 3 says that `listMetadata.count` is the number of items in the page and that `nextCursor` is set while more items follow, not that a page holds `limit` items"
  ),
  row(
    "connect-get",
    "`binary` Connect codec, Connect GET, compression",
    "answers 415 / 405",
    "serves Connect GET (`?encoding=json&message=...`) and compressed request bodies (gzip, deflate, br); compresses answers of 1 KiB or more for a client that offers an encoding"
  )
] as const satisfies ReadonlyArray<Latitude>

/**
 * A latitude switch name (`unique-names`).
 *
 * @since 0.2.0
 * @category models
 */
export type LatitudeName = (typeof latitude)[number]["name"]

/**
 * The latitude switch names.
 *
 * @since 0.2.0
 * @category latitude
 */
export const latitudeNames: ReadonlyArray<LatitudeName> = latitude.map((l) => l.name)

/**
 * An observation that is not a must: reported, never a failure.
 *
 * @since 0.2.0
 * @category models
 */
export interface NoteKind {
  readonly id: NoteId
  readonly meaning: string
  readonly source: Source
}

/**
 * The kinds of notes a run may report.
 *
 * @since 0.2.0
 * @category notes
 */
export const notes = [
  {
    id: "secret-returned",
    meaning: "a response returns the value of a secret field (clients redact it either way)",
    source: d(
      "10. Latitude: where a faithful server may choose",
      "return the stored value, or leave it out. Clients redact it either way."
    )
  },
  {
    id: "format-not-validated",
    meaning: "a value outside the formats seen in use (section 7) was accepted",
    source: d(
      "10. Latitude: where a faithful server may choose",
      "Section 7 lists the values seen in use, not a grammar a server must enforce."
    )
  }
] as const satisfies ReadonlyArray<{
  readonly id: string
  readonly meaning: string
  readonly source: Source
}>

/**
 * A note kind id.
 *
 * @since 0.2.0
 * @category models
 */
export type NoteId = (typeof notes)[number]["id"]

/**
 * The request fields whose format decisions.md section 10 lets a server validate or not (the
 * "not shown" formats of its first row): a request with one of them may be refused by a faithful
 * server whatever the value, so no single answer to it decides `fields.valid-accepted`.
 *
 * @since 0.3.0
 * @category latitude
 */
export const formatFields: ReadonlySet<string> = new Set([
  "workerSchedule",
  "schedule",
  "key",
  "code",
  "workerCode",
  "apiUrl",
  "decryptorUri",
  "email"
])

/**
 * The rules that no single exchange decides, each with what else it needs. Every other rule is
 * decided by one request and its answer, so a judge of observed traffic (the conformance proxy)
 * applies it; a test holds the two lists together.
 *
 * @since 0.3.0
 * @category rules
 */
export const severalExchanges: Readonly<Partial<Record<RuleId, string>>> = {
  "errors.unknown-id": "knowing that the id names nothing (a read of what exists)",
  "errors.unknown-reference": "knowing that the referenced id names nothing",
  "lists.unknown-cursor": "knowing that the server never gave the cursor",
  "wire.json-spellings": "the answer to the same request in its plainest spelling",
  "wire.zero-is-unset": "the answer to the same request with the field left out",
  "protocol.deadline":
    "the time the work takes without a deadline, to tell a late answer from a slow one",
  "updates.partial": "the object before the update",
  "updates.null-unchanged": "the object before the update",
  "updates.stored": "a later read",
  "updates.updated-at": "the object's `updatedAt` before the update",
  "updates.apply": "a later read showing the change",
  "updates.false-applied": "a later read showing the change, as for `updates.apply`",
  "updates.listed":
    "Lists read after the update, searched, filtered and scoped by its old and new values",
  "echo.create-stored": "Lists and the Get read after the create",
  "echo.password-user": "knowing the user the request names (the fixtures' users)",
  "keys.known-key-id":
    "knowing that a key with that `keyId` exists (the fixtures' encryptionKeyIds)",
  "lists.walk-once": "every page of the walk",
  "lists.walk-complete": "every page of the walk and every item",
  "lists.next-cursor": "the next page",
  "lists.empty-page": "the next page, to see that no items follow",
  "search.case-insensitive": "every item, to see one left out",
  "search.fields": "every item, to see one left out",
  "filter.group-operator": "every item, to see one left out",
  "reads.stable": "a second read"
}
