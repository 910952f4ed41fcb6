import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { connectError, forward, front } from "./front.js"

// Valid calls set a deadline as clients do (a minute). A server that reads Connect-Timeout-Ms in
// the wrong unit and answers deadline_exceeded long before the deadline is found; the faithful
// server, and one that answers deadline_exceeded once a 1 ms deadline passed, are not.

const KEY = ReferenceServer.DEFAULT_API_KEY

describe("deadlines of valid calls", () => {
  it.scoped("deadline_exceeded before the deadline passed is a finding; after it, none", () =>
    Effect.gen(function* () {
      const inner = yield* ReferenceServer.start({})
      // Reads the header in microseconds: every deadline has passed by the time the call starts.
      const url = yield* front(inner.url, (req) => (req.headers["connect-timeout-ms"] !== undefined ? connectError(504, "deadline_exceeded", "deadline passed") : forward()))
      const options = { apiKey: Redacted.make(KEY), fixtures: inner.knownIds, seed: 6, examples: 12, rateLimit: undefined, concurrency: 4, shrinkBudget: 0, operations: ["GetResource", "CreatePermission"], checks: ["no-server-errors", "valid-accepted", "protocol"] }
      const report = yield* ContractTests.run({ ...options, baseUrl: url })
      const early = report.findings.filter((f) => f.rule === "errors.no-internal-for-client-faults" && /deadline_exceeded after \d+ ms to a call with a deadline of 60000 ms/.test(f.message))
      expect(early.map((f) => f.operation).sort()).toEqual(["CreatePermission", "GetResource"])
      // The protocol check's 1 ms deadline: deadline_exceeded is right there.
      expect(report.findings.filter((f) => f.rule === "protocol.deadline")).toEqual([])
      const faithful = yield* ContractTests.run({ ...options, baseUrl: inner.url })
      expect(faithful.findings.map((f) => f.message)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
