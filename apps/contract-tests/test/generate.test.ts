import { Operations, Primitives, Requests } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Gen from "../src/internal/generate.js"
import * as Pools from "../src/internal/pools.js"
import { booleanProperties } from "../src/internal/requestShape.js"

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
  it("puts a piece at a code point boundary and keeps the text within 255 characters under every count (UTF-8 bytes of NFD the largest)", () => {
    expect(Gen.withPiece("ab", "\u{1F680}", 1)).toBe("a\u{1F680}b")
    expect(Gen.withPiece("a\u{1F680}b", "e\u0301", 2)).toBe("a\u{1F680}e\u0301b")
    const long = Gen.withPiece("x".repeat(255), "\u{1F469}\u200D\u{1F4BB}", 300)
    expect(Buffer.byteLength(long, "utf8")).toBeLessThanOrEqual(255)
    expect(long).toContain("\u{1F469}\u200D\u{1F4BB}")
    // Precomposed Hangul is 3 bytes in NFC and 9 in NFD: the cut counts the larger.
    const hangul = Gen.withPiece("\uD55C".repeat(80), "\u{1F680}", 0)
    expect(Buffer.byteLength(hangul.normalize("NFD"), "utf8")).toBeLessThanOrEqual(255)
    expect(Buffer.byteLength(hangul, "utf8")).toBeGreaterThan(50)
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

  it("swaps the case of letters that map one to one, leaving ß, ſ, sigma, dotted and dotless i and accented Greek as they are", () => {
    expect(Gen.swappedCase(Gen.CASED_PIECE)).toBe(
      "\u00E9T\u00C9-\u00FCBER-\u0436\u0423\u041A-\u03C9\u03A9"
    )
    expect(Gen.swappedCase("\u00DF\u017F\u03C3\u03C2\u0130\u0131\u03AC\u00B5x")).toBe(
      "\u00DF\u017F\u03C3\u03C2\u0130\u0131\u03AC\u00B5X"
    )
    // Both cases of each letter swapped back and forth give the text again, and fold to one text.
    const swapped = Gen.swappedCase(Gen.CASED_PIECE)
    expect(Gen.swappedCase(swapped)).toBe(Gen.CASED_PIECE)
    expect(swapped.toLowerCase()).toBe(Gen.CASED_PIECE.toLowerCase())
    expect(swapped.toUpperCase()).toBe(Gen.CASED_PIECE.toUpperCase())
    expect(Gen.CASED_PIECE.replace(/[A-Z]/g, (c) => c.toLowerCase())).not.toBe(
      swapped.replace(/[A-Z]/g, (c) => c.toLowerCase())
    )
    expect([
      Gen.hasCaseBeyondAscii(Gen.CASED_PIECE),
      Gen.hasCaseBeyondAscii("Ab-\u00DF\u03C3")
    ]).toEqual([true, false])
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

// Valid requests reach the edges of numbers and booleans: every number field gets its schema's
// bounds, and 0, 1, 65535 and the int32 limits where its range holds them; every optional boolean
// is sent as `false` too, not only left out or `true`.

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647
const sorted = (xs: ReadonlyArray<number> | undefined) =>
  xs === undefined ? undefined : [...xs].sort((a, b) => a - b)
const at = (body: unknown, path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
    body
  )

describe("generation at the edges of numbers and booleans", () => {
  it("reads each number field's edges from its schema's refinements", () => {
    const edges = (s: Schema.Schema.Any) => sorted(Gen.numberEdges(s.ast))
    expect(edges(Requests.Limit)).toEqual([1, 500])
    expect(edges(Primitives.Int32)).toEqual([INT32_MIN, 0, 1, 65535, INT32_MAX])
    expect(edges(Primitives.Port)).toEqual([1, 65535])
    expect(edges(Primitives.PortOrZero)).toEqual([0, 1, 65535])
    expect(edges(Schema.Int.pipe(Schema.between(2, 10)))).toEqual([2, 10])
    expect(edges(Schema.Int.pipe(Schema.greaterThan(0), Schema.lessThan(9.5)))).toEqual([1, 9])
    expect(edges(Schema.Number)).toEqual([INT32_MIN, 0, 1, 65535, INT32_MAX])
    expect(edges(Schema.String)).toBeUndefined()
  })

  it("finds the number fields of the operations: limit, on every List", () => {
    for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
      const fields = Gen.numberFields(op).map((f) => ({ path: f.path, edges: sorted(f.edges) }))
      expect(fields, op.method).toEqual(
        op.kind === "list" ? [{ path: ["limit"], edges: [1, 500] }] : []
      )
    }
  })

  it.scoped(
    "valid requests send each number field at each of its edges and each optional boolean as false, and still decode",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({})
        const pools = Pools.fromKnownIds(server.knownIds)
        const connector = Operations.all.find(
          (o) => o.method === "CreateConnector"
        )! as Operations.Operation
        // Number fields whose schemas leave generation to fast-check: no arbitrary of their own puts them at their edges.
        const synthetic: Operations.Operation = {
          ...connector,
          method: "CreateWithNumbers",
          request: Schema.Struct({
            count: Primitives.Int32,
            port: Primitives.opt(Schema.Int.pipe(Schema.between(0, 65535))),
            page: Schema.Struct({ size: Schema.Int.pipe(Schema.between(1, 300)) }),
            flag: Primitives.opt(Schema.Boolean)
          })
        }
        const ops = [...(Operations.all as ReadonlyArray<Operations.Operation>), synthetic]
        let numbers = 0
        let booleans = 0
        for (const op of ops) {
          const g = Gen.valid(op, pools, "run1", { unknownFields: false })
          if (g._tag === "Skip") throw new Error(g.reason)
          const samples = fc.sample(g.arbitrary, { numRuns: 300, seed: 11 })
          const decode = Schema.decodeUnknownEither(op.request)
          for (const body of samples) expect(decode(body)._tag, JSON.stringify(body)).toBe("Right")
          for (const { path, edges } of Gen.numberFields(op)) {
            const sent = new Set(samples.map((b) => at(b, path)))
            for (const edge of edges)
              expect(sent.has(edge), `${op.method} ${path.join(".")} = ${edge}`).toBe(true)
            // Edges are added to the range, not put in place of it.
            expect(
              [...sent].filter((v) => !edges.includes(v as number)).length,
              `${op.method} ${path.join(".")}`
            ).toBeGreaterThan(10)
            numbers++
          }
          for (const field of booleanProperties(op.request)) {
            const sent = samples.map((b) => b[field])
            expect(
              sent.filter((v) => v === false).length,
              `${op.method} ${field}: false`
            ).toBeGreaterThan(30)
            expect(
              sent.filter((v) => v === true).length,
              `${op.method} ${field}: true`
            ).toBeGreaterThan(30)
            expect(
              sent.filter((v) => v === undefined).length,
              `${op.method} ${field}: left out`
            ).toBeGreaterThan(10)
            booleans++
          }
        }
        // limit of the six Lists and the three synthetic fields; terminationProtection, managedTls, sync and flag.
        expect(numbers).toBe(9)
        expect(booleans).toBe(11)
      })
  )
})

// Unknown fields reach nested objects too (proto3 JSON ignores them at every depth); the plain
// form of a request drops them at every depth, and a refusal is put down to the right spelling.

describe("unknown fields at every depth", () => {
  it.scoped("valid requests put unknown fields in vendor objects, which the plain form drops", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({})
      const op = Operations.operations.CreateBIIntegration as Operations.Operation
      const g = Gen.valid(op, Pools.fromKnownIds(server.knownIds), "run1", { unknownFields: true })
      if (g._tag === "Skip") throw new Error(g.reason)
      const samples = fc.sample(g.arbitrary, { numRuns: 200, seed: 3 })
      const vendor = (b: unknown) => (Gen.normalizeKeys(b) as { biVendorA: object }).biVendorA
      const nested = samples.filter((b) =>
        Object.keys(vendor(b)).some((k) => !["apiKey", "apiSecret"].includes(k))
      )
      expect(nested.length).toBeGreaterThan(20)
      for (const body of nested) {
        expect(Gen.hasUnknownFields(op, body), JSON.stringify(body)).toBe(true)
        const plain = Gen.plainForm(op, body)
        expect(Object.keys(vendor(plain)).sort()).toEqual(["apiKey", "apiSecret"])
        expect(Gen.hasUnknownFields(op, plain)).toBe(false)
      }
      // The spelling is kept when only the unknown fields go.
      const snake = {
        name: "n",
        bi_vendor_a: { api_key: "k", api_secret: "s", ctUnknownField: 1 },
        linked_db_user_id: "u"
      }
      expect(Gen.withoutUnknownFields(op, snake)).toEqual({
        name: "n",
        bi_vendor_a: { api_key: "k", api_secret: "s" },
        linked_db_user_id: "u"
      })
    })
  )
})

