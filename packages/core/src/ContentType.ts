/**
 * The `Content-Type` of Connect unary calls: the JSON codec every peer speaks, the binary codec a
 * server may serve or answer 415 (decisions.md section 10), and the reading of a header into its
 * media type and codec.
 *
 * @since 0.1.0
 */

/**
 * The media type of the JSON codec (requests, successes and error bodies).
 *
 * @since 0.1.0
 * @category constants
 */
export const JSON_MEDIA_TYPE = "application/json"

/**
 * The media type of the binary (protobuf) codec of unary calls.
 *
 * @since 0.1.0
 * @category constants
 */
export const PROTO_MEDIA_TYPE = "application/proto"

/**
 * The codec a media type names: `json`, `proto`, or `other` (anything else, or no header).
 *
 * @since 0.1.0
 * @category models
 */
export type Codec = "json" | "proto" | "other"

/**
 * A `Content-Type` header as read: its media type (lower case, without parameters) and codec.
 *
 * @since 0.1.0
 * @category models
 */
export interface ContentType {
  readonly mediaType: string
  readonly codec: Codec
}

/**
 * Reads a `Content-Type` header: the media type before any parameter (`; charset=utf-8`), trimmed
 * and lower-cased (media types compare without regard to case, RFC 9110 section 8.3.1), and the
 * codec it names. An absent header reads as the media type `""`, codec `other`.
 *
 * @example
 * ```ts
 * import { ContentType } from "@data-access/core"
 *
 * ContentType.parse("Application/JSON; charset=utf-8") // { mediaType: "application/json", codec: "json" }
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (header: string | undefined): ContentType => {
  const semicolon = header === undefined ? -1 : header.indexOf(";")
  const mediaType = (semicolon === -1 ? (header ?? "") : header!.slice(0, semicolon))
    .trim()
    .toLowerCase()
  return {
    mediaType,
    codec:
      mediaType === JSON_MEDIA_TYPE ? "json" : mediaType === PROTO_MEDIA_TYPE ? "proto" : "other"
  }
}

/**
 * Whether a `Content-Type` header names the JSON codec (parameters allowed).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isJson = (header: string | undefined): boolean => parse(header).codec === "json"

/**
 * Whether a `Content-Type` header names the binary codec (parameters allowed).
 *
 * @since 0.1.0
 * @category predicates
 */
export const isProto = (header: string | undefined): boolean => parse(header).codec === "proto"

/**
 * Whether an answer's `Content-Type` is one the official Connect clients read as the JSON codec of
 * a unary call: `application/json`, alone or with `charset=utf-8` (connect-es's reading: any case,
 * `utf8` too, one space or none after the `;`). Another charset or any other parameter makes
 * connect-es refuse a success ("unsupported content type") and read an error from its HTTP status
 * alone, its body unread.
 *
 * @example
 * ```ts
 * import { ContentType } from "@data-access/core"
 *
 * ContentType.readsAsJson("application/json; charset=utf-8") // true
 * ContentType.readsAsJson("application/json; charset=iso-8859-1") // false
 * ```
 *
 * @since 0.6.0
 * @category predicates
 */
export const readsAsJson = (header: string | undefined): boolean =>
  header !== undefined && /^application\/json(?:; ?charset=utf-?8)?$/i.test(header)
