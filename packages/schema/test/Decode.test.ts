// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
// `Decode.makeDecoder` as a caller sees it: the parser's values and errors. The fast path itself is
// held to the parser on every response schema by the client's property tests (decode.test.ts).
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Arbitrary from "effect/Arbitrary"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Decoder from "@data-access/core/Decoder"
import * as Decode from "../src/Decode.js"
import * as Operations from "../src/Operations.js"
import { SatelliteFilter } from "../src/internal/requests.js"

const GetResource = Operations.operations.GetResource.response
const issues = (r: Either.Either<unknown, ParseResult.ParseError>) =>
  Either.isLeft(r) ? ParseResult.ArrayFormatter.formatIssueSync(r.left.issue) : []

describe("Decode.makeDecoder", () => {
  it("decodes a valid answer to the value the schema's parser gives", () => {
    const body = {
      resource: {
        id: "res_1",
        name: "orders",
        port: 5432,
        createdAt: "2024-05-01T12:00:00.5+02:00"
      },
      unknownField: 1
    }
    const fast = Decode.makeDecoder(GetResource)(body)
    const parser = Schema.decodeUnknownEither(GetResource)(body)
    expect(Either.isRight(fast) && Either.isRight(parser)).toBe(true)
    expect(JSON.stringify(Either.getOrThrow(fast))).toBe(JSON.stringify(Either.getOrThrow(parser)))
    expect(String(Either.getOrThrow(fast).resource?.createdAt)).toBe("2024-05-01T10:00:00.500Z")
  })

  it('gives the parser\'s error: its first issue, or every issue with errors: "all"', () => {
    // Three faults: a wrong id type, a wrong name type, a port out of range.
    const body = { resource: { id: 7, name: false, port: 70000 } }
    const first = issues(Decode.makeDecoder(GetResource)(body))
    const all = issues(Decode.makeDecoder(GetResource, { errors: "all" })(body))
    expect(first).toEqual(issues(Schema.decodeUnknownEither(GetResource)(body)))
    expect(all).toEqual(issues(Schema.decodeUnknownEither(GetResource, { errors: "all" })(body)))
    expect(first).toHaveLength(1)
    expect([...new Set(all.map((i) => i.path.join(".")))]).toEqual([
      "resource.id",
      "resource.name",
      "resource.port"
    ])
  })
})

describe("Decode.describeSchema", () => {
  // A filter is a union of three objects (a condition, a group of filters, neither) that Effect
  // looks up by no literal key: the compiled decoder tries them in order, as its parser does.
  it("compiles a filter to what the parser gives, and refuses what it refuses", () => {
    const fast = Decoder.compile(Decode.describeSchema(SatelliteFilter))
    const parser = Schema.decodeUnknownEither(SatelliteFilter)
    const condition = {
      field: {
        key: "name",
        operator: "equals",
        value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
      }
    }
    const encode = Schema.encodeSync(SatelliteFilter)
    const inputs: Array<unknown> = [
      ...fc
        .sample(Arbitrary.make(SatelliteFilter), { seed: 1, numRuns: 100 })
        .map((f) => encode(f)),
      condition,
      {},
      { field: null, group: null },
      { ...condition, group: null },
      { ...condition, group: { operator: "and", filters: [condition] } },
      { group: { operator: "or", filters: [] } },
      {
        group: {
          operator: "or",
          filters: [condition, { group: { operator: "and", filters: [{}] } }]
        }
      },
      { group: { operator: "xor", filters: [condition] } },
      { field: { ...condition.field, key: "nope" } },
      [condition],
      null
    ]
    for (const u of inputs) {
      const r = fast(u)
      const p = parser(u)
      expect(r === Decoder.FAIL ? "refused" : r).toEqual(Either.isRight(p) ? p.right : "refused")
    }
  })
})
