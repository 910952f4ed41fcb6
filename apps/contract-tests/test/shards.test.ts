import { Operations } from "@data-access/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"
import { cli } from "./cliRun.js"
import { findingKeys, violating } from "./faulty.js"

// A run split with --shard i/n over several machines and joined with `merge` is the whole run:
// the same findings for the same seed, every suite in exactly one share.

/** A server that breaks rules of several checks, on reads, lists, updates and the wire. */
const faulty = violating([
  "wrong-field-type",
  "limit-off-by-one",
  "update-ignored",
  "filter-ignored",
  "snake-case-output",
  "paging-skips",
  "rejects-null"
])

const keys = findingKeys
/**
 * The model of the run's objects (updates.model) judges an answer by the writes its own process
 * made: a shard judges a List's items only when the updates of those objects ran in it too, so
 * the cells and coverage it adds to the other operations are left out of the comparison.
 */
const writes: ReadonlySet<string> = new Set(
  Operations.all.filter((o) => o.kind === "create" || o.kind === "update").map((o) => o.method)
)
const byModel = (operation: string, check: string) =>
  check === "update-semantics" && !writes.has(operation)
const cellKeys = (report: Report.Report) =>
  report.cells
    .filter((c) => !byModel(c.operation, c.check))
    .map((c) => `${c.operation} ${c.check}`)
    .sort()
const tmp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-shards-"))

describe("a run in shards", () => {
  it.scoped(
    "four shards merged give the unsharded run's findings and cells for the same seed; each shard runs about a quarter of the suites",
    () =>
      Effect.gen(function* () {
        const run = (shard: Report.Shard | undefined) =>
          Embedded.run({ seed: 4, examples: 10, server: faulty, shard })
        const whole = yield* run(undefined)
        const shards: Array<Report.Report> = []
        for (const index of [1, 2, 3, 4]) shards.push(yield* run({ index, total: 4 }))
        const merged = Either.getOrThrow(Report.merge(shards))
        expect(whole.findings.length).toBeGreaterThan(20)
        expect(keys(merged.findings)).toEqual(keys(whole.findings))
        expect(cellKeys(merged)).toEqual(cellKeys(whole))
        expect(merged.mergedFrom).toEqual(shards.map((s) => s.runId))
        expect(Report.exitCode(merged)).toBe(1)
        // the same rules judged, over the same operations
        const judged = (r: Report.Report) =>
          r
            .coverage!.filter((c) => c.judged > 0 && c.rule !== "updates.model")
            .map((c) => `${c.rule} ${[...c.operations].sort()}`)
        expect(judged(merged).sort()).toEqual(judged(whole).sort())
        // the same dimensions sent, per operation and field
        expect(merged.fields).toEqual(whole.fields)
        // the shares are even and none is the whole run
        const examples = (r: Report.Report) =>
          r.cells.reduce((n, c) => n + c.passed + c.failed + c.skipped, 0)
        for (const s of shards) {
          expect(s.shard?.total).toBe(4)
          expect(examples(s)).toBeGreaterThan(examples(whole) / 8)
          expect(examples(s)).toBeLessThan(examples(whole) / 2)
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("a share missing, given twice, or of another seed is refused, saying which", () =>
    Effect.gen(function* () {
      const run = (index: number, seed = 2) =>
        Embedded.run({
          seed,
          examples: 3,
          operations: ["GetResource", "ListSatellites"],
          shard: { index, total: 3 }
        })
      const [a, b, c] = [yield* run(1), yield* run(2), yield* run(3)]
      expect(Either.isRight(Report.merge([c, a, b]))).toBe(true)
      expect(Report.merge([a, c])).toEqual(Either.left("shard 2/3 is missing"))
      expect(Report.merge([a, b, b, c])).toEqual(Either.left("shard 2/3 is given twice"))
      const other = yield* run(2, 3)
      const refused = Report.merge([a, other, c])
      expect(Either.isLeft(refused) && refused.left).toMatch(/different seeds \(2, 3\)/)
      const whole = yield* Embedded.run({ seed: 2, examples: 3, operations: ["GetResource"] })
      expect(Report.merge([whole])).toEqual(
        Either.left("report 1 is not a shard's (it was not run with --shard i/n)")
      )
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.effect(
    "the command line: --shard i/n writes a shard's JSON report; merge joins them into the whole run's reports and exit code; a bad file or a missing share exits 2",
    () =>
      Effect.gen(function* () {
        const dir = tmp()
        const file = (name: string) => Path.join(dir, name)
        const common = [
          "--seed",
          "6",
          "--examples",
          "3",
          "--operations",
          "GetResource,ListSatellites"
        ]
        for (const i of [1, 2]) {
          const ran = yield* cli(
            ...common,
            "--quiet",
            "--shard",
            `${i}/2`,
            "--json",
            file(`${i}.json`)
          )
          expect(ran.code).toBe(0)
          expect(ran.out).toContain(`note: shard ${i}/2`)
        }
        const merged = yield* cli(
          "merge",
          file("1.json"),
          file("2.json"),
          "--json",
          file("all.json"),
          "--junit",
          file("all.xml")
        )
        expect(merged.err).toBe("")
        expect(merged.code).toBe(0)
        expect(merged.out).toMatch(/note: merged from 2 shards/)
        expect(merged.out).toMatch(/^PASS: 0 findings/m)
        const all = Report.fromJson(Fs.readFileSync(file("all.json"), "utf8"))
        expect(Either.isRight(all) && all.right.mergedFrom?.length).toBe(2)
        expect(Fs.readFileSync(file("all.xml"), "utf8")).toContain("<testsuites")

        const missing = yield* cli("merge", file("1.json"))
        expect(missing.code).toBe(2)
        expect(missing.err).toBe("contract-tests merge: shard 2/2 is missing\n")

        Fs.writeFileSync(file("bad.json"), JSON.stringify({ runId: "x", seed: "six" }))
        const bad = yield* cli("merge", file("1.json"), file("bad.json"))
        expect(bad.code).toBe(2)
        expect(bad.err).toContain(`${file("bad.json")} is not a JSON report of contract-tests:`)
        expect(bad.err).toContain("seed")

        const wrong = yield* cli(...common, "--shard", "3/2")
        expect(wrong.code).toBe(2)
        expect(wrong.err).toContain("--shard takes i/n with 1 <= i <= n")
      })
  )
})
