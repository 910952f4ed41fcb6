import { ConnectError, Operations } from "@data-access/schema"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Faults, ReferenceServer } from "../src/index.js"
import { type Reply, rpc, serverLayer, TestServer, walk } from "./helpers.js"

const isErrorBody = Schema.is(ConnectError.ErrorBody)
const sv = (value: string) => ({ "@type": "type.googleapis.com/google.protobuf.StringValue", value })

const raw = (server: ReferenceServer.Running, path: string, body: unknown) =>
  Effect.tryPromise(() =>
    fetch(server.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": server.apiKeys[0]! },
      body: JSON.stringify(body)
    }).then((r) => r.text())
  )

layer(serverLayer())("fault kinds", (it) => {
  it.effect("Latency delays the chosen methods only", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* server.setFaults({ rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 300 } }] })
      let t = Date.now()
      const slow = yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] })
      expect(slow.status).toBe(200)
      expect(Date.now() - t).toBeGreaterThanOrEqual(290)
      t = Date.now()
      yield* rpc(server, "ListScenarioMonitors", { limit: 5 })
      expect(Date.now() - t).toBeLessThan(250)
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("Unavailable answers 503 unavailable, at most `times` times", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* server.setFaults({ rules: [{ fault: { _tag: "Unavailable" }, times: 2 }] })
      const replies = [] as Array<Reply>
      for (let i = 0; i < 3; i++) replies.push(yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] }))
      expect(replies.map((r) => r.status)).toEqual([503, 503, 200])
      expect(replies[0]!.json.code).toBe("unavailable")
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("RateLimited answers resource_exhausted 429 with Retry-After and X-Ratelimit-*", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* server.setFaults({ rules: [{ methods: ["ListSatellites"], fault: { _tag: "RateLimited", retryAfterSeconds: 7 } }] })
      const reply = yield* rpc(server, "ListSatellites", { limit: 1 })
      expect(reply.status).toBe(429)
      expect(reply.json.code).toBe("resource_exhausted")
      expect(reply.headers.get("retry-after")).toBe("7")
      expect(reply.headers.get("x-ratelimit-limit")).toBe("100")
      expect(reply.headers.get("x-ratelimit-remaining")).toBe("0")
      expect(Number(reply.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000)
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("BareStatus answers like a proxy: that status, text/plain, no Connect body", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* server.setFaults({ rules: [{ fault: { _tag: "BareStatus", status: 502 } }] })
      const reply = yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] })
      expect(reply.status).toBe(502)
      expect(reply.headers.get("content-type")).toBe("text/plain")
      expect(reply.json).toBeUndefined()
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("DropConnection destroys the socket with no response, before or after handling", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const id = server.knownIds.satellites[3]!
      yield* server.setFaults({ rules: [{ fault: { _tag: "DropConnection", when: "before-handling" } }] })
      const before = yield* Effect.either(raw(server, Operations.operations.UpdateSatellite.path, { id, name: "dropped-before" }))
      expect(before._tag).toBe("Left")
      yield* server.setFaults({ rules: [{ fault: { _tag: "DropConnection", when: "after-handling" } }] })
      const after = yield* Effect.either(raw(server, Operations.operations.UpdateSatellite.path, { id, name: "dropped-after" }))
      expect(after._tag).toBe("Left")
      yield* server.setFaults(Faults.none)
      const names = (yield* walk(server, "ListSatellites", { limit: 500, search: "dropped-" })).items.map((s) => s.name)
      // Before handling the update never ran; after handling it did.
      expect(names).toEqual(["dropped-after"])
    })
  )

  it.effect("probabilities are deterministic under a seed", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const plan: ReferenceServer.FaultPlan = { seed: 3, rules: [{ fault: { _tag: "Unavailable" }, probability: 0.5 }] }
      const run = Effect.gen(function* () {
        yield* server.setFaults(plan)
        const out: Array<number> = []
        for (let i = 0; i < 24; i++) out.push((yield* rpc(server, "ListScenarioMonitors", { limit: 1 })).status)
        return out
      })
      const a = yield* run
      const b = yield* run
      expect(a).toEqual(b)
      expect(a).toContain(503)
      expect(a).toContain(200)
      yield* server.setFaults(Faults.none)
    })
  )
})

layer(ReferenceServer.layerHttpClient())("faults in process", (it) => {
  const call = (body: unknown) =>
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const server = yield* ReferenceServer.InProcess
      return yield* client.execute(
        HttpClientRequest.post(server.url + Operations.operations.GetResource.path).pipe(
          HttpClientRequest.bodyUnsafeJson(body),
          HttpClientRequest.setHeader("x-api-key", server.apiKeys[0]!)
        )
      )
    })

  it.effect("DropConnection fails the in-process request with a transport error", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.InProcess
      yield* server.setFaults({ rules: [{ fault: { _tag: "DropConnection", when: "before-handling" } }] })
      const result = yield* Effect.either(call({ id: server.knownIds.resources[0] }))
      expect(result._tag === "Left" && result.left._tag === "RequestError" && result.left.reason === "Transport").toBe(true)
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("Latency follows the TestClock in process", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.InProcess
      yield* server.setFaults({ rules: [{ fault: { _tag: "Latency", millis: 60_000 } }] })
      const fiber = yield* Effect.fork(call({ id: server.knownIds.resources[0] }))
      yield* TestClock.adjust("59 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 second")
      const response = yield* Fiber.join(fiber)
      expect(response.status).toBe(200)
      yield* server.setFaults(Faults.none)
    })
  )
})

