import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"

// A faithful server gets no finding, whatever the seed: any finding here is a false alarm (or a
// bug in the reference server) and is printed in full.
describe("against the faithful reference server", () => {
  for (const seed of [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]) {
    it.scoped(`seed ${seed}: zero findings, every check exercised`, () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({ seed, examples: 15 })
        expect(report.findings.map(Report.findingText)).toEqual([])
        const t = Report.totals(report)
        expect(t.failed).toBe(0)
        expect(t.skipped).toBe(0)
        // Every check ran on something.
        const exercised = new Set(report.cells.filter((c) => c.passed > 0).map((c) => c.check))
        expect(exercised.size).toBe(14)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )
  }
})

describe("against faithful variants of the reference server", () => {
  it.scoped("every field written, zero values too (emitDefaults): zero findings", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({ seed: 77, examples: 15, server: { emitDefaults: true } })
      expect(report.findings.map(Report.findingText)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
