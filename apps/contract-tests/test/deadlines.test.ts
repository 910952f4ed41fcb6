import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { undiciLayer } from "../src/internal/http.js"
import { connectError, forward, front, hang } from "./front.js"

// Valid calls set a deadline as clients do (a minute), the protocol check deadlines of seconds. A
// server that reads Connect-Timeout-Ms in the wrong unit and answers deadline_exceeded long before
// the deadline is found, under protocol.deadline-elapsed alone; the faithful server, and one that
// answers deadline_exceeded once a 1 ms deadline passed, are not.

const KEY = ReferenceServer.DEFAULT_API_KEY

describe("deadlines of valid calls", () => {
  it.scoped("deadline_exceeded before the deadline passed is a finding; after it, none", () =>
    Effect.gen(function* () {
      const inner = yield* ReferenceServer.start({})
      // Reads the header in microseconds: every deadline has passed by the time the call starts.
      const url = yield* front(inner.url, (req) =>
        req.headers["connect-timeout-ms"] !== undefined
          ? connectError(504, "deadline_exceeded", "deadline passed")
          : forward()
      )
      const options = {
        apiKey: Redacted.make(KEY),
        fixtures: inner.knownIds,
        seed: 6,
        examples: 12,
        rateLimit: undefined,
        concurrency: 4,
        shrinkBudget: 0,
        operations: ["GetResource", "CreatePermission"],
        checks: ["no-server-errors", "valid-accepted", "protocol"]
      }
      const report = yield* ContractTests.run({ ...options, baseUrl: url })
      // One fault, one rule: judged against the time that passed, deadline_exceeded seconds (or a
      // minute) before the deadline, whether a valid call's or the protocol check's.
      const elapsed = report.findings.filter((f) => f.rule === "protocol.deadline-elapsed")
      expect(elapsed.map((f) => f.operation).sort()).toEqual(["CreatePermission", "GetResource"])
      expect(elapsed[0]!.message).toMatch(
        /^a call with Connect-Timeout-Ms (2000|20000|60000) was answered deadline_exceeded after \d+ ms/
      )
      expect(
        report.findings.filter((f) => f.rule === "errors.no-internal-for-client-faults")
      ).toEqual([])
      // The protocol check's 1 ms deadline: deadline_exceeded is right there.
      expect(report.findings.filter((f) => f.rule === "protocol.deadline")).toEqual([])
      const faithful = yield* ContractTests.run({ ...options, baseUrl: inner.url })
      expect(faithful.findings.map((f) => f.message)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("time judged against the target's own latency", () => {
  it.scoped(
    "a slow faithful server is no finding, even slower than the timeout; a hang on one input, next to fast answers, is",
    () =>
      Effect.gen(function* () {
        const operations = ["GetResource", "CreatePermission"]
        const base = {
          apiKey: Redacted.make(KEY),
          seed: 3,
          examples: 2,
          rateLimit: undefined,
          concurrency: 4,
          shrinkBudget: 0,
          operations
        }
        // Every call 60 ms late, GetResource 1.4 s: slower than the run's 1 s timeout, which the
        // other calls stay far within on a loaded machine.
        const slow = yield* ReferenceServer.start({
          faults: {
            rules: [
              { fault: { _tag: "Latency", millis: 60 } },
              { methods: ["GetResource"], fault: { _tag: "Latency", millis: 1_340 } }
            ]
          }
        })
        const report = yield* ContractTests.run({
          ...base,
          fixtures: slow.knownIds,
          baseUrl: slow.url,
          timeout: "1 second"
        })
        expect(report.findings.map((f) => `${f.operation} ${f.rule}: ${f.message}`)).toEqual([])
        // A server that never answers a Get of an id it does not know, and answers the others at once.
        const inner = yield* ReferenceServer.start({})
        const known = new Set<unknown>(inner.knownIds.resources)
        const url = yield* front(inner.url, (req) =>
          req.url.endsWith("/GetResource") &&
          typeof req.json?.id === "string" &&
          !known.has(req.json.id) &&
          req.json.id.startsWith("ct-missing")
            ? hang
            : forward()
        )
        // A hang is told from a slow target by the slowest answer of the run (a tenth of the
        // timeout at most): 10 s keeps the fast answers within that on a loaded machine too.
        const hung = yield* ContractTests.run({
          ...base,
          fixtures: inner.knownIds,
          baseUrl: url,
          timeout: "10 seconds"
        })
        expect(hung.findings.map((f) => `${f.operation} ${f.rule} ${f.cause}`)).toContain(
          "GetResource errors.no-internal-for-client-faults no response"
        )
        // The command line's client: each request straight on undici's dispatcher, timed by the runner.
      }).pipe(Effect.provide(undiciLayer)),
    120_000
  )
})
