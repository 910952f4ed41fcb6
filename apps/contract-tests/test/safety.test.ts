import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "../src/ContractTests.js"
import * as Embedded from "../src/Embedded.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"
import { close, forward, front } from "./front.js"

const writes = new Set(
  (Operations.all as ReadonlyArray<Operations.Operation>)
    .filter((o) => o.kind === "create" || o.kind === "update")
    .map((o) => o.method)
)

/** A run against a reference server with its first key. */
const runAgainst = (
  server: { readonly url: string; readonly apiKeys: ReadonlyArray<string> },
  options: Omit<ContractTests.Options, "baseUrl" | "apiKey">
) =>
  ContractTests.run({ baseUrl: server.url, apiKey: Redacted.make(server.apiKeys[0]!), ...options })

describe("running against a shared environment", () => {
  it.scoped("read-only mode sends no Create or Update and reports them as skipped", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const report = yield* runAgainst(server, {
        fixtures: server.knownIds,
        readOnly: true,
        examples: 3,
        seed: 3
      })
      expect(report.findings).toEqual([])
      const seen = yield* server.requests
      expect(seen.filter((r) => r.method !== undefined && writes.has(r.method))).toEqual([])
      const skipped = report.cells.filter((c) => writes.has(c.operation))
      expect(skipped.length).toBeGreaterThan(0)
      for (const c of skipped)
        expect(c).toMatchObject({ passed: 0, failed: 0, skipReasons: ["read-only mode"] })
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("never sends more requests than --max-requests, and says the run stopped early", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const report = yield* runAgainst(server, {
        maxRequests: 150,
        examples: 50,
        seed: 3
      })
      const seen = yield* server.requests
      expect(seen.length).toBeLessThanOrEqual(150)
      // The report counts the requests the server got, not the ones the budget refused.
      expect(report.requests).toBe(seen.length)
      expect(report.notes.join("\n")).toContain(
        "stopped early: the request budget of 150 requests is spent"
      )
      expect(report.cells.some((c) => c.skipped > 0)).toBe(true)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("names it creates carry the ct-<runid>- prefix", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const report = yield* runAgainst(server, {
        operations: ["CreateConnector", "CreatePermission"],
        checks: ["valid-accepted"],
        examples: 5,
        seed: 3
      })
      expect(report.findings).toEqual([])
      const ids = yield* server.currentKnownIds
      const created = ids.connectors.filter((id) => !server.knownIds.connectors.includes(id))
      expect(created.length).toBeGreaterThan(0)
      for (const id of created) {
        const c = yield* server.store.get("connectors", id)
        expect(String(c?.name)).toMatch(new RegExp(`^ct-${report.runId}-`))
      }
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("missing prerequisites are skipped with the reason, never passed", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({ examples: 3, seed: 5, server: { data: "empty" } })
      expect(report.findings).toEqual([])
      const get = report.cells.find(
        (c) => c.operation === "GetResource" && c.check === "valid-accepted"
      )
      expect(get).toMatchObject({ passed: 0, failed: 0 })
      expect(get?.skipReasons.join()).toContain("no resources ids")
      const dd = report.cells.find(
        (c) => c.operation === "CreateDataDiscoveryConfiguration" && c.check === "create-echo"
      )
      expect(dd?.passed).toBe(0)
      expect(dd?.skipped).toBeGreaterThan(0)
      // What needs nothing still runs.
      expect(
        report.cells.find((c) => c.operation === "CreateConnector" && c.check === "create-echo")
          ?.passed
      ).toBeGreaterThan(0)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
  // The target is judged on exactly the headers each case sets: no trace headers of the run's spans.
  it.scoped("sends no trace headers, even run inside a caller's span", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const report = yield* runAgainst(server, {
        fixtures: server.knownIds,
        operations: ["GetResource", "ListSatellites"],
        examples: 2,
        seed: 1
      }).pipe(Effect.withSpan("the caller's span"))
      expect(report.requests).toBeGreaterThan(0)
      const traced = (yield* server.requests).filter((r) =>
        Object.keys(r.headers).some((h) => ["traceparent", "b3", "tracestate"].includes(h))
      )
      expect(traced.map((r) => r.path)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("two runs against one target at once", () => {
  // Each run updates the same fixture objects: the other's writes fall between its answers. A
  // finding that rests on them is a note of the run that saw the other writing, never a failure.
  it.scoped("fail neither run: what another run's writes explain becomes a note", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const updates = (Operations.all as ReadonlyArray<Operations.Operation>)
        .filter((o) => o.kind === "update")
        .map((o) => o.method)
      const reports = yield* Effect.all(
        [1, 2].map((seed) =>
          runAgainst(server, {
            fixtures: server.knownIds,
            operations: updates,
            checks: ["update-semantics"],
            examples: 20,
            seed
          })
        ),
        { concurrency: 2 }
      )
      expect(reports.flatMap((r) => r.findings.map((f) => `${f.rule}: ${f.message}`))).toEqual([])
      expect(
        reports.flatMap((r) => r.notes).filter((n) => n.startsWith("not judged, another client"))
          .length
      ).toBeGreaterThan(0)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("updates of existing objects", () => {
  it.scoped("touch at most 5 objects per update operation and put their fields back", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const before = yield* server.store.all("satellites")
      const report = yield* runAgainst(server, {
        operations: ["UpdateSatellite"],
        examples: 15,
        seed: 8
      })
      expect(report.findings).toEqual([])
      const after = yield* server.store.all("satellites")
      const changed = after.filter((s) => {
        const old = before.find((b) => b.id === s.id)!
        return old.updatedAt !== s.updatedAt
      })
      expect(changed.length).toBeGreaterThan(0)
      expect(changed.length).toBeLessThanOrEqual(5)
      for (const s of changed) {
        const old = before.find((b) => b.id === s.id)!
        const { updatedAt: _a, space: _s, ...rest } = s
        const { updatedAt: _b, space: _t, ...oldRest } = old
        expect(rest).toEqual(oldRest)
      }
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("transient answers and broken connections", () => {
  it.scoped(
    "a connection closed before its answer, as a server closes an idle keep-alive connection, is sent again: no finding from the runner, nor from the proxy in between",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start()
        // Every fifth request, the first time it is seen, closes its connection unanswered.
        const seen = new Set<string>()
        let closed = 0
        const url = yield* front(inner.url, (req) => {
          const key = req.url + " " + req.text
          if (seen.has(key) || seen.add(key).size % 5 !== 0) return forward()
          closed++
          return close
        })
        const options = {
          apiKey: Redacted.make(inner.apiKeys[0]!),
          fixtures: inner.knownIds,
          seed: 2,
          examples: 5,
          rateLimit: undefined,
          operations: ["GetResource", "ListSatellites", "CreatePermission"]
        }
        const direct = yield* ContractTests.run({ ...options, baseUrl: url })
        expect(closed).toBeGreaterThan(10)
        expect(direct.findings.map(Report.findingText)).toEqual([])
        const before = closed
        const proxy = yield* Proxy.start({ target: url })
        yield* ContractTests.run({ ...options, seed: 3, baseUrl: proxy.url })
        expect(closed).toBeGreaterThan(before + 10)
        const judged = yield* proxy.report
        expect(judged.findings.filter((f) => f.side === "server").map(Report.findingText)).toEqual(
          []
        )
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped("429 with Retry-After and 503 are waited out and retried, not reported", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({
        seed: 2,
        examples: 5,
        // One suite at a time: the server's seeded faults then fire on the same requests every run.
        concurrency: 1,
        operations: ["GetResource", "ListSatellites", "CreatePermission"],
        server: {
          faults: {
            seed: 1,
            rules: [
              { fault: { _tag: "RateLimited", retryAfterSeconds: 0 }, probability: 0.15 },
              { fault: { _tag: "Unavailable" }, probability: 0.1 }
            ]
          }
        }
      })
      expect(report.findings).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a body refused for its size (resource_exhausted without Retry-After to 5 MiB) is sent once, not retried as a rate limit",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({})
        const report = yield* runAgainst(server, {
          fixtures: server.knownIds,
          seed: 1,
          examples: 3,
          checks: ["protocol"]
        })
        expect(report.findings).toEqual([])
        const refused = (yield* server.requests).filter((r) => r.code === "resource_exhausted")
        expect(refused).toHaveLength(1)
        expect(refused[0]!.status).toBe(429)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a dropped connection is a no-server-errors finding with the request that caused it",
    () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 2,
          examples: 5,
          operations: ["GetResource"],
          checks: ["no-server-errors"],
          server: {
            faults: {
              rules: [
                {
                  methods: ["GetResource"],
                  fault: { _tag: "DropConnection", when: "after-handling" }
                }
              ]
            }
          }
        })
        const f = report.findings.find(
          (x) => x.check === "no-server-errors" && x.operation === "GetResource"
        )
        expect(f?.response?._tag).toBe("NoResponse")
        expect(f?.curl).toContain("/core.v1.ResourceService/GetResource")
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("time budget", () => {
  it.scoped(
    "stops starting examples once spent, and reports the rest as skipped with the reason",
    () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 1,
          examples: 200,
          operations: ["ListSatellites", "GetResource"],
          timeBudget: "300 millis"
        })
        expect(report.findings).toEqual([])
        expect(report.notes.join("\n")).toContain("stopped early: the time budget is spent")
        const skipped = report.cells.filter((c) =>
          c.skipReasons.includes("the time budget is spent")
        )
        expect(skipped.length).toBeGreaterThan(0)
        // A guard against a run that keeps going past its budget, far above any machine's run.
        expect(report.durationMs).toBeLessThan(120_000)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("max findings", () => {
  it.scoped(
    "stops starting examples once reached: the findings are still shrunk, the rest reported skipped with the reason",
    () =>
      Effect.gen(function* () {
        const options = {
          seed: 3,
          examples: 30,
          checks: ["valid-accepted"],
          server: {
            faults: {
              rules: [
                { fault: { _tag: "Violation" as const, name: "rejects-unknown-field" as const } }
              ]
            }
          }
        }
        const all = yield* Embedded.run(options)
        const first = yield* Embedded.run({ ...options, maxFindings: 1 })
        // without the limit, the violation is found under many operations; with it, the examples
        // already running when the first is found (one per suite at once, 4) may add theirs
        expect(all.findings.length).toBeGreaterThan(4)
        expect(first.findings.length).toBeGreaterThanOrEqual(1)
        expect(first.findings.length).toBeLessThanOrEqual(4)
        expect(first.findings.every((f) => f.shrinkSteps > 0)).toBe(true)
        expect(first.requests).toBeLessThan(all.requests / 2)
        expect(first.notes.join("\n")).toContain("stopped early: max findings reached (1)")
        const skipped = first.cells.filter((c) =>
          c.skipReasons.includes("max findings reached (1)")
        )
        expect(skipped.reduce((n, c) => n + c.skipped, 0)).toBeGreaterThan(0)
        expect(Report.totals(first).skipped).toBeGreaterThan(0)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.effect("must be a positive integer", () =>
    Effect.gen(function* () {
      const failure = yield* Embedded.run({ maxFindings: 0 }).pipe(Effect.scoped, Effect.flip)
      expect(failure.message).toContain("max-findings must be a positive integer")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("selecting operations and checks", () => {
  it.scoped("include and exclude lists decide which cells exist", () =>
    Effect.gen(function* () {
      const report = yield* Embedded.run({
        seed: 4,
        examples: 3,
        operations: ["GetResource", "ListSatellites", "UpdateSatellite"],
        excludeOperations: ["UpdateSatellite"],
        excludeChecks: ["paging", "auth"]
      })
      const ops = new Set(report.cells.map((c) => c.operation))
      const checks = new Set(report.cells.map((c) => c.check))
      expect([...ops].sort()).toEqual(["GetResource", "ListSatellites"])
      expect(checks.has("paging")).toBe(false)
      expect(checks.has("auth")).toBe(false)
      expect(checks.has("search-filter")).toBe(true)
      const only = yield* Embedded.run({ seed: 4, examples: 3, checks: ["stable-reads"] })
      expect(new Set(only.cells.map((c) => c.check))).toEqual(new Set(["stable-reads"]))
      // Gets read twice; every read also served as a Connect GET, compressed and asked for compressed, against its POST.
      const reads = (Operations.all as ReadonlyArray<Operations.Operation>)
        .filter((o) => o.kind === "get" || o.kind === "list")
        .map((o) => o.method)
      expect(new Set(only.cells.map((c) => c.operation))).toEqual(new Set(reads))
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
