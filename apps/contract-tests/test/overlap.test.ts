import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import * as Embedded from "../src/Embedded.js"
import type * as Har from "../src/Har.js"
import type * as Report from "../src/Report.js"
import { type Group, seesWrites, writesSeenBy } from "../src/internal/runner/plan.js"
import { findingKeys, violating } from "./faulty.js"

// A slow target kept busy: cases overlap up to --concurrency, an Update operation's cases on
// different objects too, but never two on one object; a read that no write touches starts at
// once. The findings of a seed are those of a run one case at a time.

const KEY = ReferenceServer.DEFAULT_API_KEY

/** A server that breaks rules on reads, lists, updates and the wire. */
const faulty = violating([
  "wrong-field-type",
  "limit-off-by-one",
  "update-ignored",
  "updated-at-not-moved",
  "update-stale-index",
  "update-clears-unsent",
  "filter-ignored",
  "paging-skips",
  "rejects-null"
])

const keys = (r: Report.Report) => findingKeys(r.findings)
const cells = (r: Report.Report) =>
  r.cells.map((c) => `${c.operation} ${c.check}: ${c.passed} ${c.failed} ${c.skipped}`)

/** The `id` a request's JSON body names, if any. */
const idIn = (body: string | undefined): string | undefined => {
  try {
    const id = (JSON.parse(body ?? "") as { id?: unknown } | null)?.id
    return typeof id === "string" ? id : undefined
  } catch {
    return undefined
  }
}

/** A request of the HAR: its method, the id its body names and when it was in flight. */
const spans = (entries: ReadonlyArray<Har.Entry>) =>
  entries.map((e) => {
    const start = Date.parse(e.startedDateTime)
    return {
      method: e.request.url.split("?")[0]!.split("/").pop()!,
      id: idIn(e.request.postData?.text),
      start,
      end: start + e.time
    }
  })

/** How long two spans were both in flight, in milliseconds. */
const overlap = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  Math.min(a.end, b.end) - Math.max(a.start, b.start)

const group = (method: string, writes: boolean): Group => ({
  method,
  writes,
  ordered: false,
  suites: []
})

describe("cases kept in flight", () => {
  it.scoped(
    "the same findings, cells and examples for a seed at --concurrency 1 and 16 against a faulty server",
    () =>
      Effect.gen(function* () {
        // Updates, a create and the reads they change, and a read no write touches.
        const operations = [
          "UpdateSatellite",
          "ListSatellites",
          "CreateIntegrationMDM",
          "ListIntegrationsMDM",
          "ListLogQueries"
        ]
        const base = { seed: 8, examples: 10, server: faulty, operations }
        const one = yield* Embedded.run({ ...base, concurrency: 1 })
        const many = yield* Embedded.run({ ...base, concurrency: 16 })
        expect(one.findings.some((f) => f.check === "update-semantics")).toBe(true)
        expect(keys(many)).toEqual(keys(one))
        expect(many.findings.map((f) => f.replayId).sort()).toEqual(
          one.findings.map((f) => f.replayId).sort()
        )
        expect(cells(many)).toEqual(cells(one))
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "an Update operation's cases on different objects overlap; two on one object never do",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          faults: {
            rules: [{ methods: ["UpdateSatellite"], fault: { _tag: "Latency", millis: 40 } }]
          }
        })
        const entries: Array<Har.Entry> = []
        const report = yield* ContractTests.run({
          baseUrl: server.url,
          apiKey: Redacted.make(KEY),
          fixtures: server.knownIds,
          seed: 4,
          examples: 50,
          rateLimit: undefined,
          concurrency: 8,
          operations: ["UpdateSatellite"],
          checks: ["update-semantics"],
          onHarEntry: (e) => entries.push(e)
        })
        expect(report.findings.map((f) => f.message)).toEqual([])
        const updates = spans(entries).filter((s) => s.method === "UpdateSatellite")
        let apart = 0
        for (const [i, a] of updates.entries()) {
          for (const b of updates.slice(i + 1)) {
            if (a.id === b.id) expect(overlap(a, b)).toBeLessThanOrEqual(2)
            else if (overlap(a, b) > 10) apart++
          }
        }
        expect(new Set(updates.map((u) => u.id)).size).toBeGreaterThan(1)
        expect(apart).toBeGreaterThan(0)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("a read that no write touches starts while the writes go on", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({
        faults: {
          rules: [{ methods: ["UpdateSatellite"], fault: { _tag: "Latency", millis: 40 } }]
        }
      })
      const entries: Array<Har.Entry> = []
      yield* ContractTests.run({
        baseUrl: server.url,
        apiKey: Redacted.make(KEY),
        fixtures: server.knownIds,
        seed: 4,
        examples: 10,
        rateLimit: undefined,
        concurrency: 8,
        operations: ["UpdateSatellite", "ListLogQueries"],
        onHarEntry: (e) => entries.push(e)
      })
      const all = spans(entries)
      const lastUpdate = Math.max(
        ...all.filter((s) => s.method === "UpdateSatellite").map((s) => s.start)
      )
      expect(all.some((s) => s.method === "ListLogQueries" && s.end < lastUpdate)).toBe(true)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it("a read waits for the writes whose changes it may see, and only for those", () => {
    const writes = [
      group("UpdateSatellite", true),
      group("CreateConnector", true),
      group("CreateIntegrationMDM", true),
      group("CreateDataDiscoveryConfiguration", true)
    ]
    const seen = (method: string) => writesSeenBy(group(method, false), writes).map((g) => g.method)
    // A satellite lists in its space, where a connector is made too.
    expect(seen("ListSatellites")).toEqual(["UpdateSatellite", "CreateConnector"])
    expect(seen("ListIntegrationsMDM")).toEqual(["CreateIntegrationMDM"])
    expect(seen("GetResource")).toEqual(["CreateDataDiscoveryConfiguration"])
    expect(seen("ListLogQueries")).toEqual([])
    // The whole API's suites read every kind.
    expect(seen("_")).toEqual(writes.map((g) => g.method))
    expect(seesWrites(group("ListSatellites", false))).toBe(true)
    expect(seesWrites(group("ListScenarioMonitors", false))).toBe(false)
  })
})
