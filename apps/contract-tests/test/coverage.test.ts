import { ContractRules } from "@data-access/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"

// Each run reports, for every rule of the contract, how many cases judged it and on which
// operations, and for a rule none judged, why.

const coverageOf = (report: Report.Report) =>
  new Map((report.coverage ?? []).map((c) => [c.rule, c]))

describe("coverage of the contract in every run", () => {
  it.scoped("every rule is listed: judged with its operations, or not judged with the reason", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({
        seed: 3,
        examples: 3,
        checks: ["auth", "secrets", "error-shape", "no-server-errors"]
      })
      const coverage = coverageOf(report)
      expect([...coverage.keys()].sort()).toEqual(ContractRules.rules.map((r) => r.id).sort())
      const auth = coverage.get("auth.key-required")!
      expect(auth.judged).toBeGreaterThanOrEqual(22)
      expect(auth.operations.length).toBe(22)
      expect(coverage.get("secrets.key-not-in-errors")!.judged).toBeGreaterThan(0)
      expect(coverage.get("paging" as never)).toBeUndefined()
      for (const c of coverage.values()) {
        if (["auth", "secrets", "error-shape", "no-server-errors"].includes(c.check)) continue
        expect([c.rule, c.judged, c.reason]).toEqual([
          c.rule,
          0,
          `excluded (check ${c.check} not selected)`
        ])
      }
      const terminal = Report.toTerminal(report)
      expect(terminal).toMatch(
        new RegExp(`Contract coverage: \\d+ of ${ContractRules.rules.length} rules judged`)
      )
      expect(terminal).toContain("not judged: lists.count: excluded (check paging not selected)")
      expect(Report.toJUnit(report)).toContain(
        `<property name="rule.auth.key-required" value="judged ${auth.judged} on `
      )
      expect(JSON.parse(Report.toJson(report)).coverage).toHaveLength(ContractRules.rules.length)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "every run lists per operation and field the dimensions of its inputs it sent, on each side",
    () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 3,
          examples: 3,
          operations: ["ListSatellites", "CreatePolicyDataLoader"],
          checks: ["invalid-rejected", "valid-accepted"]
        })
        const field = (operation: string, name: string) =>
          report.fields?.find((f) => f.operation === operation && f.field === name)
        // The refused side: a one-of inside the filter, both sides of a bound, explicit zero values.
        expect(field("ListSatellites", "filter.group")?.refused).toContain("one-of")
        expect(field("ListSatellites", "limit")?.refused).toEqual(
          expect.arrayContaining(["bound", "zero-value", "required", "json-type"])
        )
        expect(field("ListSatellites", "(body)")?.refused).toEqual(["zero-value", "json-type"])
        expect(field("CreatePolicyDataLoader", "workerSchedule")?.refused).toEqual(
          expect.arrayContaining(["bound-bytes", "multi-byte", "required"])
        )
        // The valid side: values sent, fields left out.
        expect(field("ListSatellites", "limit")?.valid).toContain("value")
        expect(field("CreatePolicyDataLoader", "description")?.valid).toContain("absent")
        expect(field("ListSatellites", "searchFields")?.valid).toContain("zero-value")
        expect(field("ListSatellites", "(body)")?.valid).toEqual([
          "escapes",
          "whitespace",
          "media-type"
        ])
        // Nested fields: a filter condition's names escaped, its value left out and sent as null.
        expect(field("ListSatellites", "filter.field.key")?.valid).toEqual(
          expect.arrayContaining(["value", "escapes"])
        )
        expect(field("ListSatellites", "filter.field.value")?.valid).toEqual(
          expect.arrayContaining(["zero-value"])
        )
        expect(new Set(report.fields?.map((f) => f.operation))).toEqual(
          new Set(["ListSatellites", "CreatePolicyDataLoader"])
        )
        expect(Report.toTerminal(report)).toMatch(
          /Input coverage: \d+ fields of 2 operations; fields per dimension sent valid: value \d+, absent \d+.*; refused: .*one-of \d+/
        )
        expect(Report.toHtml(report)).toContain('data-count="input-coverage"')
        expect(JSON.parse(Report.toJson(report)).fields).toEqual(report.fields)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("read-only mode: the rules only writes can judge say so", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({
        seed: 4,
        examples: 3,
        readOnly: true,
        checks: ["create-echo", "stable-reads"]
      })
      const coverage = coverageOf(report)
      expect(coverage.get("echo.create")).toMatchObject({
        judged: 0,
        reason: expect.stringContaining("read-only mode")
      })
      expect(coverage.get("reads.named-object")!.judged).toBeGreaterThan(0)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
