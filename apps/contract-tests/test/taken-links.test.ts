// A server may refuse to make a link or an object it made before (uniqueness rules are not shown):
// the runner's creates without a name, of one draw from several suites, are then answered
// already_exists, which is no finding.
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { answer, forward, front, type Incoming } from "./front.js"

const KEY = ReferenceServer.DEFAULT_API_KEY

describe("a server that refuses what it made before", () => {
  it.scoped(
    "already_exists to a link made before is no finding, with a 1 ms deadline or without",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        // Finishes every call before its deadline, and refuses a link it made before with
        // already_exists (the valid requests' first create and the protocol cases name one link).
        const made = new Set<string>()
        const linkOf = (json: Record<string, unknown> | undefined) =>
          JSON.stringify([json?.nativeUserId, json?.identityId, json?.identityType])
        const isLinkCreate = (req: Incoming) =>
          req.method === "POST" &&
          req.url.endsWith("/CreateNativeUserIdentityLink") &&
          req.headers["x-api-key"] === KEY &&
          /^application\/json/i.test(req.headers["content-type"] ?? "")
        let refused = 0
        const url = yield* front(
          inner.url,
          (req) => {
            if (isLinkCreate(req) && made.has(linkOf(req.json))) {
              refused++
              return answer(409, { code: "already_exists", message: "that link exists" })
            }
            return req.headers["connect-timeout-ms"] === undefined
              ? forward()
              : forward({ headers: { "connect-timeout-ms": "60000" } })
          },
          (req, status) => {
            if (status === 200 && isLinkCreate(req)) made.add(linkOf(req.json))
          }
        )
        const report = yield* ContractTests.run({
          baseUrl: url,
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 37,
          examples: 10,
          concurrency: 1,
          shrinkBudget: 0,
          operations: ["CreateNativeUserIdentityLink"],
          checks: ["protocol", "valid-accepted"]
        })
        expect(refused).toBeGreaterThan(0)
        expect(report.findings.map((f) => `${f.rule}: ${f.message}`)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "already_exists to a second data-discovery configuration of one resource and user is no finding",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        // Keeps one configuration per resource and native user, as a uniqueness rule may.
        const made = new Set<string>()
        const pairOf = (json: Record<string, unknown> | undefined) =>
          JSON.stringify([json?.resourceId, json?.nativeUserId])
        const isCreate = (req: Incoming) =>
          req.method === "POST" &&
          req.url.endsWith("/CreateDataDiscoveryConfiguration") &&
          req.headers["x-api-key"] === KEY &&
          /^application\/json/i.test(req.headers["content-type"] ?? "")
        let refused = 0
        const url = yield* front(
          inner.url,
          (req) => {
            if (isCreate(req) && made.has(pairOf(req.json))) {
              refused++
              return answer(409, { code: "already_exists", message: "that configuration exists" })
            }
            return forward()
          },
          (req, status) => {
            if (status === 200 && isCreate(req)) made.add(pairOf(req.json))
          }
        )
        const report = yield* ContractTests.run({
          baseUrl: url,
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 21,
          examples: 20,
          shrinkBudget: 0,
          operations: ["CreateDataDiscoveryConfiguration"],
          checks: ["valid-accepted"]
        })
        expect(refused).toBeGreaterThan(0)
        expect(report.findings.map((f) => `${f.rule}: ${f.message}`)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
