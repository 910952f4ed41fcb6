/**
 * Writes a success body as JSON bytes, without the values of secret fields unless the
 * return-secrets switch keeps them, and with zero values left out unless `emitDefaults`.
 *
 * @internal
 */
import { ProtoJson, Secrets } from "@data-access/schema"
import type { Json } from "./collections.js"
import type { Op } from "./pipeline-types.js"

/**
 * A stored object without the values of its secret fields, at any depth (decisions.md section
 * 10: a server may leave them out; the return-secrets latitude switch keeps them).
 */
export const withoutSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== "object") return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value))
    if (!Secrets.fieldNames.has(k)) out[k] = withoutSecrets(v)
  return out
}

/**
 * Writes a success body as JSON bytes. Stored objects never change in place (an update replaces
 * them), so the bytes of each are computed once and reused by every response that carries it.
 */
export const makeWriter = (emitDefaults: boolean, keepSecrets: boolean) => {
  const cache = new WeakMap<object, Buffer>()
  const shape = (value: unknown) => (emitDefaults ? value : ProtoJson.omitZeroValues(value))
  const shapeObject = keepSecrets ? shape : (o: object) => shape(withoutSecrets(o))
  const objectBytes = (o: object): Buffer => {
    let bytes = cache.get(o)
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(shapeObject(o)))
      cache.set(o, bytes)
    }
    return bytes
  }
  const COMMA = Buffer.from(",")
  return (op: Op, body: Json): Uint8Array => {
    if (op.wrapperKey === undefined && op.itemField === undefined)
      return Buffer.from(JSON.stringify(shape(body)))
    const parts: Array<Buffer> = []
    let prefix = "{"
    for (const [key, value] of Object.entries(body)) {
      if (Array.isArray(value)) {
        if (value.length === 0 && !emitDefaults) continue
        parts.push(Buffer.from(`${prefix}${JSON.stringify(key)}:[`))
        value.forEach((v, i) => {
          if (i > 0) parts.push(COMMA)
          parts.push(objectBytes(v as object))
        })
        prefix = "],"
      } else if (key === "listMetadata") {
        parts.push(Buffer.from(`${prefix}"listMetadata":${JSON.stringify(shape(value))}`))
        prefix = ","
      } else if (value !== null && typeof value === "object") {
        parts.push(Buffer.from(`${prefix}${JSON.stringify(key)}:`), objectBytes(value))
        prefix = ","
      }
    }
    parts.push(Buffer.from(prefix === "{" ? "{}" : prefix === "]," ? "]}" : "}"))
    return Buffer.concat(parts)
  }
}
