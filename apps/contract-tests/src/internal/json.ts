/** JSON helpers: canonical text, zero-value equality, first difference, arrays as sets. */
import { ProtoJson } from "@data-access/schema"

export const isZero = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === "" ||
  v === false ||
  v === 0 ||
  (Array.isArray(v) && v.length === 0)

/** JSON text with sorted keys: equal values give equal text. */
export const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`
  }
  return JSON.stringify(v) ?? "null"
}

/**
 * The first path where two JSON values differ, or `undefined` when they are equal; `alike` may
 * call two different leaves under a key the same value (two spellings of one instant).
 */
export const firstDifference = (
  a: unknown,
  b: unknown,
  path = "",
  alike?: (a: unknown, b: unknown, key: string) => boolean,
  key = ""
): string | undefined => {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || "(body)"} (length ${a.length} vs ${b.length})`
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`, alike, key)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (
    a !== null &&
    b !== null &&
    typeof a === "object" &&
    typeof b === "object" &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    for (const k of [...keys].sort()) {
      const d = firstDifference((a as any)[k], (b as any)[k], path ? `${path}.${k}` : k, alike, k)
      if (d !== undefined) return d
    }
    return undefined
  }
  return canonical(a) === canonical(b) || (alike?.(a, b, key) ?? false)
    ? undefined
    : path || "(body)"
}

/**
 * Whether a value read back equals what was sent, under proto3 JSON rules: a zero value sent
 * reads back as absent or zero; objects compare on the keys that were sent.
 */
export const sameAsSent = (
  sent: unknown,
  got: unknown,
  skip: (key: string) => boolean = () => false
): boolean => {
  if (isZero(sent)) return isZero(got)
  if (Array.isArray(sent))
    return (
      Array.isArray(got) &&
      sent.length === got.length &&
      sent.every((s, i) => sameAsSent(s, got[i], skip))
    )
  if (sent !== null && typeof sent === "object") {
    if (got === null || typeof got !== "object") return false
    return Object.entries(sent).every(
      ([k, s]) => skip(k) || sameAsSent(s, (got as Record<string, unknown>)[k], skip)
    )
  }
  return sent === got
}

/**
 * The value with every array sorted (by `orderOf` each element's text): arrays whose order no rule
 * fixes (the keys of GetEncryptionKeysByKeyId) compare as sets.
 */
export const sorted = (v: unknown, orderOf: (x: unknown) => string = canonical): unknown =>
  Array.isArray(v)
    ? [...v.map((x) => sorted(x, orderOf))].sort((a, b) => (orderOf(a) < orderOf(b) ? -1 : 1))
    : asRecord(v)
      ? Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, sorted(x, orderOf)]))
      : v

/** `space_id` → `spaceId`. */
export const snakeToCamel = ProtoJson.snakeToCamel

/** The value as a JSON object, or `undefined`. */
export const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined
