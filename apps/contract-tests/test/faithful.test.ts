import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ContractRules } from "@data-access/schema"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"

// No false alarms: a faithful server gets no finding, whatever the seed and whatever choice it
// makes where decisions.md section 10 leaves one. Any finding here is a false alarm (or a bug in
// the reference server) and is printed in full.
const SEEDS = [1, 2, 3, 4, 5]

describe("against the faithful reference server", () => {
  for (const seed of SEEDS) {
    it.scoped(`seed ${seed}: zero findings, every check exercised`, () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({ seed, examples: 15 })
        expect(report.findings.map(Report.findingText)).toEqual([])
        const t = Report.totals(report)
        expect(t.failed).toBe(0)
        expect(t.skipped).toBe(0)
        const exercised = new Set(report.cells.filter((c) => c.passed > 0).map((c) => c.check))
        expect([...exercised].sort()).toEqual([...ContractRules.rules.map((r) => r.check)].filter((c, i, a) => a.indexOf(c) === i).sort())
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )
  }
  it.scoped("every field written, zero values too (emitDefaults): zero findings", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({ seed: 77, examples: 15, server: { emitDefaults: true } })
      expect(report.findings.map(Report.findingText)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
