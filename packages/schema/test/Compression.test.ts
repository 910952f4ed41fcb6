import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as Zlib from "node:zlib"
import * as Compression from "../src/Compression.js"

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const message = JSON.stringify({
  satellites: Array.from({ length: 200 }, (_, i) => ({
    id: `satellite_${i}`,
    name: "sat — ünïcode 🛰️"
  }))
})

describe("Content-Encoding and Accept-Encoding", () => {
  it("reads identity, the three encodings in any case, and names any other", () => {
    expect(Compression.parseContentEncoding(undefined)).toEqual({ _tag: "Identity" })
    expect(Compression.parseContentEncoding("identity")).toEqual({ _tag: "Identity" })
    expect(Compression.parseContentEncoding("GZIP")).toEqual({
      _tag: "Compressed",
      encoding: "gzip"
    })
    expect(Compression.parseContentEncoding(" br ")).toEqual({ _tag: "Compressed", encoding: "br" })
    expect(Compression.parseContentEncoding("zstd")).toEqual({ _tag: "Unsupported", value: "zstd" })
  })

  it("offers what undici and connect-es send, without refused ones", () => {
    expect(Compression.parseAcceptEncoding("gzip, deflate, br")).toEqual(["gzip", "deflate", "br"])
    expect(Compression.parseAcceptEncoding("br;q=1.0, gzip;q=0.5, zstd, *")).toEqual(["br", "gzip"])
    expect(Compression.parseAcceptEncoding("gzip;q=0, deflate")).toEqual(["deflate"])
    expect(Compression.parseAcceptEncoding(undefined)).toEqual([])
  })
})

describe("decompress", () => {
  for (const encoding of Compression.encodings) {
    it(`${encoding}: what compress wrote reads back byte for byte`, () => {
      const packed = Compression.compress(message, encoding)
      expect(packed.length).toBeLessThan(message.length)
      const out = Compression.decompress(packed, encoding, 1024 * 1024)
      expect(Either.map(out, text)).toEqual(Either.right(message))
    })
    it(`${encoding}: a body that decompresses past the limit is TooLarge, data that is not ${encoding} is Corrupt`, () => {
      const bomb = Compression.compress("a".repeat(10 * 1024 * 1024), encoding)
      expect(
        Either.getLeft(Compression.decompress(bomb, encoding, 1024 * 1024)).pipe(
          (l) => l._tag === "Some" && l.value.reason
        )
      ).toBe("TooLarge")
      const corrupt = Compression.decompress(
        new TextEncoder().encode('{"not":"compressed"}'),
        encoding,
        1024
      )
      expect(Either.isLeft(corrupt) && corrupt.left.reason).toBe("Corrupt")
    })
  }
  it("deflate also reads raw deflate data (no zlib header), as some peers send", () => {
    const raw = Zlib.deflateRawSync(message)
    expect(Either.map(Compression.decompress(raw, "deflate", 1024 * 1024), text)).toEqual(
      Either.right(message)
    )
  })
})
