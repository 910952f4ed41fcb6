/** A body as the checks read it, decoded by its `Content-Encoding`: the judge reads it so, and the HAR writer writes it so. */
import * as Either from "effect/Either"
import * as Compression from "@data-access/schema/Compression"

/**
 * A relayed body as the checks read it: decompressed by its `Content-Encoding` (within the
 * checking limit), or `undefined` when it cannot be (an encoding not read here, corrupt data, too
 * large once decompressed): such a body is relayed and counted unchecked, never judged.
 */
export const readable = (
  bytes: Uint8Array | undefined,
  contentEncoding: string | undefined,
  limit: number
): Uint8Array | undefined => {
  if (bytes === undefined) return undefined
  const encoding = Compression.parseContentEncoding(contentEncoding)
  if (encoding._tag === "Identity") return bytes
  if (encoding._tag === "Unsupported") return undefined
  return Either.getOrUndefined(Compression.decompress(bytes, encoding.encoding, limit))
}
