// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as Model from "../src/Model.js"
import * as Operations from "../src/Operations.js"
import * as ProtoJson from "../src/ProtoJson.js"
import * as Timestamp from "../src/Timestamp.js"
import { wire } from "./util.js"

type AnySchema = Schema.Schema<any, any>

const requests: ReadonlyArray<readonly [string, AnySchema]> = Operations.all.map((o) => [
  `${o.method} request`,
  o.request
])
const responses: ReadonlyArray<readonly [string, AnySchema]> = Operations.all.map((o) => [
  `${o.method} response`,
  o.response
])
const objects: ReadonlyArray<readonly [string, AnySchema]> = Object.entries(Model).flatMap(
  ([name, value]) =>
    Schema.isSchema(value) ? [[`Model.${name}`, value as AnySchema] as const] : []
)

describe("the schemas under test", () => {
  it("cover every operation's request, response and object", () => {
    expect(requests).toHaveLength(22)
    expect(responses).toHaveLength(22)
    const modelSchemas = new Set(objects.map(([, s]) => s))
    for (const o of Operations.all) expect(modelSchemas.has(o.object), o.method).toBe(true)
    // every object type of the interface is among them
    for (const name of [
      "Space",
      "Group",
      "Connector",
      "ConnectorHostname",
      "ConnectorListenerLink",
      "Resource",
      "Sidecar",
      "SidecarResourceLink",
      "Satellite",
      "NativeUser",
      "NativeUserIdentityLink",
      "ScenarioMonitor",
      "PolicyStageConfiguration",
      "DataCatalogIntegration",
      "MdmIntegration",
      "BiIntegration",
      "EncryptionKey",
      "LogQueryMetadata",
      "PolicyDataLoader",
      "DataDiscoveryConfiguration",
      "Permission",
      "HumanUserPassword",
      "ListMetadata"
    ]) {
      expect(objects.map(([n]) => n)).toContain(`Model.${name}`)
    }
  })
})

describe.each([
  ["requests", requests],
  ["responses", responses],
  ["objects", objects]
] as const)("%s: generated values", (_, schemas) => {
  for (const [name, schema] of schemas) {
    const is = Schema.is(schema)
    const equivalence = Schema.equivalence(schema)
    const encode = Schema.encodeSync(schema)
    const decode = Schema.decodeUnknownSync(schema)
    it.prop(
      `${name}: valid, and encode then decode over JSON gives the same value`,
      { value: schema },
      ({ value }) => {
        expect(is(value)).toBe(true)
        const decoded = decode(wire(encode(value)))
        expect(equivalence(value, decoded)).toBe(true)
      },
      { fastCheck: { numRuns: 60 } }
    )
  }
})

const snakeKeys = (u: unknown): unknown =>
  Array.isArray(u)
    ? u.map(snakeKeys)
    : u !== null && typeof u === "object"
      ? Object.fromEntries(
          Object.entries(u).map(([k, v]) => [ProtoJson.camelToSnake(k), snakeKeys(v)])
        )
      : u

describe("requests as a server reads them", () => {
  for (const [name, schema] of requests) {
    const equivalence = Schema.equivalence(schema)
    const encode = Schema.encodeSync(schema)
    const decode = Schema.decodeUnknownSync(schema)
    it.prop(
      `${name}: snake_case keys and unknown fields read as the same value`,
      { value: schema },
      ({ value }) => {
        const body = snakeKeys({ ...(wire(encode(value)) as object), some_future_field: { a: 1 } })
        expect(equivalence(value, decode(ProtoJson.normalizeKeys(body)))).toBe(true)
      },
      { fastCheck: { numRuns: 40 } }
    )
  }
})

describe("responses in proto3 form", () => {
  for (const [name, schema] of responses) {
    const equivalence = Schema.equivalence(schema)
    const encode = Schema.encodeSync(schema)
    const decode = Schema.decodeUnknownSync(schema)
    it.prop(
      `${name}: zero values left out read back as the same value`,
      { value: schema },
      ({ value }) => {
        const body = ProtoJson.omitZeroValues(wire(encode(value)))
        expect(equivalence(value, decode(body))).toBe(true)
      },
      { fastCheck: { numRuns: 60 } }
    )
  }
})

describe("generated values reach the boundaries", () => {
  const sample = <A, I>(schema: Schema.Schema<A, I>, n = 300): ReadonlyArray<A> =>
    FastCheck.sample(Arbitrary.make(schema), n)

  it("limit 1 and 500 on every List request", () => {
    const lists = Operations.all.filter((o) => o.kind === "list")
    expect(lists).toHaveLength(6)
    for (const o of lists) {
      const limits = sample(o.request as AnySchema).map((r: { limit: number }) => r.limit)
      expect(limits, o.method).toContain(1)
      expect(limits, o.method).toContain(500)
      expect(limits.every((l) => Number.isInteger(l) && l >= 1 && l <= 500)).toBe(true)
    }
  })

  it("port 1 and 65535 on Resource", () => {
    const ports = sample(Model.Resource).map((r) => r.port)
    expect(ports).toContain(1)
    expect(ports).toContain(65535)
    expect(ports.every((p) => p >= 1 && p <= 65535)).toBe(true)
  })

  it("port 0 (unset), 1 and 65535 on SidecarResourceLink", () => {
    const ports = sample(Model.SidecarResourceLink).map((r) => r.port)
    for (const p of [0, 1, 65535]) expect(ports).toContain(p)
  })

  it("connector names of length 3 and 63", () => {
    const lengths = sample(Operations.operations.CreateConnector.request).map((r) => r.name.length)
    expect(lengths).toContain(3)
    expect(lengths).toContain(63)
    expect(lengths.every((l) => l >= 3 && l <= 63)).toBe(true)
  })

  it("timestamps at both ends of the range, and 0, 3, 6 and 9 fractional digits", () => {
    const texts = sample(Model.Space, 400)
      .flatMap((s) => [s.createdAt, s.updatedAt])
      .flatMap((t) => (t === undefined ? [] : [Timestamp.format(t)]))
    expect(texts).toContain("0001-01-01T00:00:00Z")
    expect(texts).toContain("9999-12-31T23:59:59.999999999Z")
    const digits = new Set(texts.map((t) => /\.(\d+)Z$/.exec(t)?.[1]?.length ?? 0))
    expect([...digits].sort()).toEqual([0, 3, 6, 9])
  })

  it("every CreateHumanUserPassword variant", () => {
    const keys = new Set(
      sample(Operations.operations.CreateHumanUserPassword.request).map((r) =>
        Object.keys(r).join(",")
      )
    )
    expect([...keys].sort()).toEqual(["email", "id", "username"])
  })

  it("filters with conditions, groups and nested groups", () => {
    const filters = sample(Operations.operations.ListSatellites.request, 500).flatMap((r) =>
      r.filter === undefined ? [] : [r.filter]
    )
    expect(filters.some((f) => "field" in f)).toBe(true)
    expect(filters.some((f) => "group" in f && f.group?.filters.some((g) => "group" in g))).toBe(
      true
    )
  })
})
