// The two views of the API held together: for every request and response schema of the operation
// table, what the Effect Schema encodes the protobuf-es message generated from the `.proto` reads,
// and what that message writes (proto3 JSON, zero values left out or emitted, or through the
// binary form) the Effect Schema decodes back to the same value. Values come from the schemas'
// own arbitraries, with every string drawn from the whole of Unicode.
import {
  createRegistry,
  type DescMessage,
  fromBinary,
  fromJson,
  type JsonValue,
  toBinary,
  toJson
} from "@bufbuild/protobuf"
import { file_google_protobuf_wrappers } from "@bufbuild/protobuf/wkt"
import { describe, expect, it } from "@effect/vitest"
import { Operations } from "@data-access/schema"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { file_core_v1_api } from "../src/gen/core/v1/api_pb.js"

// The filter's `value` is a `google.protobuf.Any` holding a `StringValue`.
const registry = createRegistry(file_core_v1_api, file_google_protobuf_wrappers)

const messageOf = (name: string): DescMessage => {
  const desc = registry.getMessage(`core.v1.${name}`)
  if (desc === undefined) throw new Error(`the .proto has no message ${name}`)
  return desc
}

/** fast-check whose default strings are any Unicode code points (Effect's default is ASCII). */
const unicode: typeof FastCheck = {
  ...FastCheck,
  string: (constraints?: FastCheck.StringConstraints) =>
    FastCheck.string({ unit: "binary", ...constraints })
}

const arbitraryOf = <A, I>(schema: Schema.Schema<A, I>): FastCheck.Arbitrary<A> =>
  Arbitrary.makeLazy(schema)(unicode)

/** A JSON value as it crosses the wire (no `undefined`, no shared references). */
const wire = (u: unknown): JsonValue => JSON.parse(JSON.stringify(u)) as JsonValue

/** A JSON value without its empty arrays: proto3 has no absent repeated field apart from `[]`. */
const withoutEmptyLists = (json: JsonValue): JsonValue => {
  if (Array.isArray(json)) return json.map(withoutEmptyLists)
  if (json === null || typeof json !== "object") return json
  return Object.fromEntries(
    Object.entries(json)
      .filter(([, v]) => !(Array.isArray(v) && v.length === 0))
      .map(([k, v]) => [k, withoutEmptyLists(v)])
  )
}

interface Case {
  readonly name: string
  readonly schema: Schema.Schema<unknown, unknown>
  readonly message: DescMessage
}

const cases: ReadonlyArray<Case> = Operations.all.flatMap((o) => [
  {
    name: `${o.method}Request`,
    schema: o.request as unknown as Schema.Schema<unknown, unknown>,
    message: messageOf(`${o.method}Request`)
  },
  {
    name: `${o.method}Response`,
    schema: o.response as unknown as Schema.Schema<unknown, unknown>,
    message: messageOf(`${o.method}Response`)
  }
])

/** Reads proto3 JSON with the Effect Schema and writes it back in the schema's wire form. */
const viaSchema = (schema: Schema.Schema<unknown, unknown>, json: JsonValue): JsonValue =>
  wire(Schema.encodeSync(schema)(Schema.decodeUnknownSync(schema)(json)))

const roundTrips = ({ message, schema }: Case) => {
  const encode = Schema.encodeSync(schema)
  return (value: unknown): void => {
    const json = wire(encode(value))
    // Effect -> protobuf-es: the generated message reads what the schema writes.
    const msg = fromJson(message, json, { registry })
    // protobuf-es -> Effect, in each form a faithful peer may write.
    const plain = toJson(message, msg, { registry })
    const implicit = toJson(message, msg, { registry, alwaysEmitImplicit: true })
    const binary = toJson(message, fromBinary(message, toBinary(message, msg)), { registry })
    // An empty list and an absent one are one value in proto3 (and to the server): a List
    // request's `searchFields: []` reads back absent, and an absent one written out reads as `[]`.
    const expected = withoutEmptyLists(json)
    expect(withoutEmptyLists(viaSchema(schema, plain))).toStrictEqual(expected)
    expect(withoutEmptyLists(viaSchema(schema, implicit))).toStrictEqual(expected)
    expect(binary).toStrictEqual(plain)
  }
}

describe("the .proto and the Effect Schemas", () => {
  it("have a generated message for every request and response of the table", () => {
    expect(cases).toHaveLength(44)
    expect(file_core_v1_api.services.map((s) => s.methods.length).reduce((a, b) => a + b, 0)).toBe(
      22
    )
    for (const o of Operations.all) {
      const service = registry.getService(`core.v1.${o.service}`)
      const method = service?.methods.find((m) => m.name === o.method)
      expect(method?.input.typeName).toBe(`core.v1.${o.method}Request`)
      expect(method?.output.typeName).toBe(`core.v1.${o.method}Response`)
    }
  })

  it("generated values hold strings from beyond the Basic Multilingual Plane", () => {
    const samples = FastCheck.sample(arbitraryOf(Schema.Array(Schema.String)), 50).flat()
    expect(samples.some((s) => [...s].some((c) => c.codePointAt(0)! > 0xffff))).toBe(true)
  })

  it("carry int64 as strings, nanosecond timestamps, a filter's Any value, and zero values left out", () => {
    const list = messageOf("ListLogQueriesResponse")
    const schema = Operations.operations.ListLogQueries.response
    const json = {
      savedQueries: [
        {
          id: "q1",
          query: { relativeTime: "-9223372036854775808", filters: [{ name: "ü😀" }] }
        }
      ],
      listMetadata: { count: 1 }
    }
    const back = toJson(list, fromJson(list, json, { registry }), { registry })
    expect(back).toStrictEqual(json)
    expect(Schema.decodeUnknownSync(schema)(back).savedQueries[0]?.query?.relativeTime).toBe(
      -9223372036854775808n
    )

    const satellite = messageOf("GetResourceResponse")
    const at = "0001-01-01T00:00:00.000000001Z"
    const resource = {
      resource: { id: "r1", port: 1, createdAt: at, updatedAt: "9999-12-31T23:59:59.999999999Z" }
    }
    expect(
      toJson(satellite, fromJson(satellite, resource, { registry }), { registry })
    ).toStrictEqual(resource)
    const decoded = Schema.decodeUnknownSync(Operations.operations.GetResource.response)(resource)
    expect(decoded.resource.createdAt?.nanos).toBe(1)
    expect(decoded.resource.name).toBe("")

    const listSatellites = messageOf("ListSatellitesRequest")
    const request = {
      limit: 1,
      filter: {
        group: {
          operator: "or",
          filters: [
            {
              field: {
                key: "name",
                operator: "equals",
                value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
              }
            },
            { field: { key: "name", operator: "empty" } }
          ]
        }
      },
      order: ""
    }
    // `order: ""` is kept: an optional field of a request has explicit presence.
    expect(
      toJson(listSatellites, fromJson(listSatellites, request, { registry }), { registry })
    ).toStrictEqual(request)
  })

  for (const c of cases) {
    it.prop(
      `${c.name}: Effect -> protobuf-es -> Effect`,
      [arbitraryOf(c.schema)],
      ([value]) => roundTrips(c)(value),
      {
        fastCheck: { numRuns: 100 }
      }
    )
  }
})
