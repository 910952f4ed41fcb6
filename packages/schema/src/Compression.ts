/**
 * Connect's compression of unary bodies: the `Content-Encoding` of a request or an answer, the
 * encodings a peer offers in `Accept-Encoding`, and (de)compression within a size limit. A server
 * may support compression or answer `unimplemented` (decisions.md section 10); what it sends
 * compressed must decompress to the message.
 *
 * Node only (`node:zlib`): not re-exported from the package's index; import it as
 * `@data-access/schema/Compression`.
 *
 * @since 0.3.0
 */
import * as Either from "effect/Either"
import * as internal from "./internal/compression.js"
import type { DecompressError } from "./internal/compression.js"

/**
 * The encodings read and written here: those of connect-es and of the HTTP clients (undici's
 * `fetch` offers `gzip, deflate, br`).
 *
 * @since 0.3.0
 * @category models
 */
export const encodings: readonly ["gzip", "deflate", "br"] = internal.encodings

/**
 * @since 0.3.0
 * @category models
 */
export type Encoding = (typeof encodings)[number]

/**
 * What a `Content-Encoding` header says about a body: not compressed (absent or `identity`),
 * compressed with an encoding read here, or compressed with one that is not.
 *
 * @since 0.3.0
 * @category models
 */
export type ContentEncoding =
  | { readonly _tag: "Identity" }
  | { readonly _tag: "Compressed"; readonly encoding: Encoding }
  | { readonly _tag: "Unsupported"; readonly value: string }

/**
 * Reads a `Content-Encoding` header (names compare without regard to case).
 *
 * @since 0.3.0
 * @category parsing
 */
export const parseContentEncoding: (header: string | undefined) => ContentEncoding =
  internal.parseContentEncoding

/**
 * The encodings an `Accept-Encoding` header offers that are read here, in the order given,
 * without those it refuses (`;q=0`).
 *
 * @since 0.3.0
 * @category parsing
 */
export const parseAcceptEncoding: (header: string | undefined) => ReadonlyArray<Encoding> =
  internal.parseAcceptEncoding

/**
 * A body that could not be decompressed: larger than the limit once decompressed, or not what its
 * encoding says.
 *
 * @since 0.3.0
 * @category errors
 */
export { DecompressError } from "./internal/compression.js"

/**
 * Decompresses a body, refusing one that decompresses to more than `maxBytes` (a small body may
 * expand a thousandfold). `deflate` is read as zlib data (RFC 9110), and as raw deflate data when it
 * is not.
 *
 * @since 0.3.0
 * @category decompressing
 */
export const decompress: (
  bytes: Uint8Array,
  encoding: Encoding,
  maxBytes: number
) => Either.Either<Uint8Array, DecompressError> = internal.decompress

/**
 * Compresses a body with an encoding (the writer's side of `decompress`).
 *
 * @since 0.3.0
 * @category compressing
 */
export const compress: (bytes: Uint8Array | string, encoding: Encoding) => Uint8Array =
  internal.compress
