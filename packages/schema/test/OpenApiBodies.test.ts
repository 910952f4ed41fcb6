// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import * as Schema from "effect/Schema"
import * as ConnectError from "../src/ConnectError.js"
import * as OpenApi from "../src/OpenApi.js"
import * as Operations from "../src/Operations.js"
import * as ProtoJson from "../src/ProtoJson.js"
import * as Timestamp from "../src/Timestamp.js"
import { wire } from "./util.js"

// The document's JSON Schemas, read by a JSON Schema 2020-12 validator (the dialect of OpenAPI
// 3.1), with `date-time` meaning what the interface means by a timestamp.
const ajv = new Ajv2020({ strict: false, allErrors: true })
ajv.addFormat("date-time", (s: string) => typeof Timestamp.parse(s) !== "string")
ajv.addSchema({ $id: "openapi", ...(wire(OpenApi.make({ version: "0.0.0" })) as object) })
const validator = (name: string) => {
  const v = ajv.getSchema(`openapi#/components/schemas/${name}`)
  if (v === undefined) throw new Error(`no schema ${name}`)
  return (body: unknown) => (v(body) ? "" : ajv.errorsText(v.errors))
}

type AnySchema = Schema.Schema<any, any>

describe("bodies the schemas accept are valid for the OpenAPI document", () => {
  for (const op of Operations.all) {
    const request = validator(`${op.method}Request`)
    const response = validator(`${op.method}Response`)
    const encodeRequest = Schema.encodeSync(op.request as AnySchema)
    const encodeResponse = Schema.encodeSync(op.response as AnySchema)
    it.prop(
      `${op.method}: generated request and response bodies`,
      { req: op.request as AnySchema, res: op.response as AnySchema },
      ({ req, res }) => {
        expect(request(wire(encodeRequest(req)))).toBe("")
        const body = wire(encodeResponse(res))
        expect(response(body)).toBe("")
        expect(response(ProtoJson.omitZeroValues(body))).toBe("")
      },
      { fastCheck: { numRuns: 30 } }
    )
  }

  it.prop("Connect error bodies", { body: ConnectError.ErrorBody }, ({ body }) => {
    expect(
      validator("ConnectErrorBody")(wire(Schema.encodeSync(ConnectError.ErrorBody)(body)))
    ).toBe("")
  })
})

describe("bodies the schemas reject are invalid for the OpenAPI document too", () => {
  it.each([
    ["ListSatellitesRequest", { limit: 0 }],
    ["ListSatellitesRequest", { limit: 501 }],
    ["ListSatellitesRequest", {}],
    ["ListSatellitesRequest", { limit: 1, order: "up" }],
    ["ListSatellitesRequest", { limit: 1, filter: { group: { operator: "and", filters: [] } } }],
    [
      "ListSatellitesRequest",
      { limit: 1, filter: { field: { key: "region", operator: "empty" } } }
    ],
    ["CreateConnectorRequest", { name: "AB" }],
    [
      "CreatePolicyDataLoaderRequest",
      { name: "n", key: "k", workerCode: "c", workerSchedule: "* * * * " }
    ],
    ["CreateHumanUserPasswordRequest", {}],
    ["CreateHumanUserPasswordRequest", { email: "a@b.c", id: "u" }],
    ["GetResourceResponse", { resource: { id: "r", port: 0 } }],
    ["GetResourceResponse", { resource: { id: "r", port: 22, createdAt: "2024-01-01T00:00:00" } }],
    ["CreatePermissionResponse", { permission: { id: "p", description: "d", code: "c" } }],
    ["ConnectErrorBody", { code: "teapot" }]
  ])("%s %j", (name, body) => {
    expect(validator(name)(body)).not.toBe("")
  })

  it("and accept the one-of variants with null for the others", () => {
    const v = validator("CreateHumanUserPasswordRequest")
    expect(v({ email: "a@b.c" })).toBe("")
    expect(v({ id: "u", email: null, username: null })).toBe("")
  })
})
