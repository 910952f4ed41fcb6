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
