import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { ContractRules } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "../src/ContractTests.js"
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

describe("against the reference server making the other faithful choice (latitude switches)", () => {
  ContractRules.latitude.forEach((l, i) => {
    it.scoped(`--latitude ${l.name}: zero findings`, () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({ seed: 100 + i, examples: 10, server: { latitude: [l.name] } })
        expect(report.findings.map(Report.findingText)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )
  })
  for (const seed of SEEDS) {
    it.scoped(`--latitude all, seed ${seed}: zero findings`, () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({ seed, examples: 15, server: { latitude: "all" } })
        expect(report.findings.map(Report.findingText)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
    )
  }
  it.scoped("--latitude all as a target over HTTP (ContractTests.run with a base URL and fixtures): zero findings", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({ latitude: "all", apiKeys: ["target-key-1234"] })
      const report = yield* ContractTests.run({ baseUrl: server.url, apiKey: Redacted.make("target-key-1234"), fixtures: server.knownIds, seed: 9, examples: 10 })
      expect(report.findings.map(Report.findingText)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
