/**
 * A Connect JSON request body read into an object: within a size limit, UTF-8, JSON, a JSON
 * object, not nested deeper than `ProtoJson.MAX_DEPTH`, with its keys in lowerCamelCase. One
 * reader for the server that refuses a body and for the checks that judge one.
 *
 * @since 0.3.0
 */
import * as ProtoJson from "./ProtoJson.js"

/**
 * The body size every server serves: bodies up to 1 MiB are never refused for their size
 * (decisions.md section 10, body size limit).
 *
 * @since 0.3.0
 * @category constants
 */
export const GUARANTEED_MAX_BYTES = 1024 * 1024

/**
 * Why a body is not a request object.
 *
 * @since 0.3.0
 * @category models
 */
export type Invalid =
  | { readonly _tag: "TooLarge"; readonly maxBytes: number }
  | { readonly _tag: "Empty" }
  | { readonly _tag: "NotUtf8" }
  | { readonly _tag: "NotJson" }
  | {
      readonly _tag: "NotObject"
      readonly found: "array" | "null" | "string" | "number" | "boolean"
    }
  | { readonly _tag: "TooDeep"; readonly maxDepth: number }

/**
 * A body as read: the object (keys in lowerCamelCase), or why not.
 *
 * @since 0.3.0
 * @category models
 */
export type Parsed =
  | {
      readonly _tag: "Object"
      /** The object with its keys in lowerCamelCase. */
      readonly value: Record<string, unknown>
      /** The object as sent, its keys as they were spelled. */
      readonly raw: Record<string, unknown>
    }
  | Invalid

/**
 * Options of `parse`.
 *
 * @since 0.3.0
 * @category models
 */
export interface ParseOptions {
  /** Bodies longer than this many bytes are `TooLarge` (default: no limit). */
  readonly maxBytes?: number | undefined
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Reads a request body. A zero-length body is `Empty` (an operation without fields is sent as
 * `{}`, decisions.md section 1).
 *
 * @example
 * ```ts
 * import { JsonBody } from "@data-access/schema"
 *
 * JsonBody.parse(new TextEncoder().encode(`{"space_id":"s1"}`)) // { _tag: "Object", value: { spaceId: "s1" }, raw: { space_id: "s1" } }
 * JsonBody.parse(new TextEncoder().encode("[]")) // { _tag: "NotObject", found: "array" }
 * ```
 *
 * @since 0.3.0
 * @category parsing
 */
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

/**
 * What a server answers about an invalid body, for the error message: says what is wrong and how
 * to send it right, never quotes the body.
 *
 * @since 0.3.0
 * @category formatting
 */
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
