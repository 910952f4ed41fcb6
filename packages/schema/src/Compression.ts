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
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import * as Zlib from "node:zlib"

/**
 * The encodings read and written here: those of connect-es and of the HTTP clients (undici's
 * `fetch` offers `gzip, deflate, br`).
 *
 * @since 0.3.0
 * @category models
 */
export const encodings = ["gzip", "deflate", "br"] as const

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

const isEncoding = (s: string): s is Encoding => (encodings as ReadonlyArray<string>).includes(s)

/**
 * Reads a `Content-Encoding` header (names compare without regard to case).
 *
 * @since 0.3.0
 * @category parsing
 */
export const parseContentEncoding = (header: string | undefined): ContentEncoding => {
  const value = (header ?? "").trim().toLowerCase()
  if (value === "" || value === "identity") return { _tag: "Identity" }
  return isEncoding(value)
    ? { _tag: "Compressed", encoding: value }
    : { _tag: "Unsupported", value: value.slice(0, 40) }
}

/**
 * The encodings an `Accept-Encoding` header offers that are read here, in the order given,
 * without those it refuses (`;q=0`).
 *
 * @since 0.3.0
 * @category parsing
 */
export const parseAcceptEncoding = (header: string | undefined): ReadonlyArray<Encoding> =>
  (header ?? "")
    .split(",")
    .map((part) => part.split(";").map((s) => s.trim().toLowerCase()))
    .filter(
      ([name, ...params]) =>
        name !== undefined && isEncoding(name) && !params.some((p) => /^q=0(\.0*)?$/.test(p))
    )
    .map(([name]) => name as Encoding)

/**
 * A body that could not be decompressed: larger than the limit once decompressed, or not what its
 * encoding says.
 *
 * @since 0.3.0
 * @category errors
 */
export class DecompressError extends Data.TaggedError("DecompressError")<{
  readonly reason: "TooLarge" | "Corrupt"
  readonly encoding: Encoding
  readonly message: string
}> {}

/**
 * Decompresses a body, refusing one that decompresses to more than `maxBytes` (a small body may
 * expand a thousandfold). `deflate` is read as zlib data (RFC 9110), and as raw deflate data when it
 * is not.
 *
 * @since 0.3.0
 * @category decompressing
 */
export const decompress = (
  bytes: Uint8Array,
  encoding: Encoding,
  maxBytes: number
): Either.Either<Uint8Array, DecompressError> => {
  const options = { maxOutputLength: Math.max(1, maxBytes + 1) }
  const attempt = (f: () => Buffer): Either.Either<Uint8Array, DecompressError> => {
    try {
      const out = f()
      return out.length > maxBytes
        ? Either.left(tooLarge(encoding, maxBytes))
        : Either.right(new Uint8Array(out.buffer, out.byteOffset, out.length))
    } catch (error) {
      return Either.left(
        (error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE"
          ? tooLarge(encoding, maxBytes)
          : new DecompressError({
              reason: "Corrupt",
              encoding,
              message: `the body is not valid ${encoding} data`
            })
      )
    }
  }
  switch (encoding) {
    case "gzip":
      return attempt(() => Zlib.gunzipSync(bytes, options))
    case "br":
      return attempt(() => Zlib.brotliDecompressSync(bytes, options))
    case "deflate": {
      const zlib = attempt(() => Zlib.inflateSync(bytes, options))
      return Either.isLeft(zlib) && zlib.left.reason === "Corrupt"
        ? attempt(() => Zlib.inflateRawSync(bytes, options))
        : zlib
    }
  }
}

const tooLarge = (encoding: Encoding, maxBytes: number) =>
  new DecompressError({
    reason: "TooLarge",
    encoding,
    message: `the ${encoding} body decompresses to more than ${maxBytes} bytes`
  })

/**
 * Compresses a body with an encoding (the writer's side of `decompress`).
 *
 * @since 0.3.0
 * @category compressing
 */
export const compress = (bytes: Uint8Array | string, encoding: Encoding): Uint8Array => {
  const out =
    encoding === "gzip"
      ? Zlib.gzipSync(bytes)
      : encoding === "br"
        ? Zlib.brotliCompressSync(bytes)
        : Zlib.deflateSync(bytes)
  return new Uint8Array(out.buffer, out.byteOffset, out.length)
}
