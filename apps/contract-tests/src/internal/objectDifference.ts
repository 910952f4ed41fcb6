/**
 * Two reads of one object compared under what a faithful server may do: zero values and absent
 * fields alike, secret fields left out, timestamps as instants, nested objects with an id by their
 * id. The stable-reads, create-echo and update-semantics verdicts all compare objects so.
 */
import { Secrets, Timestamp } from "@data-access/schema"
import { asRecord, canonical, firstDifference, isZero, sorted } from "./json.js"
import { timestampFields } from "./answerReading.js"

const fractionDigits = (s: string) => /\.(\d+)/.exec(s)?.[1]?.length ?? 0

/** Two timestamps name the same instant, at the coarser precision of the two texts. */
const sameInstant = (a: string, b: string): boolean => {
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b)
  if (typeof ta === "string" || typeof tb === "string") return a === b
  const unit = 10n ** BigInt(9 - Math.min(fractionDigits(a), fractionDigits(b), 9))
  return Timestamp.toEpochNanos(ta) / unit === Timestamp.toEpochNanos(tb) / unit
}

/**
 * The first path where two reads of one object differ, under what a faithful server may do:
 * zero values and absent fields are the same, secret fields (decisions.md section 8) may be left
 * out, timestamps compare as instants, and a nested object with an id (a copy of another object,
 * which may change on its own) compares by its id, when both reads carry it.
 */
export const storedDifference = (
  a: unknown,
  b: unknown,
  path = "",
  key = ""
): string | undefined => {
  if (Secrets.fieldNames.has(key) || (isZero(a) && isZero(b))) return undefined
  const ra = asRecord(a) ?? (a === undefined && asRecord(b) !== undefined ? {} : undefined)
  const rb = asRecord(b) ?? (b === undefined && ra !== undefined ? {} : undefined)
  if (ra !== undefined && rb !== undefined) {
    if (path !== "" && ("id" in ra || "id" in rb))
      return !("id" in ra) || !("id" in rb) || ra.id === rb.id ? undefined : `${path}.id`
    for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
      const d = storedDifference(ra[k], rb[k], path === "" ? k : `${path}.${k}`, k)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path
    for (let i = 0; i < a.length; i++) {
      const d = storedDifference(a[i], b[i], `${path}[${i}]`, key)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (typeof a === "string" && typeof b === "string" && timestampFields.has(key))
    return sameInstant(a, b) ? undefined : path
  return canonical(a) === canonical(b) ? undefined : path || "(object)"
}

/**
 * The first path where two answers differ as JSON, but for timestamps, which compare as instants:
 * a writer may spell one instant with 0, 3, 6 or 9 fractional digits (decisions.md section 1), and
 * not always with the same count.
 */
export const jsonDifference = (a: unknown, b: unknown): string | undefined =>
  firstDifference(
    a,
    b,
    "",
    (x, y, key) =>
      typeof x === "string" &&
      typeof y === "string" &&
      timestampFields.has(key) &&
      sameInstant(x, y)
  )

/** The value with each timestamp as its whole second since the epoch: what no spelling of an instant changes. */
const bySecond = (v: unknown, key = ""): unknown => {
  if (Array.isArray(v)) return v.map((x) => bySecond(x, key))
  const record = asRecord(v)
  if (record !== undefined)
    return Object.fromEntries(Object.entries(record).map(([k, x]) => [k, bySecond(x, k)]))
  if (typeof v !== "string" || !timestampFields.has(key)) return v
  const t = Timestamp.parse(v)
  return typeof t === "string" ? v : (Timestamp.toEpochNanos(t) / 1_000_000_000n).toString()
}

/** An answer with its arrays sorted as `sorted` sorts them, in an order no spelling of an instant changes. */
export const sortedAnswer = (v: unknown): unknown => sorted(v, (x) => canonical(bySecond(x)))

/** The value at a dotted path of `storedDifference`. */
export const at = (o: Record<string, unknown>, path: string): unknown =>
  path
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== "")
    .reduce<unknown>((v, k) => (Array.isArray(v) ? v[Number(k)] : asRecord(v)?.[k]), o)
