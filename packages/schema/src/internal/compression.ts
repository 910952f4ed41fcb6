import * as Either from "effect/Either"
import * as Zlib from "node:zlib"
import * as Data from "effect/Data"
import type { Encoding, ContentEncoding } from "../Compression.js"

export const encodings = ["gzip", "deflate", "br"] as const

const isEncoding = (s: string): s is Encoding => (encodings as ReadonlyArray<string>).includes(s)

export const parseContentEncoding = (header: string | undefined): ContentEncoding => {
  const value = (header ?? "").trim().toLowerCase()
  if (value === "" || value === "identity") return { _tag: "Identity" }
  return isEncoding(value)
    ? { _tag: "Compressed", encoding: value }
    : { _tag: "Unsupported", value: value.slice(0, 40) }
}

export const parseAcceptEncoding = (header: string | undefined): ReadonlyArray<Encoding> =>
  (header ?? "")
    .split(",")
    .map((part) => part.split(";").map((s) => s.trim().toLowerCase()))
    .filter(
      ([name, ...params]) =>
        name !== undefined && isEncoding(name) && !params.some((p) => /^q=0(\.0*)?$/.test(p))
    )
    .map(([name]) => name as Encoding)

/** A body that could not be decompressed (documented on the face). */
export class DecompressError extends Data.TaggedError("DecompressError")<{
  readonly reason: "TooLarge" | "Corrupt"
  readonly encoding: Encoding
  readonly message: string
}> {}

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

export const compress = (bytes: Uint8Array | string, encoding: Encoding): Uint8Array => {
  const out =
    encoding === "gzip"
      ? Zlib.gzipSync(bytes)
      : encoding === "br"
        ? Zlib.brotliCompressSync(bytes)
        : Zlib.deflateSync(bytes)
  return new Uint8Array(out.buffer, out.byteOffset, out.length)
}
