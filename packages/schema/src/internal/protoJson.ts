export const MAX_DEPTH = 64

/** Keys in camelCase by their snake_case spelling, emptied when full: bodies repeat a few keys. */
const camelKeys = new Map<string, string>()
const MAX_CAMEL_KEYS = 4096

export const snakeToCamel = (key: string): string => {
  if (!key.includes("_")) return key
  let camel = camelKeys.get(key)
  if (camel === undefined) {
    camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
    if (camelKeys.size >= MAX_CAMEL_KEYS) camelKeys.clear()
    camelKeys.set(key, camel)
  }
  return camel
}

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

export const presenceFields: ReadonlySet<string> = new Set(["path"])

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

export const camelToSnake = (key: string): string =>
  key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