describe("nested objects of a request", () => {
  it("fills the optional fields they leave out with null, at every depth, never a one-of's other member; the plain form drops them again", () => {
    const op = Operations.operations.ListSatellites as Operations.Operation
    const condition = (operator: string) => ({ field: { key: "name", operator } })
    const body = {
      limit: 5,
      filter: { group: { operator: "and", filters: [condition("empty"), condition("not_empty")] } }
    }
    expect(Gen.absentNestedFields(op, body).map((f) => [...f.path, f.name].join("."))).toEqual([
      "filter.group.filters.0.field.value",
      "filter.group.filters.1.field.value"
    ])
    const nulls = Gen.withNestedNulls(op, body)
    expect(nulls).toEqual({
      limit: 5,
      filter: {
        group: {
          operator: "and",
          filters: [
            { field: { key: "name", operator: "empty", value: null } },
            { field: { key: "name", operator: "not_empty", value: null } }
          ]
        }
      }
    })
    expect(Gen.isValid(op, nulls)).toBe(true)
    expect(Gen.plainForm(op, nulls)).toEqual(body)
    const mdm = Operations.operations.CreateIntegrationMDM as Operations.Operation
    expect(Gen.withNestedNulls(mdm, { name: "n", mdmVendorA: { apiKey: "k" } })).toEqual({
      name: "n",
      mdmVendorA: { apiKey: "k", apiUrl: null }
    })
  })
})
