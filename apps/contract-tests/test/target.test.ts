import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Baseline from "../src/Baseline.js"
import * as ContractTests from "../src/ContractTests.js"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"
import { undiciLayer } from "../src/internal/http.js"

/** A server that answers an HTML page to everything (a proxy's error page, a web site). */
const htmlServer = Effect.acquireRelease(
  Effect.async<Http.Server>((resume) => {
    const server = Http.createServer((req, res) => {
      req.resume()
      res
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><html><body>Welcome</body></html>")
    })
    server.listen(0, "127.0.0.1", () => {
      resume(Effect.succeed(server))
    })
  }),
  (server) =>
    Effect.async<void>((resume) => {
      server.close(() => resume(Effect.void))
    })
)

describe("a target that does not speak Connect JSON", () => {
  it.scoped("stops the run after a handful of requests, naming the URL and what came back", () =>
    Effect.gen(function* () {
      const server = yield* htmlServer
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const failure = yield* ContractTests.run({
        baseUrl: url,
        apiKey: Redacted.make("key-of-the-test"),
        seed: 1,
        examples: 10
      }).pipe(Effect.flip)
      expect(failure.reason).toBe("Unreachable")
      expect(failure.message).toContain(`no operation of the API answers at ${url}`)
      expect(failure.message).toContain("HTTP 200 (text/html) <!doctype html>")
      expect(failure.message).not.toContain("key-of-the-test")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("a baseline", () => {
  const violation = {
    faults: {
      rules: [{ fault: { _tag: "Violation" as const, name: "paging-count-mismatch" as const } }]
    }
  }
  const options = { seed: 4, examples: 5, operations: ["ListSatellites"], checks: ["paging"] }
  it.scoped(
    "lists known findings without failing, fails on new ones, and reports entries no longer found as fixed",
    () =>
      Effect.gen(function* () {
        const first = yield* Embedded.run({ ...options, server: violation }).pipe(Effect.scoped)
        expect(first.findings.length).toBeGreaterThan(0)
        const baseline = yield* Baseline.decodeJson(Baseline.toJson(Baseline.fromReport(first)))
        const again = yield* Embedded.run({ ...options, baseline, server: violation }).pipe(
          Effect.scoped
        )
        expect(again.findings).toEqual([])
        expect(again.known.map((f) => f.cause)).toEqual(first.findings.map((f) => f.cause))
        expect(Report.exitCode(again)).toBe(0)
        const another = yield* Embedded.run({
          ...options,
          baseline,
          server: {
            faults: { rules: [{ fault: { _tag: "Violation", name: "paging-duplicates" } }] }
          }
        }).pipe(Effect.scoped)
        expect(another.findings.some((f) => f.rule === "lists.walk-once")).toBe(true)
        expect(Report.exitCode(another)).toBe(1)
        const fixed = yield* Embedded.run({ ...options, baseline }).pipe(Effect.scoped)
        expect(fixed.findings).toEqual([])
        expect(fixed.fixed.map((f) => f.rule)).toEqual(first.findings.map((f) => f.rule))
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("the command line's client (requests straight on undici's dispatcher)", () => {
  it.scoped("finds what a run through the HttpClient finds, with as many requests", () =>
    Effect.gen(function* () {
      const options = {
        seed: 3,
        examples: 3,
        operations: ["ListSatellites", "CreateConnector"],
        server: {
          faults: {
            rules: [{ fault: { _tag: "Violation" as const, name: "paging-duplicates" as const } }]
          }
        }
      }
      const viaClient = yield* Embedded.run(options).pipe(
        Effect.scoped,
        Effect.provide(NodeHttpClient.layerUndici)
      )
      const direct = yield* Embedded.run(options).pipe(Effect.scoped, Effect.provide(undiciLayer))
      const shown = (r: Report.Report) => r.findings.map((f) => [f.operation, f.check, f.rule])
      expect(shown(direct)).toEqual(shown(viaClient))
      expect(direct.findings.some((f) => f.rule === "lists.walk-once")).toBe(true)
      expect(direct.requests).toBe(viaClient.requests)
      expect(direct.cells).toEqual(viaClient.cells)
    })
  )
})
