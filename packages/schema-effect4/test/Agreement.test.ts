// Under the machine's Node only (scripts/node-lines): the two Effect lines' decoding and encoding of the same JSON, pure data transforms.
/**
 * Cross-line agreement: the same JSON decodes to the same values and encodes to the same JSON in
 * `@data-access/schema` (Effect 3) and this package (Effect 4), for every object, request and
 * response schema, over values generated from the Effect 3 schemas and over the reference
 * server's demo data set.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Collections from "@data-access/reference-server/Collections"
import * as E3Model from "@data-access/schema/Model"
import * as Arbitrary3 from "effect3/Arbitrary"
import * as FastCheck from "effect3/FastCheck"
import * as Schema3 from "effect3/Schema"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import {
  decode3,
  decode4,
  encode3,
  encode4,
  normalize,
  operationPairs,
  type Pair,
  schemaPairs
} from "./lines.js"

const RUNS = Number(process.env.AGREEMENT_RUNS ?? 60)
const pairs = [...schemaPairs, ...operationPairs]

/** Both lines decode `json` the same way; when they accept it, they write the same JSON back. */
const agree = (pair: Pair, json: unknown) => {
  const a = decode3(pair, json)
  const b = decode4(pair, json)
  expect(
    { ok: b.ok },
    `Effect 4 ${b.ok ? "accepts" : "rejects"} what Effect 3 ${a.ok ? "accepts" : "rejects"}: ${JSON.stringify(json)}`
  ).toEqual({ ok: a.ok })
  if (a.ok && b.ok) {
    expect(normalize(b.value)).toEqual(normalize(a.value))
    expect(encode4(pair, b.value)).toEqual(encode3(pair, a.value))
  }
}

describe("every generated schema has an Effect 3 counterpart", () => {
  it("pairs every schema", () => {
    expect(schemaPairs.length).toBeGreaterThan(60)
    expect(operationPairs.length).toBe(44)
    for (const p of pairs) expect(p.e4, p.name).toBeDefined()
  })
})

describe.each(pairs.map((p) => [p.name, p] as const))("%s", (_, pair) => {
  it("agrees on values generated from the Effect 3 schema (decoded side), encoded to JSON", () => {
    FastCheck.assert(
      FastCheck.property(Arbitrary3.make(pair.e3), (value) => {
        const json = encode3(pair, value)
        const decoded = decode3(pair, json)
        expect(decoded.ok).toBe(true)
        agree(pair, json)
      }),
      { numRuns: RUNS }
    )
  })

  it("agrees on wire inputs generated from the encoded side (absent fields, nulls, out-of-range values)", () => {
    FastCheck.assert(
      FastCheck.property(Arbitrary3.make(Schema3.encodedSchema(pair.e3)), (input) => {
        agree(pair, JSON.parse(JSON.stringify(input)))
      }),
      { numRuns: RUNS }
    )
  })
})

describe("the reference server's demo data set", async () => {
  // The demo data in wire form: the fixtures the reference server serves by default.
  const require = createRequire(import.meta.url)
  const serverDir = dirname(require.resolve("@data-access/reference-server/package.json"))
  const { demoData } = (await import(
    pathToFileURL(join(serverDir, "dist", "internal", "demo.js")).href
  )) as {
    demoData: () => ReadonlyArray<readonly [Collections.CollectionName, ReadonlyArray<unknown>]>
  }
  const byAst = new Map(schemaPairs.map((p) => [p.e3.ast, p]))
  const sets = demoData().flatMap(([name, objects]) => {
    const pair = byAst.get(Collections.collections[name].schema.ast)
    return pair ? [[name, pair, objects] as const] : []
  })

  it("covers the object types", () => {
    expect(sets.length).toBeGreaterThan(15)
    expect(sets.some(([, p]) => p.e3 === E3Model.NativeUser)).toBe(true)
  })

  it.each(sets)("%s: every object decodes and encodes alike", (_, pair, objects) => {
    expect(objects.length).toBeGreaterThan(0)
    for (const o of objects) {
      expect(decode3(pair, o).ok).toBe(true)
      agree(pair, o)
    }
  })
})
