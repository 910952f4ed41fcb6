// The compiled decoder (`@data-access/core/Decoder` over this line's description of its schemas)
// against Effect 3's parser, with the oracle and the failure cases both lines share
// (@data-access/client-behaviour/decoding).
import * as Decoder from "@data-access/core/Decoder"
import * as Decoding from "@data-access/client-behaviour/decoding"
import * as Operations from "@data-access/schema/Operations"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { describeSchema, makeDecoder } from "../src/internal/decode.js"

const RUNS = Number(process.env.DECODE_RUNS ?? 40)

const lineOf = (schema: Schema.Schema<unknown, unknown>, compile: (node: Decoder.Node) => Decoder.Decode = Decoder.compile): Decoding.Line => {
  const fast = compile(describeSchema(schema))
  const slow = Schema.decodeUnknownEither(schema)
  const client = makeDecoder(schema)
  const outcome = (r: Either.Either<unknown, ParseResult.ParseError>): Decoding.Outcome =>
    Either.isRight(r) ? { ok: true, value: r.right } : { ok: false, error: ParseResult.TreeFormatter.formatErrorSync(r.left) }
  return {
    fast: (u) => {
      const r = fast(u)
      return r === Decoder.FAIL ? undefined : { ok: true, value: r }
    },
    slow: (u) => outcome(slow(u)),
    client: (u) => outcome(client(u)),
    isRedacted: Redacted.isRedacted,
    redactedValue: (u) => Redacted.value(u as Redacted.Redacted<unknown>)
  }
}

const fail = (message: string, input: unknown) => expect.fail(`${message}\n  input ${JSON.stringify(input)}`)

describe.each(Operations.all.map((op) => [op.method, op] as const))("%s response", (_, op) => {
  const schema = op.response as unknown as Schema.Schema<unknown, unknown>
  const encode = Schema.encodeSync(schema)

  it.each([
    ["generated code", Decoder.compile],
    ["closures", Decoder.compileClosures]
  ] as const)("the fast path (%s) accepts what the parser accepts and returns an equal value", (_, compile) => {
    const line = lineOf(schema, compile)
    let accepted = 0
    FastCheck.assert(
      FastCheck.property(FastCheck.array(Arbitrary.make(schema), { minLength: 1, maxLength: 3 }), FastCheck.integer(), (values, seed) => {
        const wires = values.map((v) => JSON.parse(JSON.stringify(encode(v))) as unknown)
        accepted += Decoding.agree(line, wires, seed, fail).accepted
      }),
      { numRuns: RUNS }
    )
    expect(accepted).toBeGreaterThan(RUNS)
  })

  it("agrees on wire inputs generated from the encoded side (absent fields, nulls, out-of-range values)", () => {
    const line = lineOf(schema)
    FastCheck.assert(
      FastCheck.property(Arbitrary.make(Schema.encodedSchema(schema)), FastCheck.integer(), (input, seed) => {
        Decoding.agree(line, [input], seed, fail)
      }),
      { numRuns: RUNS }
    )
  })
})

describe("each kind of failure", () => {
  const schema = Operations.operations.GetResource.response as unknown as Schema.Schema<unknown, unknown>
  const line = lineOf(schema)

  it("the valid counterpart decodes on the fast path", () => {
    expect(line.fast(Decoding.validResource)).toBeDefined()
  })

  it.each(Decoding.failureCases.map((c) => [c.name, c.input] as const))("%s: the fast path gives up, the client reports the parser's error", (_, input) => {
    expect(line.fast(input)).toBeUndefined()
    const slow = line.slow(input)
    expect(slow.ok).toBe(false)
    expect(line.client(input)).toEqual(slow)
  })
})
