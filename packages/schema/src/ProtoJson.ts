/**
 * proto3 JSON conventions around the schemas: snake_case field names accepted on input, zero
 * values left out on output, and a nesting limit for untrusted input.
 *
 * @since 0.1.0
 */

/**
 * Deepest nesting of objects and arrays accepted in a request body.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_DEPTH = 64

const snakeToCamel = (key: string): string =>
  key.includes("_") ? key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key

/**
 * Renames snake_case keys to lowerCamelCase at every level (`resource_id` to `resourceId`),
 * keeping a lowerCamelCase key when both forms are present. Returns `undefined` when the value is
 * nested deeper than `MAX_DEPTH`. Keys such as `__proto__` stay plain data properties.
 *
 * @since 0.1.0
 * @category input
 */
export const normalizeKeys = (value: unknown, depth = 0): unknown => {
  if (depth > MAX_DEPTH) return undefined
  if (Array.isArray(value)) {
    const out: Array<unknown> = []
    for (const v of value) {
      const n = normalizeKeys(v, depth + 1)
      if (n === undefined && v !== undefined) return undefined
      out.push(n)
    }
    return out
  }
  if (value !== null && typeof value === "object") {
    const entries: Array<[string, unknown]> = []
    const seen = new Set<string>()
    const source = value as Record<string, unknown>
    for (const key of Object.keys(source)) {
      const camel = snakeToCamel(key)
      if (camel !== key && Object.prototype.hasOwnProperty.call(source, camel)) continue
      if (seen.has(camel)) continue
      seen.add(camel)
      const v = source[key]
      const n = normalizeKeys(v, depth + 1)
      if (n === undefined && v !== undefined) return undefined
      entries.push([camel, n])
    }
    return Object.fromEntries(entries)
  }
  return value
}

/**
 * Fields with explicit presence (`string or null` in the interface): `""` is a set value there,
 * distinct from absent (`null`), so `omitZeroValues` keeps it. Only DataDiscoveryConfiguration
 * `path` is one.
 *
 * @since 0.1.0
 * @category output
 */
export const presenceFields: ReadonlySet<string> = new Set(["path"])

/**
 * Removes the fields whose value is a zero value (`false`, `""`, `0`, `[]`, `null`) at every
 * level, as a proto3 JSON writer does. Objects inside arrays keep their place. A `""` in one of
 * the `presenceFields` is kept: it is set, not absent.
 *
 * @since 0.1.0
 * @category output
 */
export const omitZeroValues = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(omitZeroValues)
  if (value !== null && typeof value === "object") {
    const entries: Array<[string, unknown]> = []
    for (const [k, v] of Object.entries(value)) {
      if (v === "" && presenceFields.has(k)) {
        entries.push([k, v])
        continue
      }
      if (v === false || v === "" || v === 0 || v === null || v === undefined) continue
      if (Array.isArray(v) && v.length === 0) continue
      entries.push([k, omitZeroValues(v)])
    }
    return Object.fromEntries(entries)
  }
  return value
}

/**
 * The lowerCamelCase to snake_case rename (`resourceId` to `resource_id`), for filter keys
 * and tests that send snake_case.
 *
 * @since 0.1.0
 * @category input
 */
export const camelToSnake = (key: string): string =>
  key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
