// The contract runner through the conformance proxy against the Connect-stack server: the proxy
// judges every exchange the runner makes, odd requests included, with its own rules; the
// server's side of each is faithful, so the proxy reports no server finding (the runner's invalid
// requests are client findings).
import { ContractTests, Proxy, Report } from "@data-access/contract-tests"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Server from "../src/server.js"

describe("the contract runner through the proxy against the Connect-stack server", () => {
  for (const connectGet of [false, true]) {
    it.live(
      `${connectGet ? "a server serving Connect GET for its reads" : "the default server"}: no server finding, and none from the runner`,
      () =>
        Effect.gen(function* () {
          const server = yield* Server.make({ connectGet })
          const proxy = yield* Proxy.start({ target: server.url })
          const report = yield* ContractTests.run({
            baseUrl: proxy.url,
            apiKey: Redacted.make(server.apiKeys[0]!),
            fixtures: server.knownIds,
            seed: connectGet ? 12 : 11,
            examples: 10
          })
          expect(report.findings.map(Report.findingText)).toEqual([])
          const judged = yield* proxy.report
          expect(
            judged.findings.filter((f) => f.side === "server").map(Report.findingText)
          ).toEqual([])
          expect(Report.totals(judged).passed).toBeGreaterThan(0)
        }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)),
      300_000
    )
  }
})
