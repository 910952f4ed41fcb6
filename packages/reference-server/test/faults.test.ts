import { Operations } from "@data-access/schema"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { Faults, ReferenceServer } from "../src/index.js"
import { type Reply, rpc, serverLayer, TestServer, walk } from "./helpers.js"

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
      yield* server.setFaults({
        rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 2_000 } }]
      })
      let t = Date.now()
      const slow = yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] })
      expect(slow.status).toBe(200)
      expect(Date.now() - t).toBeGreaterThanOrEqual(1_990)
      // Another method is not delayed: its answer comes long before the latency, however busy the machine.
      t = Date.now()
      yield* rpc(server, "ListScenarioMonitors", { limit: 5 })
      expect(Date.now() - t).toBeLessThan(1_500)
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("Unavailable answers 503 unavailable, at most `times` times", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* server.setFaults({ rules: [{ fault: { _tag: "Unavailable" }, times: 2 }] })
      const replies = [] as Array<Reply>
      for (let i = 0; i < 3; i++)
        replies.push(yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] }))
      expect(replies.map((r) => r.status)).toEqual([503, 503, 200])
      expect(replies[0]!.json.code).toBe("unavailable")
      yield* server.setFaults(Faults.none)
    })
  )

  it.effect("RateLimited answers resource_exhausted 429 with Retry-After and X-Ratelimit-*", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* server.setFaults({
        rules: [
          { methods: ["ListSatellites"], fault: { _tag: "RateLimited", retryAfterSeconds: 7 } }
        ]
      })
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
      yield* server.setFaults({
        rules: [{ fault: { _tag: "DropConnection", when: "before-handling" } }]
      })
      const before = yield* Effect.either(
        raw(server, Operations.operations.UpdateSatellite.path, { id, name: "dropped-before" })
      )
      expect(before._tag).toBe("Left")
      yield* server.setFaults({
        rules: [{ fault: { _tag: "DropConnection", when: "after-handling" } }]
      })
      const after = yield* Effect.either(
        raw(server, Operations.operations.UpdateSatellite.path, { id, name: "dropped-after" })
      )
      expect(after._tag).toBe("Left")
      yield* server.setFaults(Faults.none)
      const names = (yield* walk(server, "ListSatellites", {
        limit: 500,
        search: "dropped-"
      })).items.map((s) => s.name)
      // Before handling the update never ran; after handling it did.
      expect(names).toEqual(["dropped-after"])
    })
  )

  it.effect("probabilities are deterministic under a seed", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const plan: ReferenceServer.FaultPlan = {
        seed: 3,
        rules: [{ fault: { _tag: "Unavailable" }, probability: 0.5 }]
      }
      const run = Effect.gen(function* () {
        yield* server.setFaults(plan)
        const out: Array<number> = []
        for (let i = 0; i < 24; i++)
          out.push((yield* rpc(server, "ListScenarioMonitors", { limit: 1 })).status)
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
      yield* server.setFaults({
        rules: [{ fault: { _tag: "DropConnection", when: "before-handling" } }]
      })
      const result = yield* Effect.either(call({ id: server.knownIds.resources[0] }))
      expect(
        result._tag === "Left" &&
          result.left._tag === "RequestError" &&
          result.left.reason === "Transport"
      ).toBe(true)
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
