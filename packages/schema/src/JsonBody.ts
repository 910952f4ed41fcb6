/**
 * A Connect JSON request body read into an object: within a size limit, UTF-8, JSON, a JSON
 * object, not nested deeper than `ProtoJson.MAX_DEPTH`, with its keys in lowerCamelCase. One
 * reader for the server that refuses a body and for the checks that judge one.
 *
 * @since 0.3.0
 */
import * as internal from "./internal/jsonBody.js"

/**
 * The body size every server serves: bodies up to 1 MiB are never refused for their size
 * (decisions.md section 10, body size limit).
 *
 * @since 0.3.0
 * @category constants
 */
export const GUARANTEED_MAX_BYTES: number = internal.GUARANTEED_MAX_BYTES

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
export const parse: (bytes: Uint8Array, options?: ParseOptions) => Parsed = internal.parse

/**
 * What a server answers about an invalid body, for the error message: says what is wrong and how
 * to send it right, never quotes the body.
 *
 * @since 0.3.0
 * @category formatting
 */
export const describe: (invalid: Invalid) => string = internal.describe
