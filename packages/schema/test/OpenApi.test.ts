// Under the machine's Node only (scripts/node-lines): the OpenAPI document derived from the schemas and the committed one, pure data.
import { validate, compileErrors } from "@readme/openapi-parser"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import * as ConnectError from "../src/ConnectError.js"
import * as OpenApi from "../src/OpenApi.js"
import * as Operations from "../src/Operations.js"
import { table } from "./oracle.js"

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string
}
const doc = OpenApi.make({ version: pkg.version })
const json = (u: unknown): any => JSON.parse(JSON.stringify(u))
const check = (document: unknown) => Effect.promise(() => validate(json(document)))

type PathItem = {
  post: {
    operationId: string
    parameters: Array<{ name: string; in: string; required: boolean; schema: unknown }>
    requestBody: { required: boolean; content: Record<string, { schema: { $ref: string } }> }
    responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>
  }
}
const paths = doc.paths as Record<string, PathItem>
const schemas = doc.components.schemas as Record<string, any>

describe("the OpenAPI document", () => {
  it.effect("is a valid OpenAPI 3.1 document for a real validator", () =>
    Effect.gen(function* () {
      const result = yield* check(doc)
      expect(result.valid ? "" : compileErrors(result)).toBe("")
      expect(result.specification).toBe("OpenAPI")
      expect(doc.openapi).toBe("3.1.0")
      expect(doc.info.version).toBe(pkg.version)
    })
  )

  it.effect("the validator rejects a broken copy (so the check above can fail)", () =>
    Effect.gen(function* () {
      const dangling = json(doc)
      dangling.paths["/core.v1.ResourceService/GetResource"].post.requestBody.content[
        "application/json"
      ].schema = {
        $ref: "#/components/schemas/NoSuchSchema"
      }
      expect((yield* check(dangling)).valid).toBe(false)
      const badParameter = json(doc)
      badParameter.paths["/core.v1.ResourceService/GetResource"].post.parameters.push({
        name: "x",
        in: "body"
      })
      expect((yield* check(badParameter)).valid).toBe(false)
    })
  )

  it("has exactly the 22 paths of the table, POST only", () => {
    expect(Object.keys(paths).sort()).toEqual(table.map(([s, m]) => `/core.v1.${s}/${m}`).sort())
    expect(Object.keys(paths).sort()).toEqual(Operations.all.map((o) => o.path).sort())
    for (const item of Object.values(paths)) expect(Object.keys(item)).toEqual(["post"])
    const ids = Object.values(paths).map((p) => p.post.operationId)
    expect(new Set(ids).size).toBe(22)
  })

  it.each(Operations.all.map((o) => [o.path, o] as const))(
    "%s: request, response, error and headers",
    (path, op) => {
      const post = paths[path]!.post
      expect(post.requestBody.required).toBe(true)
      expect(post.requestBody.content["application/json"]!.schema).toEqual({
        $ref: `#/components/schemas/${op.method}Request`
      })
      expect(post.responses["200"]!.content["application/json"]!.schema).toEqual({
        $ref: `#/components/schemas/${op.method}Response`
      })
      expect(post.responses["default"]!.content["application/json"]!.schema).toEqual({
        $ref: "#/components/schemas/ConnectErrorBody"
      })
      expect(schemas[`${op.method}Request`]).toBeDefined()
      expect(schemas[`${op.method}Response`]).toBeDefined()
      const required = post.parameters
        .filter((p) => p.in === "header" && p.required)
        .map((p) => [p.name.toLowerCase(), p.schema])
      expect(required).toEqual(
        Object.entries(op.requiredHeaders).map(([name, value]) => [
          name,
          { type: "string", enum: [value] }
        ])
      )
    }
  )

  it("CreatePermission requires Connect-Protocol-Version: 1", () => {
    const params = paths["/core.v1.PermissionsService/CreatePermission"]!.post.parameters
    expect(params).toContainEqual({
      name: "connect-protocol-version",
      in: "header",
      required: true,
      schema: { type: "string", enum: ["1"] }
    })
  })

  it("secures every operation with the X-API-KEY header", () => {
    expect(doc.components.securitySchemes).toEqual({
      apiKey: { type: "apiKey", in: "header", name: "X-API-KEY" }
    })
    expect(doc.security).toEqual([{ apiKey: [] }])
  })

  it("describes the Connect error body with its 16 codes", () => {
    expect(schemas["ConnectErrorBody"]).toMatchObject({
      type: "object",
      required: ["code"],
      properties: {
        code: { $ref: "#/components/schemas/ConnectCode" },
        message: { type: "string" }
      }
    })
    expect([...schemas["ConnectCode"].enum].sort()).toEqual([...ConnectError.codes].sort())
    expect(schemas["ConnectErrorDetail"].required).toEqual(["type", "value"])
  })

  it("writes the rules of the interface into the JSON Schemas", () => {
    expect(schemas["Limit"]).toMatchObject({ type: "integer", minimum: 1, maximum: 500 })
    expect(schemas["Port"]).toMatchObject({ type: "integer", minimum: 1, maximum: 65535 })
    expect(schemas["ConnectorName"]).toMatchObject({ type: "string", pattern: "^[0-9a-z-]{3,63}$" })
    expect(schemas["Timestamp"]).toMatchObject({ type: "string", format: "date-time" })
    expect(schemas["Resource"].required).toEqual(["id", "port"])
    expect(schemas["Permission"].required).toEqual(["id", "name", "description", "code"])
    expect(schemas["ListNativeUsersRequest"].required).toEqual(["limit", "resourceId"])
    expect(schemas["Int64"].oneOf).toContainEqual({ type: "string", pattern: "^-?[0-9]+$" })
    // the one-of of CreateHumanUserPassword
    expect(
      schemas["CreateHumanUserPasswordRequest"].oneOf.map(
        (b: { required: Array<string> }) => b.required
      )
    ).toEqual([["email"], ["username"], ["id"]])
    // the recursive filter refers to itself
    expect(JSON.stringify(schemas["SatelliteFilter"])).toContain(
      `"$ref":"#/components/schemas/SatelliteFilter"`
    )
  })

  it("openapi.json (written by the package's build script) is the generated document", () => {
    const committed = readFileSync(new URL("../openapi.json", import.meta.url), "utf8")
    // `info.version` is the package version when the file was last built: a version bump
    // (`changeset version`) alone does not make the file stale; `pnpm release` builds it anew.
    const version = (JSON.parse(committed) as OpenApi.Document).info.version
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/)
    // If this fails: run `pnpm --filter @data-access/schema build` and commit openapi.json.
    expect(committed).toBe(JSON.stringify(OpenApi.make({ version }), null, 2) + "\n")
  })
})
