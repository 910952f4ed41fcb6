import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"
import type { Suite } from "../src/internal/context.js"
import { pass } from "../src/internal/outcome.js"
import { runSuite, suiteSeed } from "../src/internal/runner/suite.js"

// `--examples N` is up to N distinct examples per suite: an example equal to one already sent is
// drawn again, never sent twice, and the report counts those repeats.

/** A suite of one generated property whose cases only record the values they were given. */
const recording = (arbitrary: fc.Arbitrary<unknown>, examples: number) => {
  const sent: Array<unknown> = []
  const suite: Suite = {
    family: "valid",
    method: "GetResource",
    checks: ["valid-accepted"],
    writes: false,
    skip: undefined,
    cases: { _tag: "Property", arbitrary, examples },
    run: (a) => Effect.sync(() => (sent.push(a), [pass("valid-accepted")]))
  }
  return { suite, sent }
}

const settings = (window: number) => ({
  seed: 11,
  selected: new Set(["valid-accepted" as const]),
  baseUrl: "http://127.0.0.1:1",
  limits: {
    deadline: undefined,
    shrinkBudget: 10,
    stoppedBy: undefined,
    maxFindings: undefined,
    failures: { count: () => 0, add: () => {} }
  },
  secrets: [],
  replayPath: undefined,
  window
})

describe("no example sent twice within a suite", () => {
  it.effect.each([1, 4])(
    "a space of 5 values sends each once and counts the repeats it drew again (window %i)",
    (window) =>
      Effect.gen(function* () {
        const { suite, sent } = recording(fc.integer({ min: 0, max: 4 }), 50)
        const result = yield* runSuite(suite, settings(window))
        expect([...sent].sort()).toEqual([0, 1, 2, 3, 4])
        expect(result.repeats).toBeGreaterThanOrEqual(25)
        expect(result.counts.get("valid-accepted")?.passed).toBe(5)
      })
  )

  it.effect("a large space sends exactly N distinct examples, the values fast-check draws", () =>
    Effect.gen(function* () {
      const arbitrary = fc.oneof(fc.string(), fc.integer({ min: 0, max: 3 }))
      const { suite, sent } = recording(arbitrary, 40)
      const result = yield* runSuite(suite, settings(4))
      expect(sent).toHaveLength(40)
      expect(new Set(sent.map((v) => fc.stringify(v))).size).toBe(40)
      expect(result.repeats).toBeGreaterThan(0)
      // the values sent are the first distinct ones of the suite's own draws, in the same order
      const drawn = fc.sample(arbitrary, {
        seed: suiteSeed(11, "valid", "GetResource"),
        numRuns: 400
      })
      const distinct = [...new Map(drawn.map((v) => [fc.stringify(v), v])).keys()].slice(0, 40)
      expect(new Set(sent.map((v) => fc.stringify(v)))).toEqual(new Set(distinct))
    })
  )

  it.scoped("a run's report and its terminal line count the repeats drawn again", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({ seed: 2, examples: 60, operations: ["GetResource"] })
      expect(report.repeats).toBeGreaterThan(0)
      expect(Report.toTerminal(report)).toContain(`(${report.repeats} repeats drawn again)`)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
