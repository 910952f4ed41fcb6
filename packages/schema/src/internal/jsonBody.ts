import * as ProtoJson from "./protoJson.js"
import type { Invalid, Parsed, ParseOptions } from "../JsonBody.js"

export const GUARANTEED_MAX_BYTES = 1024 * 1024

const utf8 = new TextDecoder("utf-8", { fatal: true })

export const parse = (bytes: Uint8Array, options?: ParseOptions): Parsed => {
  if (options?.maxBytes !== undefined && bytes.length > options.maxBytes)
    return { _tag: "TooLarge", maxBytes: options.maxBytes }
  if (bytes.length === 0) return { _tag: "Empty" }
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return { _tag: "NotUtf8" }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { _tag: "NotJson" }
  }
  if (value === null) return { _tag: "NotObject", found: "null" }
  if (Array.isArray(value)) return { _tag: "NotObject", found: "array" }
  if (typeof value !== "object")
    return { _tag: "NotObject", found: typeof value as "string" | "number" | "boolean" }
  const normalized = ProtoJson.normalizeKeys(value)
  if (normalized === undefined) return { _tag: "TooDeep", maxDepth: ProtoJson.MAX_DEPTH }
  return {
    _tag: "Object",
    value: normalized as Record<string, unknown>,
    raw: value as Record<string, unknown>
  }
}

export const describe = (invalid: Invalid): string => {
  switch (invalid._tag) {
    case "TooLarge":
      return `the request body is larger than ${invalid.maxBytes} bytes`
    case "Empty":
      return "the request body is empty; send {} for an operation without fields"
    case "NotUtf8":
      return "the request body is not valid UTF-8"
    case "NotJson":
      return "the request body is not valid JSON"
    case "NotObject":
      return "the request body must be a JSON object"
    case "TooDeep":
      return `the request body is nested deeper than ${invalid.maxDepth} levels`
  }
}
