import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ReferenceServer } from "@data-access/reference-server"
import * as Embedded from "../src/Embedded.js"

// Every violation of the reference server's catalogue must fail the run and be named by the
// check the catalogue says catches it. Each run is limited to that check to stay quick.
describe("each contract violation of the reference server is caught by its check", () => {
  for (const violation of ReferenceServer.violations) {
    it.scoped(`${violation.name} → ${violation.check}`, () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 7,
          examples: 10,
          shrinkBudget: 20,
          checks: [violation.check],
          server: { faults: { rules: [{ fault: { _tag: "Violation", name: violation.name } }] } }
        })
        const checks = [...new Set(report.findings.map((f) => f.check))]
        expect(report.findings.length, violation.description).toBeGreaterThan(0)
        expect(checks).toContain(violation.check)
        const finding = report.findings.find((f) => f.check === violation.check)!
        expect(finding.replayId).toMatch(/^ct1\./)
        expect(finding.curl).not.toContain(ReferenceServer.DEFAULT_API_KEY)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )
  }
})

describe("findings", () => {
  it.scoped("are shrunk to a minimal request: only the required field and the one unknown field that breaks it", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({
        seed: 3,
        examples: 30,
        operations: ["ListSatellites"],
        checks: ["valid-accepted"],
        server: { faults: { rules: [{ fault: { _tag: "Violation", name: "rejects-unknown-field" } }] } }
      })
      expect(report.findings).toHaveLength(1)
      const f = report.findings[0]!
      expect(f.shrinkSteps).toBeGreaterThan(0)
      const body = JSON.parse(f.request.body!) as Record<string, unknown>
      expect(Object.keys(body)).toHaveLength(2)
      expect(body).toHaveProperty("limit", 1)
      expect(f.occurrences).toBeGreaterThan(1)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("response-schema findings", () => {
  for (const [violation, cause] of [
    ["wrong-field-type", "resource.id: Type"],
    ["missing-required-field", "resource.id: Missing"],
    ["non-utc-timestamp", "resource.createdAt: not Z"]
  ] as const) {
    it.scoped(`name the JSON path (${violation})`, () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 1,
          examples: 5,
          operations: ["GetResource"],
          checks: ["response-schema"],
          server: { faults: { rules: [{ fault: { _tag: "Violation", name: violation } }] } }
        })
        expect(report.findings.map((f) => f.cause)).toEqual([cause])
        expect(report.findings[0]!.message).toContain("resource.")
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )
  }
})
