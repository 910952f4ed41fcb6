// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
// `Decode.makeDecoder` as a caller sees it: the parser's values and errors. The fast path itself is
// held to the parser on every response schema by the client's property tests (decode.test.ts).
import { describe, expect, it } from "@effect/vitest"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Arbitrary from "effect/Arbitrary"
import * as fc from "effect/FastCheck"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Decoder from "@data-access/core/Decoder"
import * as ConnectError from "../src/ConnectError.js"
import * as Decode from "../src/Decode.js"
import * as Operations from "../src/Operations.js"
import { SatelliteFilter } from "../src/internal/requests.js"

const GetResource = Operations.operations.GetResource.response
/** JSON text of a value, a redacted one and a bigint shown by their content. */
const replacer = (_: string, v: unknown) =>
  Redacted.isRedacted(v) ? { redacted: Redacted.value(v) } : typeof v === "bigint" ? `${v}n` : v

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

/** Values the schema's type side refuses, made from a valid one: a key left out or given another kind of value, at the top and one level down. */
const junk: ReadonlyArray<unknown> = [
  null,
  undefined,
  0,
  1.5,
  "",
  "x",
  true,
  {},
  [],
  10n,
  Redacted.make("x")
]

const variants = (value: unknown, n: number): Array<unknown> => {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return [junk[n % junk.length]]
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length === 0) return [{ extra: 1 }, junk[n % junk.length]]
  const key = keys[n % keys.length]!
  const { [key]: _, ...without } = record
  const inner = record[key]
  return [
    without,
    { ...record, [key]: junk[n % junk.length] },
    { ...record, [key]: junk[(n + 3) % junk.length] },
    ...(inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? variants(inner, n + 1).map((v) => ({ ...record, [key]: v }))
      : [])
  ]
}

/** A compiled function's result on `u` beside the schema's own: the same value, or both refuse. */
const expectAlike = (
  fast: Decoder.Decode,
  slow: (u: unknown) => Either.Either<unknown, unknown>,
  u: unknown,
  method: string
) => {
  const shown = (x: unknown) => (x === Decoder.FAIL ? "refused" : JSON.stringify(x, replacer))
  const p = slow(u)
  expect(shown(fast(u)), method).toBe(Either.isRight(p) ? shown(p.right) : "refused")
}

describe("Decode.makeEncoder", () => {
  // The compiled encoder against `Schema.encodeEither` on every request schema: values drawn from
  // the schema (as the runner draws its requests), and values its type side refuses.
  it("gives what the schema's encoder gives, and refuses what it refuses", () => {
    for (const op of Operations.all) {
      const schema = op.request as unknown as Schema.Schema<unknown, unknown>
      const fast = Decoder.compile(Decode.describeEncoder(schema))
      const slow = Schema.encodeEither(schema)
      const encode = Decode.makeEncoder(schema)
      const drawn = fc.sample(Arbitrary.make(schema), { seed: 7, numRuns: 15 })
      const inputs = [...drawn, ...drawn.flatMap((v, n) => variants(v, n))]
      for (const u of inputs) {
        expectAlike(fast, slow, u, op.method)
        expect(issues(encode(u))).toEqual(issues(slow(u)))
      }
      // Most drawn values take the fast path.
      expect(drawn.filter((v) => fast(v) !== Decoder.FAIL).length, op.method).toBe(drawn.length)
    }
  })
})

const condition = {
  field: {
    key: "id",
    operator: "equals",
    value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
  }
}
const group = (...filters: ReadonlyArray<unknown>) => ({ group: { operator: "and", filters } })
const nestedFilters: ReadonlyArray<unknown> = [
  group(condition, group(condition, group(condition))),
  group(condition, group(condition, group())),
  group(group(group({ group: { operator: "xor", filters: [condition] } }))),
  group(group(condition, { field: { ...condition.field, key: "nope" } })),
  group(group(condition, {}), { field: null, group: null }),
  group(group({ ...condition, group: group(condition).group }))
]

describe("Decode.describeSchema of the requests", () => {
  // The compiled decoder against the parser on every request schema (the runner asks it whether
  // a body is valid): wire forms of drawn values, and forms the parser refuses.
  it("gives what the parser gives, and refuses what it refuses", () => {
    for (const op of Operations.all) {
      const schema = op.request as unknown as Schema.Schema<unknown, unknown>
      const fast = Decoder.compile(Decode.describeSchema(schema))
      const parse = Schema.decodeUnknownEither(schema)
      const encode = Schema.encodeSync(schema)
      const drawn = fc
        .sample(Arbitrary.make(schema), { seed: 7, numRuns: 15 })
        .map((v) => encode(v))
      // Filters nested deeper than the variants reach, for the lists that take one.
      const filters = "filter" in (drawn[0] as object) ? nestedFilters : []
      const inputs = [
        ...drawn,
        ...drawn.flatMap((v, n) => variants(v, n)),
        ...filters.map((filter) => ({ ...(drawn[0] as object), filter }))
      ]
      for (const u of inputs) expectAlike(fast, parse, u, op.method)
    }
  })
})

describe("ConnectError.decodeBody", () => {
  it("reads what the schema's parser reads", () => {
    const parse = Schema.decodeUnknownEither(ConnectError.ErrorBody)
    const drawn = fc
      .sample(Arbitrary.make(ConnectError.ErrorBody), { seed: 7, numRuns: 100 })
      .map((b) => Schema.encodeSync(ConnectError.ErrorBody)(b) as unknown)
    const inputs = [...drawn, ...drawn.flatMap((v, n) => variants(v, n)), null, "x", [], {}]
    for (const u of inputs) {
      const p = parse(u)
      expect(JSON.stringify(ConnectError.decodeBody(u))).toBe(
        JSON.stringify(Either.isRight(p) ? p.right : undefined)
      )
    }
  })
})
