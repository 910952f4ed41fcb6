import { Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Gen from "../src/internal/generate.js"
import * as Pools from "../src/internal/pools.js"

// Valid requests reach beyond ASCII: every piece of Unicode the runner sends lands in free-text
// fields of requests that still decode, well-formed and within 255 characters however counted.

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const wellFormed = (s: string) => !loneSurrogate.test(s)
// eslint-disable-next-line no-control-regex
const nonAscii = (s: string) => /[^\u0000-\u007f]/.test(s)
const strings = (v: unknown): ReadonlyArray<string> =>
  typeof v === "string"
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(strings)
      : v !== null && typeof v === "object"
        ? Object.values(v).flatMap(strings)
        : []

describe("generation over the whole of Unicode", () => {
  it("puts a piece at a code point boundary and keeps the text within 255 UTF-8 bytes", () => {
    expect(Gen.withPiece("ab", "\u{1F680}", 1)).toBe("a\u{1F680}b")
    expect(Gen.withPiece("a\u{1F680}b", "e\u0301", 2)).toBe("a\u{1F680}e\u0301b")
    const long = Gen.withPiece("x".repeat(255), "\u{1F469}\u200D\u{1F4BB}", 300)
    expect(Buffer.byteLength(long, "utf8")).toBeLessThanOrEqual(255)
    expect(long).toContain("\u{1F469}\u200D\u{1F4BB}")
  })

  it("no piece has a lone surrogate, a control character or a letter beyond ASCII with a case", () => {
    for (const piece of Gen.UNICODE_PIECES) {
      expect(wellFormed(piece), piece).toBe(true)
      // eslint-disable-next-line no-control-regex
      expect(/[\u0000-\u001f\u007f-\u009f]/.test(piece), piece).toBe(false)
      const caseless = piece.replace(/[A-Za-z]/g, "")
      expect([caseless.toLowerCase(), caseless.toUpperCase()], piece).toEqual([caseless, caseless])
      expect(
        [...piece].some((c) => c.codePointAt(0)! >= 0xe000 && c.codePointAt(0)! <= 0xffff),
        piece
      ).toBe(false)
    }
    // One text in its NFC and its NFD form.
    expect(
      Gen.UNICODE_PIECES.some((a) =>
        Gen.UNICODE_PIECES.some((b) => a !== b && a.normalize("NFC") === b.normalize("NFC"))
      )
    ).toBe(true)
  })

  it.scoped("valid requests carry non-ASCII text in free-text fields and still decode", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({})
      const pools = Pools.fromKnownIds(server.knownIds)
      for (const method of [
        "CreateDataDiscoveryConfiguration",
        "UpdateSatellite",
        "CreatePermission",
        "CreateBIIntegration",
        "UpdateConnectorHostname"
      ] as const) {
        const op = Operations.all.find((o) => o.method === method)! as Operations.Operation
        const g = Gen.valid(op, pools, "run1", { unknownFields: false })
        if (g._tag === "Skip") throw new Error(g.reason)
        const samples = fc.sample(g.arbitrary, { numRuns: 200, seed: 7 })
        const decode = Schema.decodeUnknownEither(op.request)
        for (const body of samples) expect(decode(body)._tag, JSON.stringify(body)).toBe("Right")
        const texts = samples.flatMap(strings)
        for (const t of texts)
          expect(wellFormed(t) && Buffer.byteLength(t, "utf8") <= 255, t).toBe(true)
        expect(texts.filter(nonAscii).length, method).toBeGreaterThan(20)
      }
    })
  )
})
