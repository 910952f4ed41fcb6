// A rate limit of the domain (the reference server's RateLimited fault) reaches the wire as the
// Connect stack writes it: 429 resource_exhausted with the Retry-After the contract asks for
// (decisions.md section 2), and the runner, which waits it out, reports nothing.
import { Report } from "@data-access/contract-tests"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Server from "../src/server.js"
import { run } from "./run.js"

const faults = {
  rules: [
    {
      methods: ["GetResource" as const],
      fault: { _tag: "RateLimited" as const, retryAfterSeconds: 1 },
      probability: 0.3
    }
  ]
}

describe("a rate limit of the domain", () => {
  it.live(
    "is a 429 resource_exhausted with its Retry-After, and no finding",
    () =>
      Effect.gen(function* () {
        const always = yield* Server.make({
          faults: { rules: [{ ...faults.rules[0]!, probability: 1 }] }
        })
        const answer = yield* Effect.promise(() =>
          fetch(`${always.url}/core.v1.ResourceService/GetResource`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": always.apiKeys[0]! },
            body: JSON.stringify({ id: "resource_0" })
          }).then(async (r) => ({
            status: r.status,
            retryAfter: r.headers.get("retry-after"),
            body: (await r.json()) as { code?: string }
          }))
        )
        expect(answer, "the answer to a rate-limited call").toEqual({
          status: 429,
          retryAfter: "1",
          body: expect.objectContaining({ code: "resource_exhausted" })
        })
        const report = yield* run(
          9,
          5,
          { faults },
          {
            checks: ["error-shape", "no-server-errors", "valid-accepted"],
            operations: ["GetResource"]
          }
        )
        expect(report.findings.map(Report.findingText)).toEqual([])
      }).pipe(Effect.scoped),
    120_000
  )
})
