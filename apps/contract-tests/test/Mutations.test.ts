import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Operations } from "@data-access/schema"
import * as Mutations from "../src/Mutations.js"

describe("Mutations.derive", () => {
  it("breaks the limit range, the order enum and drops the required limit of a List request", () => {
    const op = Operations.operations.ListSatellites
    const rules = Mutations.derive(op.request, { limit: 10, order: "asc" }).map((m) => m.rule)
    expect(rules).toContain("limit: below minimum 1")
    expect(rules).toContain("limit: above maximum 500")
    expect(rules).toContain("limit: required field missing")
    expect(rules).toContain("limit: not an integer")
    expect(rules).toContain("order: not one of the allowed values")
    expect(rules).toContain("limit: wrong JSON type")
  })

  it("sends an allowed enum value in upper case: enums compare exactly", () => {
    const ms = Mutations.derive(Operations.operations.ListSatellites.request, { limit: 10, order: "asc" })
    expect(ms.find((m) => m.rule === "order: an allowed value in upper case")?.body).toEqual({ limit: 10, order: "ASC" })
    const loader = Mutations.derive(Operations.operations.CreatePolicyDataLoader.request, {
      name: "n", description: "d", key: "k", workerRuntime: "python3.11", workerCode: "c", workerSchedule: "*/30 * * * * *", status: "draft"
    })
    expect(loader.find((m) => m.rule === "status: an allowed value in upper case")?.body).toMatchObject({ status: "DRAFT" })
    expect(loader.find((m) => m.rule === "workerRuntime: an allowed value in upper case")?.body).toMatchObject({ workerRuntime: "PYTHON3.11" })
  })

  it("sets two variants of CreateHumanUserPassword at once", () => {
    const op = Operations.operations.CreateHumanUserPassword
    const ms = Mutations.derive(op.request, { email: "a@example.com" })
    const both = ms.find((m) => m.rule.includes("username set too"))
    expect(both?.body).toEqual({ email: "a@example.com", username: "a@example.com" })
    expect(ms.some((m) => m.rule.includes("email removed"))).toBe(true)
  })

  it("breaks the connector name pattern and the port-like ranges", () => {
    const op = Operations.operations.CreateConnector
    const ms = Mutations.derive(op.request, { name: "abc" })
    expect(ms.some((m) => m.rule.startsWith("name: does not match"))).toBe(true)
  })

  it("reaches nested objects and arrays (BI secrets, searchFields, filters)", () => {
    const bi = Mutations.derive(Operations.operations.CreateBIIntegration.request, { name: "n", biVendorA: { apiKey: "k", apiSecret: "s" } })
    expect(bi.map((m) => m.rule)).toContain("biVendorA.apiKey: shorter than min length 1")
    const list = Mutations.derive(Operations.operations.ListIntegrationsMDM.request, {
      limit: 5,
      searchFields: ["name"],
      filter: { field: { key: "name", operator: "equals", value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" } } }
    })
    const rules = list.map((m) => m.rule)
    expect(rules).toContain("searchFields[0]: not one of the allowed values")
    expect(rules).toContain("filter.field.key: not one of the allowed values")
    expect(rules).toContain("filter.field.operator: not one of the allowed values")
  })

  it("only yields bodies the schema rejects, for generated requests of every operation", () => {
    for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
      const samples = FastCheck.sample(Arbitrary.make(op.request), { seed: 7, numRuns: 10 })
      for (const s of samples) {
        const encoded = Schema.encodeSync(op.request)(s)
        const ms = Mutations.derive(op.request, encoded)
        expect(ms.length, op.method).toBeGreaterThan(0)
        for (const m of ms) expect(Option.isNone(Schema.decodeUnknownOption(op.request)(m.body)), `${op.method} ${m.rule}`).toBe(true)
      }
    }
  })
})
