/**
 * What the documents leave open (decisions.md section 10): the latitude rows, the note kinds and
 * the format fields; re-exported by `ContractRules`.
 */
import { d, type Source } from "./ruleText.js"

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
