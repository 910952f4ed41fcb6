/**
 * The dimensions along which the runner derives a field's inputs (a bound, an explicit zero value,
 * a one-of...), each input tagged with its field and side, and the run's tally of the dimensions
 * sent per operation and field: the coverage of inputs beside the coverage of rules.
 */
import { type Operations, SchemaWalk } from "@data-access/schema"
import { snakeToCamel } from "./json.js"
import { nestedObjects } from "./requestShape.js"
import type * as Report from "./report/model.js"
import { SAFE_STRING_LENGTH } from "./textLength.js"

/**
 * One dimension of a field's inputs.
 *
 * - `value`: a valid value as the schema draws it;
 * - `absent`: the field left out;
 * - `zero-value`: sent explicitly as `""`, `0`, `false`, `[]`, `{}` or `null`;
 * - `bound`: at or beyond a length or range bound, in ASCII (the same under every count);
 * - `bound-bytes`: beyond a length bound only in UTF-8 bytes (characters of several bytes);
 * - `multi-byte`: a string with characters beyond ASCII;
 * - `json-type`: a value of another JSON type (a fraction for an integer);
 * - `required`: a required field left out;
 * - `pattern`, `enum`: a string the field's pattern or allowed values refuse;
 * - `one-of`: a rule across fields at any depth (two members of a one-of at once, one removed);
 * - `spelling`: the same value under another spelling of its key (snake_case);
 * - `precision`: a value that differs from another only in precision (a time with 0 to 9
 *   fractional digits, or at the whole second or tenth next to another's);
 * - `offset`: a time written at an offset from UTC (`+00:00`, `-05:30`) rather than in `Z`;
 * - `case`: a text that differs from a stored one only in the case of its letters, letters beyond
 *   ASCII among them (a search term `éTÉ` for a name `Été`);
 * - `escapes`, `whitespace`: the same JSON text with `\u` escapes, with whitespace between its tokens;
 * - `media-type`: the same body under another spelling of its media type (a `charset` parameter);
 * - `spaces`: a text with spaces at its start or end (a value stored as sent, a search term or a
 *   filter value compared with its spaces, a key one space away from an existing one: it names
 *   nothing);
 * - `deadline`: the call under the longest `Connect-Timeout-Ms` a 32-bit timer holds (ten digits).
 */
export type Dimension =
  | "value"
  | "absent"
  | "zero-value"
  | "bound"
  | "bound-bytes"
  | "multi-byte"
  | "json-type"
  | "required"
  | "pattern"
  | "enum"
  | "one-of"
  | "spelling"
  | "precision"
  | "offset"
  | "case"
  | "escapes"
  | "whitespace"
  | "media-type"
  | "spaces"
  | "deadline"

/** Which side of the contract an input is on: a request a server must accept, or one it must refuse. */
export type Side = "valid" | "refused"

/** What one input exercises: a field (a path such as `filter.group`, `(body)` for the whole body), a side, a dimension. */
export interface Tag {
  readonly field: string
  readonly side: Side
  readonly dimension: Dimension
}

/** The dimensions sent, per operation, field and side (mutable: counted as each input is sent). */
export type Tally = Map<string, Map<string, { valid: Set<Dimension>; refused: Set<Dimension> }>>

/** An empty tally. */
export const tally = (): Tally => new Map()

/** Counts the tags of one input sent to an operation. */
export const sent = (t: Tally, operation: string, tags: ReadonlyArray<Tag>): void => {
  if (tags.length === 0) return
  let fields = t.get(operation)
  if (fields === undefined) t.set(operation, (fields = new Map()))
  for (const tag of tags) {
    let sides = fields.get(tag.field)
    if (sides === undefined)
      fields.set(tag.field, (sides = { valid: new Set(), refused: new Set() }))
    sides[tag.side].add(tag.dimension)
  }
}

const ORDER: ReadonlyArray<Dimension> = [
  "value",
  "absent",
  "zero-value",
  "bound",
  "bound-bytes",
  "multi-byte",
  "json-type",
  "required",
  "pattern",
  "enum",
  "one-of",
  "spelling",
  "precision",
  "offset",
  "case",
  "escapes",
  "whitespace",
  "media-type",
  "spaces",
  "deadline"
]

const ordered = (ds: Iterable<Dimension>): Array<Dimension> => {
  const set = new Set(ds)
  return ORDER.filter((d) => set.has(d))
}

/** The report's field coverage of a tally: by operation, then field. */
export const coverageOf = (t: Tally): Array<Report.FieldCoverage> =>
  [...t.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([operation, fields]) =>
      [...fields.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([field, sides]) => ({
          operation,
          field,
          valid: ordered(sides.valid),
          refused: ordered(sides.refused)
        }))
    )

