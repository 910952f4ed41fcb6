// The compiled decoder (`@data-access/core/Decoder` over this line's description of its schemas)
// against Effect 4's parser, with the oracle and the failure cases both lines share
// (@data-access/client-behaviour/decoding). Valid wire JSON comes from the Effect 3 schemas'
// arbitraries (the same wire format: schema-effect4's Agreement test holds the two lines to it),
// loaded from @data-access/client's own dependencies.
import * as Decoder from "@data-access/core/Decoder"
import * as Decoding from "@data-access/client-behaviour/decoding"
import * as Operations from "@data-access/schema-effect4/Operations"
import { describe, expect, it } from "@effect/vitest"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import { describeSchema, makeDecoder } from "../src/internal/decode.js"

const RUNS = Number(process.env.DECODE_RUNS ?? 40)

const require = createRequire(import.meta.url)
const client3 = createRequire(require.resolve("@data-access/client/package.json"))
const effect3 = (file: string) => import(pathToFileURL(join(dirname(client3.resolve("effect/package.json")), "dist", "esm", file)).href)
const [Arbitrary3, FastCheck3, Schema3, Operations3] = await Promise.all([
  effect3("Arbitrary.js"),
  effect3("FastCheck.js"),
  effect3("Schema.js"),
  import(pathToFileURL(join(dirname(client3.resolve("@data-access/schema/package.json")), "dist", "Operations.js")).href)
])

const lineOf = (schema: Schema.Codec<unknown, unknown>, compile: (node: Decoder.Node) => Decoder.Decode = Decoder.compile): Decoding.Line => {
  const fast = compile(describeSchema(schema))
  const slow = Schema.decodeUnknownResult(schema)
  const client = makeDecoder(schema)
  const outcome = (r: Result.Result<unknown, Schema.SchemaError>): Decoding.Outcome =>
    Result.isSuccess(r) ? { ok: true, value: r.success } : { ok: false, error: String(r.failure.issue) }
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

describe.each(Object.entries(Operations.operations))("%s response", (method, op) => {
  const schema = op.response as unknown as Schema.Codec<unknown, unknown>
  const schema3 = Operations3.operations[method].response
  const encode3 = Schema3.encodeSync(schema3)

  it.each([
    ["generated code", Decoder.compile],
    ["closures", Decoder.compileClosures]
  ] as const)("the fast path (%s) accepts what the parser accepts and returns an equal value", (_, compile) => {
    const line = lineOf(schema, compile)
    let accepted = 0
    FastCheck3.assert(
      FastCheck3.property(FastCheck3.array(Arbitrary3.make(schema3), { minLength: 1, maxLength: 3 }), FastCheck3.integer(), (values: Array<unknown>, seed: number) => {
        const wires = values.map((v) => JSON.parse(JSON.stringify(encode3(v))) as unknown)
        accepted += Decoding.agree(line, wires, seed, fail).accepted
      }),
      { numRuns: RUNS }
    )
    expect(accepted).toBeGreaterThan(RUNS)
  })

  it("agrees on wire inputs generated from the encoded side (absent fields, nulls, out-of-range values)", () => {
    const line = lineOf(schema)
    FastCheck3.assert(
      FastCheck3.property(Arbitrary3.make(Schema3.encodedSchema(schema3)), FastCheck3.integer(), (input: unknown, seed: number) => {
        Decoding.agree(line, [input], seed, fail)
      }),
      { numRuns: RUNS }
    )
  })
})

describe("each kind of failure", () => {
  const line = lineOf(Operations.operations.GetResource.response as unknown as Schema.Codec<unknown, unknown>)

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
