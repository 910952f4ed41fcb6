import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Operations } from "@data-access/schema"
import * as Mutations from "../src/Mutations.js"
import { decodeBreach } from "../src/internal/judge/decodeBreach.js"

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
    const ms = Mutations.derive(Operations.operations.ListSatellites.request, {
      limit: 10,
      order: "asc"
    })
    expect(ms.find((m) => m.rule === "order: an allowed value in upper case")?.body).toEqual({
      limit: 10,
      order: "ASC"
    })
    const loader = Mutations.derive(Operations.operations.CreatePolicyDataLoader.request, {
      name: "n",
      description: "d",
      key: "k",
      workerRuntime: "python3.11",
      workerCode: "c",
      workerSchedule: "*/30 * * * * *",
      status: "draft"
    })
    expect(
      loader.find((m) => m.rule === "status: an allowed value in upper case")?.body
    ).toMatchObject({ status: "DRAFT" })
    expect(
      loader.find((m) => m.rule === "workerRuntime: an allowed value in upper case")?.body
    ).toMatchObject({ workerRuntime: "PYTHON3.11" })
  })

  it("sets two variants of CreateHumanUserPassword at once", () => {
    const op = Operations.operations.CreateHumanUserPassword
    const ms = Mutations.derive(op.request, { email: "a@example.com" })
    const both = ms.find((m) => m.rule.includes("username set too"))
    expect(both?.body).toEqual({ email: "a@example.com", username: "a@example.com" })
    expect(ms.some((m) => m.rule.includes("email removed"))).toBe(true)
  })

  it("sets the filter's condition and its group at once, at every depth", () => {
    const op = Operations.operations.ListSatellites
    const condition = {
      field: {
        key: "name",
        operator: "equals",
        value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
      }
    }
    const body = { limit: 5, filter: { group: { operator: "or", filters: [condition] } } }
    const ms = Mutations.derive(op.request, body).filter((m) => m.ruleId === "filter.one-of")
    expect(ms.map((m) => m.rule)).toEqual([
      "filter.group.filters[0]: field and group at once (one of)",
      "filter: group and field at once (one of)"
    ])
    const [nested, top] = ms.map((m) => m.body as { filter: any })
    expect(top!.filter.group).toEqual(body.filter.group)
    expect(Object.keys(top!.filter.field)).toEqual(expect.arrayContaining(["key", "operator"]))
    expect(nested!.filter.group.filters[0].field).toEqual(condition.field)
    expect(Object.keys(nested!.filter.group.filters[0].group)).toEqual(["operator", "filters"])
    for (const m of ms)
      expect(decodeBreach(op, m.body as Record<string, unknown>)?.rule).toBe("filter.one-of")
  })

  it("sends an entry of another JSON type in a list, at the top and inside the filter's groups", () => {
    const op = Operations.operations.ListSatellites
    const condition = { field: { key: "id", operator: "not_empty" } }
    const body = {
      limit: 5,
      searchFields: ["name"],
      filter: { group: { operator: "or", filters: [condition] } }
    }
    const ms = Mutations.derive(op.request, body).filter((m) =>
      m.rule.endsWith("[0]: wrong JSON type")
    )
    expect(ms.map((m) => [m.rule, m.dimensions])).toEqual([
      ["searchFields[0]: wrong JSON type", ["json-type"]],
      ["filter.group.filters[0]: wrong JSON type", ["json-type"]]
    ])
    expect((ms[0]!.body as { searchFields: unknown }).searchFields).toEqual([12345])
    for (const m of ms)
      expect(decodeBreach(op, m.body as Record<string, unknown>)?.rule).toBe("fields.json-type")
  })

  it("breaks the connector name pattern and the port-like ranges", () => {
    const op = Operations.operations.CreateConnector
    const ms = Mutations.derive(op.request, { name: "abc" })
    expect(ms.some((m) => m.rule.startsWith("name: does not match"))).toBe(true)
  })

  it("reaches nested objects and arrays (BI secrets, searchFields, filters)", () => {
    const bi = Mutations.derive(Operations.operations.CreateBIIntegration.request, {
      name: "n",
      biVendorA: { apiKey: "k", apiSecret: "s" }
    })
    expect(bi.map((m) => m.rule)).toContain("biVendorA.apiKey: shorter than min length 1")
    const list = Mutations.derive(Operations.operations.ListIntegrationsMDM.request, {
      limit: 5,
      searchFields: ["name"],
      filter: {
        field: {
          key: "name",
          operator: "equals",
          value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
        }
      }
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
        for (const m of ms)
          expect(
            Option.isNone(Schema.decodeUnknownOption(op.request)(m.body)),
            `${op.method} ${m.rule}`
          ).toBe(true)
      }
    }
  })

  it("cites the rule the broken constraint states, never one read from a message", () => {
    const ruleOf = (op: Operations.Operation, encoded: unknown, label: string) =>
      Mutations.derive(op.request, encoded).find((m) => m.rule === label)?.ruleId
    const list = Operations.operations.ListSatellites
    expect(ruleOf(list, { limit: 10 }, "limit: below minimum 1")).toBe("lists.limit-range")
    expect(ruleOf(list, { limit: 10 }, "limit: required field missing")).toBe("lists.limit-range")
    expect(ruleOf(list, { limit: 10 }, "limit: not an integer")).toBe("fields.json-type")
    expect(ruleOf(list, { limit: 10, order: "asc" }, "order: an allowed value in upper case")).toBe(
      "fields.enum"
    )
    const filter = {
      limit: 5,
      filter: {
        group: {
          operator: "and",
          filters: [
            {
              field: {
                key: "name",
                operator: "equals",
                value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
              }
            }
          ]
        }
      }
    }
    expect(ruleOf(list, filter, "filter.group.filters: empty array")).toBe("filter.group-not-empty")
    expect(
      ruleOf(list, filter, "filter.group.filters[0].field.key: not one of the allowed values")
    ).toBe("filter.unknown-key")
    expect(
      ruleOf(list, filter, "filter.group.filters[0].field.operator: not one of the allowed values")
    ).toBe("filter.unknown-key")
    expect(
      ruleOf(
        Operations.operations.CreateConnector,
        { name: "abc" },
        "name: does not match ^[0-9a-z-]{3,63}$"
      )
    ).toBe("fields.connector-name")
    expect(
      ruleOf(
        Operations.operations.CreateHumanUserPassword,
        { email: "a@example.com" },
        "(body): username set too (rule across fields)"
      )
    ).toBe("fields.one-of")
    expect(
      ruleOf(Operations.operations.GetResource, { id: "x" }, "id: shorter than min length 1")
    ).toBe("fields.min-length")
  })

  it("sends no base64 spelling that proto3 JSON's bytes reader takes (whitespace, either alphabet, padding or none) as invalid", () => {
    const op = Operations.operations.UpdateConnectorHostname
    const ms = Mutations.derive(op.request, {
      id: "x",
      certificate: "YWJjZGVm",
      privateKey: "YWJjZA=="
    })
    const sent = ms.filter((m) => m.path[0] === "certificate" || m.path[0] === "privateKey")
    // What protobuf-es's base64 reader refuses: a character outside both alphabets, a last group of one character.
    for (const m of sent) {
      const v = (m.body as Record<string, unknown>)[m.path[0] as string]
      if (typeof v === "string")
        expect(
          /[^A-Za-z0-9+/_=\t\n\r -]/.test(v) ||
            v.replace(/^.*=/s, "").replace(/\s/g, "").length % 4 === 1,
          `${m.rule} ${JSON.stringify(v)}`
        ).toBe(true)
    }
    expect(sent.some((m) => m.ruleId === "fields.json-type")).toBe(true)
    for (const v of ["YWJj ZGVm", "YWJjZA", "YW_jZA--", "YWJj\nZA==", ""]) {
      expect(
        Option.isSome(Schema.decodeUnknownOption(op.request)({ id: "x", certificate: v })),
        JSON.stringify(v)
      ).toBe(true)
    }
  })

  it("tags each mutation with the dimensions of its field it exercises: a bound, an explicit zero value, a one-of at depth", () => {
    const dims = (op: Operations.Operation, body: unknown) =>
      new Map(Mutations.derive(op.request, body).map((m) => [m.rule, m.dimensions]))
    const list = dims(Operations.operations.ListSatellites, {
      limit: 10,
      filter: {
        field: {
          key: "name",
          operator: "equals",
          value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "x" }
        }
      }
    })
    expect(list.get("limit: below minimum 1")).toEqual(["bound", "zero-value"])
    expect(list.get("limit: above maximum 500")).toEqual(["bound"])
    expect(list.get("limit: required field null")).toEqual(["required", "zero-value"])
    expect(list.get("limit: required field missing")).toEqual(["required"])
    expect(list.get("limit: wrong JSON type")).toEqual(["json-type"])
    expect(
      [...list.entries()].find(([rule]) => rule.startsWith("filter: field and group at once"))?.[1]
    ).toEqual(["one-of"])
    const loader = dims(Operations.operations.CreatePolicyDataLoader, {
      name: "n",
      description: "d",
      key: "k",
      workerRuntime: "python3.11",
      workerCode: "c",
      workerSchedule: "*/30 * * * * *",
      status: "draft"
    })
    expect(loader.get("status: not one of the allowed values")).toEqual(["enum"])
    expect(loader.get("workerSchedule: shorter than min length 9")).toEqual(["bound"])
    // Every mutation that sets a field to an explicit zero value says so.
    for (const op of [
      Operations.operations.CreatePolicyDataLoader,
      Operations.operations.ListSatellites
    ] as ReadonlyArray<Operations.Operation>)
      for (const s of FastCheck.sample(Arbitrary.make(op.request), { seed: 3, numRuns: 5 }))
        for (const m of Mutations.derive(op.request, Schema.encodeSync(op.request)(s))) {
          const at = m.path.reduce<unknown>((v, k) => (v as never)?.[k], m.body)
          const zero =
            at === "" ||
            at === 0 ||
            at === false ||
            at === null ||
            (Array.isArray(at) && at.length === 0)
          expect(m.dimensions.includes("zero-value"), `${m.rule} ${JSON.stringify(at)}`).toBe(zero)
        }
  })

  it("cites for every mutation of every operation the rule the proxy reads from the decoding issue of the same body", () => {
    for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
      for (const s of FastCheck.sample(Arbitrary.make(op.request), { seed: 11, numRuns: 5 })) {
        for (const m of Mutations.derive(op.request, Schema.encodeSync(op.request)(s))) {
          if (m.ruleId === undefined || m.body === null || typeof m.body !== "object") continue
          expect(
            decodeBreach(op, m.body as Record<string, unknown>)?.rule,
            `${op.method} ${m.rule}`
          ).toBe(m.ruleId)
        }
      }
    }
  })

  it("leaves out with skip exactly the variants it names, the others as without it", () => {
    const skips: ReadonlyArray<(v: Omit<Mutations.Mutation, "body" | "dimensions">) => boolean> = [
      (v) => v.kind === "json-type" || v.kind === "required",
      (v) => v.rule.length % 2 === 0,
      () => true
    ]
    for (const op of Operations.all as ReadonlyArray<Operations.Operation>)
      for (const s of FastCheck.sample(Arbitrary.make(op.request), { seed: 5, numRuns: 3 })) {
        const body = Schema.encodeSync(op.request)(s)
        const all = Mutations.derive(op.request, body)
        for (const skip of skips)
          expect(Mutations.derive(op.request, body, { skip })).toEqual(all.filter((m) => !skip(m)))
      }
  })
})
