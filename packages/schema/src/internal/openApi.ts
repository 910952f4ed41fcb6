import * as OpenApiJsonSchema from "@effect/platform/OpenApiJsonSchema"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import * as Code from "@data-access/core/Code"
import { ErrorBody } from "./errorBody.js"
import { all } from "./operationIndex.js"
import type { Document } from "../OpenApi.js"

export const make = (options: {
  readonly version: string
  readonly serverUrl?: string
}): Document => {
  const defs: Record<string, unknown> = {}
  const schemaOf = (schema: Schema.Schema.All) =>
    OpenApiJsonSchema.makeWithDefs(schema as Schema.Schema<unknown, unknown>, {
      defs,
      defsPath: "#/components/schemas/",
      additionalPropertiesStrategy: "allow"
    })
  // A refinement over a transformation (CreateHumanUserPasswordRequest's one-of rule over its
  // nullable fields) is dropped from the wire form; its own `jsonSchema` annotation says it.
  const bodyOf = (schema: Schema.Schema.All) => {
    const own = SchemaAST.getJSONSchemaAnnotation(schema.ast)
    const id = SchemaAST.getIdentifierAnnotation(schema.ast)
    if (SchemaAST.isRefinement(schema.ast) && Option.isSome(own) && Option.isSome(id)) {
      defs[id.value] = own.value
      return { $ref: `#/components/schemas/${id.value}` }
    }
    return schemaOf(schema)
  }
  const errorBody = schemaOf(ErrorBody)
  const errorResponse = (description: string) => ({
    description,
    content: { "application/json": { schema: errorBody } }
  })
  const paths: Record<string, unknown> = {}
  for (const op of all) {
    const headers = Object.entries(op.requiredHeaders).map(([name, value]) => ({
      name,
      in: "header",
      required: true,
      schema: { type: "string", enum: [value] }
    }))
    paths[op.path] = {
      post: {
        operationId: `${op.service}_${op.method}`,
        tags: [op.service],
        summary: `${op.service}/${op.method} (${op.kind})`,
        parameters: [
          ...headers,
          {
            name: "Connect-Timeout-Ms",
            in: "header",
            required: false,
            description: "Call deadline in milliseconds (1 to 10 digits).",
            schema: { type: "string", pattern: "^[0-9]{1,10}$" }
          }
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: bodyOf(op.request) } }
        },
        responses: {
          "200": {
            description: "Success",
            content: { "application/json": { schema: schemaOf(op.response) } }
          },
          default: errorResponse(
            `A Connect error. Codes and statuses: ${Code.codes
              .map((c) => `${c} ${Code.statusOf(c)}`)
              .join(", ")}; unimplemented is 404 for an unknown route.`
          )
        }
      }
    }
  }
  // Effect writes `unknown` as `{ "$id": "/schemas/unknown" }`; the same `$id` at two places is
  // an invalid JSON Schema (a 2020-12 validator refuses the document), so it is left out.
  for (const [name, schema] of Object.entries(defs)) defs[name] = withoutSchemaIds(schema)
  return {
    openapi: "3.1.0",
    info: {
      title: "Data-access management API",
      version: options.version,
      description:
        "Connect RPC over HTTP with JSON. Every operation is POST {base_url}/core.v1.<Service>/<Method>. Generated from the operation table of @data-access/schema."
    },
    servers: [{ url: options.serverUrl ?? "http://127.0.0.1:8080" }],
    paths,
    components: {
      schemas: defs,
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-API-KEY" } }
    },
    security: [{ apiKey: [] }]
  }
}

const withoutSchemaIds = (u: unknown): unknown => {
  if (Array.isArray(u)) return u.map(withoutSchemaIds)
  if (u !== null && typeof u === "object") {
    return Object.fromEntries(
      Object.entries(u)
        .filter(([k, v]) => !(k === "$id" && typeof v === "string" && v.startsWith("/schemas/")))
        .map(([k, v]) => [k, withoutSchemaIds(v)])
    )
  }
  return u
}
