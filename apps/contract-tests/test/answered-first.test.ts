import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Crypto from "node:crypto"
import * as Checks from "../src/Checks.js"
import * as ContractTests from "../src/ContractTests.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"
import { connectError, forward, front } from "./front.js"

// Two faithful choices the runner and the proxy once read as faults: ids that do not sort by time
// (decisions.md section 5: "Readers must not parse them"), and a rate limit or an overload that
// answers a request before anything in it is read (section 2, section 10).

const KEY = ReferenceServer.DEFAULT_API_KEY

/** The reference server's ids: a type prefix, `_`, a lowercase ULID. */
const ID = /\b[a-z][a-z_]*_[0-9a-hjkmnp-tv-z]{26}\b/g
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g

/** Every id of the server as a random UUID, the same one each time; requests get the server's ids back. */
const uuidIds = () => {
  const out = new Map<string, string>()
  const back = new Map<string, string>()
  const toUuid = (text: string) =>
    text.replace(ID, (id) => {
      let u = out.get(id)
      if (u === undefined) {
        u = Crypto.randomUUID()
        out.set(id, u)
        back.set(u, id)
      }
      return u
    })
  // A request body is read as JSON first, as a server reads it: its strings may be spelt with escapes.
  const fromUuid = (text: string) => {
    let plain = text
    try {
      plain = JSON.stringify(JSON.parse(text))
    } catch {
      // not JSON: rewritten as it is
    }
    return plain.replace(UUID, (u) => back.get(u) ?? u)
  }
  return { toUuid, fromUuid }
}

const options = {
  apiKey: Redacted.make(KEY),
  rateLimit: undefined,
  concurrency: 4,
  shrinkBudget: 0
}

describe("faithful choices that are no fault", () => {
  it.scoped(
    "ids that do not sort by time: saved queries in the server's own creation order, every other list by createdAt; no finding in the runner or the proxy",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const ids = uuidIds()
        const url = yield* front(inner.url, (req) =>
          forward({ text: ids.fromUuid(req.text), reply: ids.toUuid })
        )
        const fixtures = JSON.parse(ids.toUuid(JSON.stringify(inner.knownIds)))
        const proxy = yield* Proxy.start({ target: url })
        // search-filter aside: the server searches the ids it keeps, not the ones the front shows.
        const checks = Checks.ids.filter((c) => c !== "search-filter")
        const report = yield* ContractTests.run({
          ...options,
          baseUrl: proxy.url,
          fixtures,
          seed: 3,
          examples: 8,
          checks
        })
        expect(report.findings.map((f) => `${f.operation}: ${f.rule}: ${f.message}`)).toEqual([])
        // The saved queries were listed and walked, their order not judged; other lists' order was.
        const judged = (op: string) =>
          report.cells.find((c) => c.operation === op && c.check === "paging")
        expect(judged("ListLogQueries")?.passed ?? 0).toBeGreaterThan(0)
        expect(
          (report.coverage ?? []).find((c) => c.rule === "lists.order")?.judged ?? 0
        ).toBeGreaterThan(0)
        const server = (yield* proxy.findings).filter((f) => f.side === "server")
        expect(server.map(Report.findingText)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a rate limit or an overload that answers first is no answer to the request's fault; a 429 without Retry-After to a wrong content type is",
    () =>
      Effect.gen(function* () {
        const methods = ["GetResource", "CreatePermission", "ListSatellites"] as const
        const inner = yield* ReferenceServer.start({
          faults: {
            rules: [
              {
                methods: ["GetResource", "CreatePermission"],
                fault: { _tag: "RateLimited", retryAfterSeconds: 0 }
              },
              { methods: ["ListSatellites"], fault: { _tag: "Unavailable" }, probability: 0.5 }
            ]
          }
        })
        const proxy = yield* Proxy.start({ target: inner.url })
        const checks = [
          "protocol",
          "invalid-rejected",
          "auth",
          "valid-accepted",
          "no-server-errors",
          "error-shape"
        ] as const
        // Throttled answers taken as they come, not retried: each is the answer the checks see.
        const report = yield* ContractTests.run({
          ...options,
          retryThrottled: false,
          baseUrl: proxy.url,
          fixtures: inner.knownIds,
          seed: 4,
          examples: 6,
          operations: [...methods],
          checks: [...checks]
        })
        expect(report.findings.map((f) => `${f.operation}: ${f.rule}: ${f.message}`)).toEqual([])
        const server = (yield* proxy.findings).filter((f) => f.side === "server")
        expect(server.map(Report.findingText)).toEqual([])
        // The proxy saw the requests with a wrong content type answered by the rate limit.
        const direct = yield* Effect.promise(() =>
          fetch(`${proxy.url}/core.v1.ResourceService/GetResource`, {
            method: "POST",
            headers: { "content-type": "text/plain", "x-api-key": KEY },
            body: "{}"
          }).then((r) => [r.status, r.headers.get("retry-after")])
        )
        expect(direct).toEqual([429, "0"])
        expect((yield* proxy.findings).filter((f) => f.side === "server")).toEqual([])

        // A 429 without Retry-After is no rate limit: the answer to a wrong content type is judged.
        const faulty = yield* front(inner.url, (req) =>
          (req.headers["content-type"] ?? "").startsWith("application/json")
            ? forward()
            : connectError(429, "resource_exhausted", "slow down")
        )
        yield* inner.setFaults({ rules: [] })
        const found = yield* ContractTests.run({
          ...options,
          baseUrl: faulty,
          fixtures: inner.knownIds,
          seed: 4,
          examples: 2,
          operations: ["GetResource"],
          checks: ["protocol"]
        })
        expect(found.findings.map((f) => f.rule)).toContain("protocol.content-type")
        const proxied = yield* Proxy.start({ target: faulty })
        yield* Effect.promise(() =>
          fetch(`${proxied.url}/core.v1.ResourceService/GetResource`, {
            method: "POST",
            headers: { "content-type": "text/plain", "x-api-key": KEY },
            body: "{}"
          })
        )
        expect(
          (yield* proxied.findings).filter((f) => f.side === "server").map((f) => f.rule)
        ).toContain("protocol.content-type")
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