/** The field coverage of several reports (shards, workers) as one: each field's dimensions joined. */
export const join = (
  parts: ReadonlyArray<ReadonlyArray<Report.FieldCoverage>>
): Array<Report.FieldCoverage> => {
  const t = tally()
  for (const part of parts)
    for (const c of part)
      sent(t, c.operation, [
        ...valid(c.field, ...(c.valid as ReadonlyArray<Dimension>)),
        ...refused(c.field, ...(c.refused as ReadonlyArray<Dimension>))
      ])
  return coverageOf(t)
}

/** One side's tags of one field. */
const tagsOf =
  (side: Side) =>
  (field: string, ...dimensions: ReadonlyArray<Dimension>): Array<Tag> =>
    dimensions.map((dimension) => ({ field, side, dimension }))

/** The valid side's tags of one field. */
export const valid = tagsOf("valid")

/** The refused side's tags of one field. */
export const refused = tagsOf("refused")

/** A field path as text, an array's items under `[]` (every item is the same field). */
export const fieldOf = (path: ReadonlyArray<string | number>): string =>
  path.length === 0
    ? "(body)"
    : path
        .map((p) => (typeof p === "number" ? "[]" : p))
        .join(".")
        .replace(/\.\[\]/g, "[]")

/** Whether a value is a zero value of its JSON type: `""`, `0`, `false`, `[]`, `{}` or `null`. */
export const isZero = (v: unknown): boolean =>
  v === null ||
  v === "" ||
  v === 0 ||
  v === false ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && v !== null && Object.keys(v).length === 0)

/** A character beyond ASCII (a UTF-16 unit above U+007F is one exactly when a code point is). */
// eslint-disable-next-line no-control-regex
const BEYOND_ASCII = /[^\u0000-\u007f]/

/**
 * The valid-side tags of a request body: each top-level field sent (as a value, an explicit zero,
 * at a length bound, with characters beyond ASCII, with spaces at an end, under its snake_case
 * spelling) or left out, and
 * each field of its nested objects sent (as a value or an explicit zero: `null`) or left out.
 */
export const validTags = (
  op: Operations.Operation,
  body: Readonly<Record<string, unknown>>
): Array<Tag> => {
  const fields = SchemaWalk.requestFields(op)
  const out: Array<Tag> = []
  const seen = new Set<string>()
  const tag = (field: string, dimension: Dimension) => out.push({ field, side: "valid", dimension })
  for (const [key, v] of Object.entries(body)) {
    const name = snakeToCamel(key)
    const field = fields.get(name)
    if (field === undefined) continue
    seen.add(name)
    if (name !== key) tag(name, "spelling")
    if (isZero(v)) tag(name, "zero-value")
    else tag(name, "value")
    if (typeof v === "string") {
      const shape = SchemaWalk.nonNullish(field.shape)
      if (shape._tag === "String" && shape.minLength > 0 && [...v].length === shape.minLength)
        tag(name, "bound")
      if (v.length >= SAFE_STRING_LENGTH) tag(name, "bound")
      if (BEYOND_ASCII.test(v)) tag(name, "multi-byte")
      if (v.startsWith(" ") || v.endsWith(" ")) tag(name, "spaces")
    }
  }
  for (const name of fields.keys()) if (!seen.has(name)) tag(name, "absent")
  // The fields of nested objects (a vendor object, a filter's conditions), by their path.
  for (const { path, shape, value } of nestedObjects(op, body)) {
    const at = (name: string) =>
      fieldOf([...path.map((p) => (typeof p === "string" ? snakeToCamel(p) : p)), name])
    const named = new Set<string>()
    for (const [key, v] of Object.entries(value)) {
      const name = snakeToCamel(key)
      if (!shape.fields.has(name)) continue
      named.add(name)
      if (name !== key) tag(at(name), "spelling")
      tag(at(name), isZero(v) ? "zero-value" : "value")
    }
    for (const name of shape.fields.keys()) if (!named.has(name)) tag(at(name), "absent")
  }
  return out
}

/** One side's dimensions with the number of fields each ran on (`bound 12, zero-value 5`), in dimension order. */
const sideSummary = (fields: ReadonlyArray<Report.FieldCoverage>, side: Side): string => {
  const counts = new Map<string, number>()
  for (const f of fields) for (const d of f[side]) counts.set(d, (counts.get(d) ?? 0) + 1)
  const text = ordered(counts.keys() as Iterable<Dimension>)
    .map((d) => `${d} ${counts.get(d)}`)
    .join(", ")
  return text === "" ? "none" : text
}

/** The report's one line on its field coverage: how many fields, and per side the fields each dimension ran on. */
export const summary = (fields: ReadonlyArray<Report.FieldCoverage>): string =>
  `${fields.length} fields of ${new Set(fields.map((f) => f.operation)).size} operations; fields per dimension sent valid: ${sideSummary(fields, "valid")}; refused: ${sideSummary(fields, "refused")}`
