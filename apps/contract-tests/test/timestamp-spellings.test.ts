// A writer may spell an instant with 0, 3, 6 or 9 fractional digits (decisions.md section 1), and
// need not use the same count in every answer: two answers that differ only so are the same answer
// to the checks that compare answers (a request in two spellings, a Get twice).
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import * as Report from "../src/Report.js"
import { forward, front } from "./front.js"

const TIMESTAMP = /"(createdAt|updatedAt|expiresAt)":"([0-9T:-]+)(?:\.([0-9]+))?Z"/g

describe("timestamps spelled with another count of digits in each answer", () => {
  it.scoped("are the same instants: no finding from the checks that compare two answers", () =>
    Effect.gen(function* () {
      const inner = yield* ReferenceServer.start({})
      let answers = 0
      let respelled = 0
      // Every other answer writes each timestamp with all 9 digits, the others as the server does.
      const url = yield* front(inner.url, () =>
        forward({
          reply: (text, status) => {
            if (status !== 200 || answers++ % 2 === 0) return text
            return text.replace(TIMESTAMP, (_, key: string, time: string, fraction?: string) => {
              respelled++
              return `"${key}":"${time}.${(fraction ?? "").padEnd(9, "0")}Z"`
            })
          }
        })
      )
      const report = yield* ContractTests.run({
        baseUrl: url,
        apiKey: Redacted.make(ReferenceServer.DEFAULT_API_KEY),
        fixtures: inner.knownIds,
        seed: 1,
        examples: 5,
        rateLimit: undefined,
        checks: ["valid-accepted", "protocol", "stable-reads"],
        operations: [
          "GetResource",
          "GetEncryptionKeysByKeyId",
          "GetPolicyStageConfiguration",
          "ListScenarioMonitors"
        ]
      })
      expect(respelled).toBeGreaterThan(0)
      expect(report.findings.map(Report.findingText)).toEqual([])
      const judged = new Set(
        (report.coverage ?? []).filter((c) => c.judged > 0).map((c) => c.rule as string)
      )
      for (const rule of ["wire.json-spellings", "protocol.content-type", "reads.stable"])
        expect(judged, rule).toContain(rule)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
