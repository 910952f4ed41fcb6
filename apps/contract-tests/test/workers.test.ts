import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Embedded from "../src/Embedded.js"
import type * as Report from "../src/Report.js"
import { cli } from "./cliRun.js"
import { findingKeys, violating } from "./faulty.js"

// A run dealt to worker threads (--workers N) is the same run: the same findings for a seed
// whatever the number of threads, one request budget for all of them.

/** A server that breaks rules on reads, lists, updates and the wire. */
const faulty = violating([
  "wrong-field-type",
  "limit-off-by-one",
  "update-ignored",
  "updated-at-not-moved",
  "filter-ignored",
  "paging-skips",
  "rejects-null"
])

/**
 * The operations whose rules it breaks: a read, a list, an update and a create, dealt to the
 * threads as every operation would be (a run of every operation costs several times the CPU).
 */
const operations = ["GetResource", "ListSatellites", "UpdateSatellite", "CreateConnector"]

const keys = (r: Report.Report) => findingKeys(r.findings)
/**
 * The cells of a report but the model's on reads: each thread keeps its own model of the objects
 * it wrote, so whether a List or Get judges updates.model depends on how suites are dealt.
 */
const cellsOf = (r: Report.Report) =>
  r.cells.filter((c) => !(c.check === "update-semantics" && !/^(Update|Create)/.test(c.operation)))
const cellKeys = (r: Report.Report) => cellsOf(r).map((c) => `${c.operation} ${c.check}`)
const examples = (r: Report.Report) =>
  cellsOf(r).reduce((n, c) => n + c.passed + c.failed + c.skipped, 0)

describe("a run in worker threads", () => {
  it.scoped("--workers 1 and 4 give the same findings, cells and examples for a seed", () =>
    Effect.gen(function* () {
      const one = yield* Embedded.run({ seed: 8, examples: 10, operations, server: faulty })
      const four = yield* Embedded.run({
        seed: 8,
        examples: 10,
        operations,
        server: faulty,
        workers: 4
      })
      expect(one.findings.length).toBeGreaterThan(5)
      expect(keys(four)).toEqual(keys(one))
      expect(cellKeys(four)).toEqual(cellKeys(one))
      expect(examples(four)).toBe(examples(one))
      expect(four.notes).toContain("ran in 4 worker threads")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("one request budget over every thread: the run stops when it is spent", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({ seed: 3, examples: 10, workers: 2, maxRequests: 400 })
      expect(
        report.notes.some((n) => n.includes("the request budget of 400 requests is spent"))
      ).toBe(true)
      expect(report.cells.reduce((n, c) => n + c.skipped, 0)).toBeGreaterThan(0)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  // Against the faithful server (the embedded one): exit 0, no finding from any thread.
  it.effect(
    "the command line: --workers N or auto, the faithful server none; anything else exits 2",
    () =>
      Effect.gen(function* () {
        const ran = yield* cli(
          "--seed",
          "4",
          "--examples",
          "3",
          "--operations",
          operations.join(","),
          "--workers",
          "2",
          "--quiet"
        )
        expect(ran.code, ran.out).toBe(0)
        expect(ran.out).toMatch(/PASS: 0 findings/)
        expect(ran.out).toContain("note: ran in 2 worker threads")
        const bad = yield* cli("--workers", "many", "--quiet")
        expect(bad.code).toBe(2)
        expect(bad.err).toContain('--workers takes a whole number of threads or auto, not "many"')
      })
  )
})
