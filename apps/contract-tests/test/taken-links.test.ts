// A server may refuse to make a link or an object it made before (uniqueness rules are not shown):
// the runner's creates without a name, of one draw from several suites, are then answered
// already_exists, which is no finding.
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { answer, type Decision, forward, front, type Incoming } from "./front.js"

const KEY = ReferenceServer.DEFAULT_API_KEY

/**
 * A server in front of `inner` that refuses a create of `method` with already_exists when one with
 * the same `keys` was made before; other requests are forwarded (`forwarded` decides how).
 */
const refusingSecond = (
  inner: string,
  method: string,
  keys: ReadonlyArray<string>,
  forwarded: (req: Incoming) => Decision = () => forward()
) =>
  Effect.gen(function* () {
    const made = new Set<string>()
    const keyOf = (json: Record<string, unknown> | undefined) =>
      JSON.stringify(keys.map((k) => json?.[k]))
    const isCreate = (req: Incoming) =>
      req.method === "POST" &&
      req.url.endsWith(`/${method}`) &&
      req.headers["x-api-key"] === KEY &&
      /^application\/json/i.test(req.headers["content-type"] ?? "")
    const counts = { refused: 0 }
    const url = yield* front(
      inner,
      (req) => {
        if (isCreate(req) && made.has(keyOf(req.json))) {
          counts.refused++
          return answer(409, { code: "already_exists", message: "that one exists" })
        }
        return forwarded(req)
      },
      (req, status) => {
        if (status === 200 && isCreate(req)) made.add(keyOf(req.json))
      }
    )
    return { url, counts }
  })

describe("a server that refuses what it made before", () => {
  it.scoped(
    "already_exists to a link made before is no finding, with a 1 ms deadline or without",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        // Finishes every call before its deadline, and refuses a link it made before with
        // already_exists (the valid requests' first create and the protocol cases name one link).
        const { counts, url } = yield* refusingSecond(
          inner.url,
          "CreateNativeUserIdentityLink",
          ["nativeUserId", "identityId", "identityType"],
          (req) =>
            req.headers["connect-timeout-ms"] === undefined
              ? forward()
              : forward({ headers: { "connect-timeout-ms": "60000" } })
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
        expect(counts.refused).toBeGreaterThan(0)
        expect(report.findings.map((f) => `${f.rule}: ${f.message}`)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "already_exists to a second data-discovery configuration of one resource and user is no finding",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        // Keeps one configuration per resource and native user, as a uniqueness rule may.
        const { counts, url } = yield* refusingSecond(
          inner.url,
          "CreateDataDiscoveryConfiguration",
          ["resourceId", "nativeUserId"]
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
        expect(counts.refused).toBeGreaterThan(0)
        expect(report.findings.map((f) => `${f.rule}: ${f.message}`)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
