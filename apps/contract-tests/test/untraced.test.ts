/**
 * The run's requests carry exactly the headers each case sets: no trace headers of the run's
 * spans, even when the caller runs it inside a span with tracing on.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "../src/ContractTests.js"

describe("the run's requests", () => {
  it.scoped("carry no trace headers, inside a caller's span", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const report = yield* ContractTests.run({
        baseUrl: server.url,
        apiKey: Redacted.make(server.apiKeys[0]!),
        fixtures: server.knownIds,
        seed: 1,
        examples: 2,
        operations: ["GetResource", "ListSatellites"]
      }).pipe(Effect.withSpan("the caller's span"))
      expect(report.requests).toBeGreaterThan(0)
      const requests = yield* server.requests
      expect(requests.length).toBeGreaterThan(0)
      const traced = requests.filter((r) => Object.keys(r.headers).some((h) => ["traceparent", "b3", "tracestate"].includes(h)))
      expect(traced.map((r) => r.path)).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