/** For each violation: whether it is visible in the server's answers. */
// Direct probes of the first violations; every violation of the catalogue is also proven
// observable by apps/contract-tests/test/violations.test.ts (a contract-test run catches it).
const probes: { readonly [V in ReferenceServer.ViolationName]?: (s: ReferenceServer.Running) => Effect.Effect<boolean> } = {
  "wrong-field-type": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(Effect.map((r) => typeof r.json.resource.id !== "string")),
  "missing-required-field": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(Effect.map((r) => !("id" in r.json.resource))),
  "non-utc-timestamp": (s) => rpc(s, "ListSatellites", { limit: 3 }).pipe(Effect.map((r) => !r.json.satellites[0].createdAt.endsWith("Z"))),
  "wrong-status-for-code": (s) => rpc(s, "GetResource", { id: "nope" }).pipe(Effect.map((r) => !ConnectError.statusAgrees(r.json.code, r.status))),
  "invalid-error-body": (s) => rpc(s, "GetResource", {}).pipe(Effect.map((r) => !isErrorBody(r.json))),
  "server-error-on-unknown-field": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0], futureField: 1 }).pipe(Effect.map((r) => r.status >= 500)),
  "rejects-unknown-field": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0], futureField: 1 }).pipe(Effect.map((r) => r.json.code === "invalid_argument")),
  "ignored-min-length": (s) => rpc(s, "CreatePermission", { name: "", description: "d", code: "c" }).pipe(Effect.map((r) => r.status === 200)),
  "ignored-limit-range": (s) => rpc(s, "ListSatellites", { limit: 501 }).pipe(Effect.map((r) => r.status === 200)),
  "auth-ignored": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0] }, { headers: { "x-api-key": "wrong" } }).pipe(Effect.map((r) => r.status === 200)),
  "wrong-method-accepted": (s) => rpc(s, "GetResource", {}, { httpMethod: "GET" }).pipe(Effect.map((r) => r.status !== 405)),
  "success-content-type": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(Effect.map((r) => r.headers.get("content-type") !== "application/json")),
  "created-at-in-future": (s) => rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(Effect.map((r) => Date.parse(r.json.resource.createdAt) > Date.now())),
  "expires-at-in-past": (s) => rpc(s, "CreateHumanUserPassword", { email: s.knownIds.users[0]!.email }).pipe(Effect.map((r) => Date.parse(r.json.expiresAt) < Date.now())),
  "create-not-echoed": (s) => rpc(s, "CreatePermission", { name: "echo-me", description: "d", code: "c" }).pipe(Effect.map((r) => r.json.permission.name !== "echo-me")),
  "update-ignored": (s) =>
    Effect.gen(function* () {
      const name = `probe-${Math.random()}`
      const r = yield* rpc(s, "UpdateSatellite", { id: s.knownIds.satellites[9], name })
      return r.json.satellite.name !== name
    }),
  "updated-at-not-moved": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[10]
      const list = yield* rpc(s, "ListSatellites", { limit: 500, filter: { field: { key: "id", operator: "equals", value: sv(String(id)) } } })
      const updated = yield* rpc(s, "UpdateSatellite", { id, terminationProtection: true })
      return updated.json.satellite.updatedAt === list.json.satellites[0].updatedAt
    }),
  "paging-duplicates": (s) =>
    walk(s, "ListSatellites", { limit: 50 }).pipe(Effect.map(({ items }) => new Set(items.map((i) => i.id)).size !== items.length)),
  "paging-count-mismatch": (s) => rpc(s, "ListSatellites", { limit: 5 }).pipe(Effect.map((r) => r.json.listMetadata.count !== r.json.satellites.length)),
  "order-ignored": (s) =>
    Effect.gen(function* () {
      const asc = yield* rpc(s, "ListSatellites", { limit: 1, order: "asc" })
      const desc = yield* rpc(s, "ListSatellites", { limit: 1, order: "desc" })
      return asc.json.satellites[0].id === desc.json.satellites[0].id
    }),
  "search-ignored": (s) =>
    rpc(s, "ListSatellites", { limit: 500, search: "AI-GATEWAY" }).pipe(Effect.map((r) => r.json.satellites.some((x: any) => !x.name.includes("ai-gateway")))),
  "filter-ignored": (s) =>
    rpc(s, "ListIntegrationsMDM", { limit: 500, filter: { field: { key: "name", operator: "starts_with", value: sv("fleet paris") } } }).pipe(
      Effect.map((r) => r.json.integrations.some((x: any) => !x.name.startsWith("Fleet paris")))
    ),
  "unstable-read": (s) =>
    Effect.gen(function* () {
      const a = yield* rpc(s, "GetResource", { id: s.knownIds.resources[1] })
      const b = yield* rpc(s, "GetResource", { id: s.knownIds.resources[1] })
      return JSON.stringify(a.json) !== JSON.stringify(b.json)
    })
}

layer(serverLayer())("the violation catalogue", (it) => {
  it.effect("is exported as data, each naming a contract-test check", () =>
    Effect.sync(() => {
      for (const v of ReferenceServer.violations) {
        expect(Schema.is(Faults.CheckId)(v.check)).toBe(true)
        expect(v.description.length).toBeGreaterThan(10)
      }
    })
  )

  for (const v of ReferenceServer.violations) {
    const probe = probes[v.name]
    if (probe === undefined) continue
    it.effect(`${v.name} (${v.check}) is observable, and only while switched on`, () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        yield* server.setFaults(Faults.none)
        expect(yield* probe(server), "faithful").toBe(false)
        yield* server.setFaults({ rules: [{ fault: { _tag: "Violation", name: v.name } }] })
        const visible = yield* probe(server)
        yield* server.setFaults(Faults.none)
        expect(visible, "violated").toBe(true)
        expect(yield* probe(server), "faithful again").toBe(false)
      })
    )
  }
})
