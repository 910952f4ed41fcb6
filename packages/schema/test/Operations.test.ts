// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as Operations from "../src/Operations.js"
import { table } from "./oracle.js"
import { decode, wire } from "./util.js"

type AnySchema = Schema.Schema<any, any>

/** The top-level field names of a schema's wire form. */
const wireFields = (schema: AnySchema): ReadonlyArray<string> =>
  SchemaAST.getPropertySignatures(Schema.encodedSchema(schema).ast)
    .map((p) => String(p.name))
    .sort()

describe("the operation table", () => {
  it("has exactly the 22 operations of the interface", () => {
    expect(Operations.all).toHaveLength(22)
    expect(new Set(Operations.all.map((o) => `${o.service}/${o.method}`))).toEqual(
      new Set(table.map(([s, m]) => `${s}/${m}`))
    )
    expect(Object.keys(Operations.operations).sort()).toEqual(table.map(([, m]) => m).sort())
  })

  it("keeps the order of the interface's endpoint table", () => {
    expect(Operations.all.map((o) => o.method)).toEqual(table.map(([, m]) => m))
  })

  describe.each(table)("%s/%s", (service, method, kind, key) => {
    const op = Operations.all.find((o) => o.method === method)!

    it("path, kind, retry safety and headers", () => {
      expect(op.service).toBe(service)
      expect(op.path).toBe(`/core.v1.${service}/${method}`)
      expect(Operations.byPath.get(op.path)).toBe(op)
      expect(op.kind).toBe(kind)
      expect(op.safeToRetry).toBe(kind === "get" || kind === "list")
      expect(op.requiredHeaders).toEqual(
        method === "CreatePermission" ? { "connect-protocol-version": "1" } : {}
      )
      expect(Operations.services.get(op.service as Operations.ServiceName)).toContain(op)
    })

    if (kind === "list") {
      it(`answers { ${key}: [...], listMetadata }`, () => {
        expect(op.itemField).toBe(key)
        expect(op.wrapperKey).toBeUndefined()
        expect(wireFields(op.response)).toEqual([key!, "listMetadata"].sort())
        expect(wireFields(op.request)).toEqual(expect.arrayContaining(["limit", "cursor", "order"]))
      })
    } else if (key !== undefined) {
      it(`answers { ${key}: ... }`, () => {
        expect(op.wrapperKey).toBe(key)
        expect(op.itemField).toBeUndefined()
        expect(wireFields(op.response)).toEqual([key])
      })
    } else {
      it("answers with the HumanUserPassword fields at the top level", () => {
        expect(op.wrapperKey).toBeUndefined()
        expect(wireFields(op.response)).toEqual([
          "createdAt",
          "expiresAt",
          "groups",
          "password",
          "username"
        ])
      })
    }

    it("carries its object under that key", () => {
      const objectSchema = op.object as AnySchema
      const [value] = FastCheck.sample(Arbitrary.make(objectSchema), 1)
      const encoded = wire(Schema.encodeSync(objectSchema)(value))
      const body =
        kind === "list"
          ? { [key!]: [encoded, encoded], listMetadata: { count: 2 } }
          : method === "GetEncryptionKeysByKeyId"
            ? { [key!]: [encoded] }
            : key === undefined
              ? encoded
              : { [key]: encoded }
      const response = decode(op.response as AnySchema, body)
      const item =
        kind === "list"
          ? response[key!][0]
          : method === "GetEncryptionKeysByKeyId"
            ? response[key!][0]
            : key === undefined
              ? response
              : response[key]
      expect(Schema.equivalence(objectSchema)(item, value)).toBe(true)
    })
  })

  it("lists the services with their methods", () => {
    const services = new Set(table.map(([s]) => s))
    expect(new Set(Operations.services.keys())).toEqual(services)
    for (const s of services) {
      expect(
        Operations.services
          .get(s as Operations.ServiceName)!
          .map((o) => o.method)
          .sort()
      ).toEqual(
        table
          .filter(([t]) => t === s)
          .map(([, m]) => m)
          .sort()
      )
    }
  })

  it("finds no operation for an unknown path", () => {
    expect(Operations.byPath.get("/core.v1.ResourceService/DeleteResource")).toBeUndefined()
    expect(Operations.byPath.get("/core.v2.ResourceService/GetResource")).toBeUndefined()
  })

  it("writes the list fields of interface.md on the List requests", () => {
    expect(wireFields(Operations.operations.ListSatellites.request)).toEqual([
      "cursor",
      "filter",
      "limit",
      "order",
      "search",
      "searchFields",
      "spaceId"
    ])
    expect(wireFields(Operations.operations.ListIntegrationsMDM.request)).toEqual([
      "cursor",
      "filter",
      "limit",
      "order",
      "search",
      "searchFields"
    ])
    expect(wireFields(Operations.operations.ListLogQueries.request)).toEqual([
      "cursor",
      "limit",
      "order"
    ])
    expect(wireFields(Operations.operations.ListNativeUsers.request)).toEqual([
      "cursor",
      "limit",
      "order",
      "resourceId"
    ])
  })
})
