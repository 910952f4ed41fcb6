import * as Operations from "@data-access/schema/Operations"
import type { ReferenceServer } from "@data-access/reference-server"
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { ClientError, DataAccessClient, Services } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { startServer } from "./server.js"

const Client = DataAccessClient.DataAccessClient
const layerHttp = NodeHttpClient.layerUndici

/** The request context: ids from the server, and a native user of the first resource. */
const contextOf = (server: ReferenceServer.Running) =>
  Effect.gen(function*() {
    const client = yield* Client
    const resourceId = server.knownIds.resources[0]!
    const users = yield* client.listNativeUsers({ resourceId, limit: 1 })
    return { ids: server.knownIds, resourceId, nativeUserId: users.nativeUsers[0]!.id, suffix: Math.random().toString(36).slice(2, 8), secret: Redacted.make }
  })

describe("against the reference server over loopback", () => {
  it.live("all 22 operations round-trip", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startServer()
      yield* Effect.gen(function*() {
        const client = yield* Client
        const context = yield* contextOf(server)
        const done: Array<string> = []
        for (const op of Operations.all) {
          const request = Behaviour.requestFor[op.method]!(context) as Record<string, unknown>
          const response = (yield* client.call(op.method, request as never)) as Record<string, unknown>
          Behaviour.verifyAnswer(op, request, response, expect)
          done.push(op.method)
        }
        expect(done).toHaveLength(22)
        expect(Object.keys(Behaviour.requestFor).sort()).toEqual(Operations.all.map((o) => o.method).sort())
        // Writes took effect: the update is visible on a later read.
        const satellites = yield* Stream.runCollect(client.listSatellitesStream({}))
        expect(Chunk.toReadonlyArray(satellites).find((s) => s.id === server.knownIds.satellites[0])?.name).toBe(`sat ${context.suffix}`)
      }).pipe(Effect.provide(layer))
    }).pipe(Effect.scoped))

  it.live("responses with zero values left out decode to the same values as with every field written", () =>
    Effect.gen(function*() {
      const sparse = yield* startServer()
      const full = yield* startServer({ emitDefaults: true })
      const read = Effect.gen(function*() {
        const client = yield* Client
        return [
          yield* Stream.runCollect(client.listSatellitesStream({})),
          yield* client.getResource({ id: sparse.server.knownIds.resources[0]! }),
          yield* Stream.runCollect(client.listNativeUsersStream({ resourceId: sparse.server.knownIds.resources[0]! })),
          yield* client.getPolicyStageConfiguration({ id: sparse.server.knownIds.policyStageConfigurations[0]! })
        ]
      })
      const a = yield* Effect.provide(read, sparse.layer)
      const b = yield* Effect.provide(read, full.layer)
      expect(a).toEqual(b)
      // The sparse server really left zero values out: some satellite has terminationProtection false.
      const satellites = Chunk.toReadonlyArray(a[0] as Chunk.Chunk<{ terminationProtection: boolean }>)
      expect(satellites.some((s) => s.terminationProtection === false)).toBe(true)
    }).pipe(Effect.scoped))

  it.live("a paging stream over three pages returns every item once", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startServer()
      yield* Effect.gen(function*() {
        const resources = yield* Services.ResourceService
        const resourceId = server.knownIds.resources[0]!
        const all = yield* resources.listNativeUsers({ resourceId, limit: 500 })
        expect(all.nativeUsers.length).toBeGreaterThan(100)
        const streamed = Chunk.toReadonlyArray(yield* Stream.runCollect(resources.listNativeUsersStream({ resourceId }, { pageSize: 50 })))
        expect(streamed.map((u) => u.id)).toEqual(all.nativeUsers.map((u) => u.id))
        expect(new Set(streamed.map((u) => u.id)).size).toBe(streamed.length)
        const seen = (yield* server.requests).filter((r) => r.method === "ListNativeUsers")
        expect(seen.length).toBe(1 + Math.ceil(all.nativeUsers.length / 50))
        expect(seen.length - 1).toBeGreaterThanOrEqual(3)
      }).pipe(Effect.provide(layer))
    }).pipe(Effect.scoped))
})

describe("every error code the server produces decodes to its typed error", () => {
  it.live("unauthenticated, not_found, invalid_argument, unimplemented, resource_exhausted, unavailable, deadline_exceeded", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startServer()
      const url = server.url
      const getResource = (id: string) => Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id }, { retryPolicy: Schedule.stop }))
      const codeOf = <A, R>(effect: Effect.Effect<A, ClientError.ClientError, R>) =>
        Effect.map(Effect.flip(effect), (e) => (e._tag === "ConnectError" ? e : undefined))

      const wrongKey = DataAccessClient.layer({ baseUrl: url, apiKey: Redacted.make("not-a-key") }).pipe(Layer.provide(layerHttp), Layer.orDie)
      const unauthenticated = yield* codeOf(getResource(server.knownIds.resources[0]!)).pipe(Effect.provide(wrongKey))
      expect(unauthenticated?.code).toBe("unauthenticated")
      expect(unauthenticated?.httpStatus).toBe(401)
      expect(unauthenticated && ClientError.isStatusFallback(unauthenticated)).toBe(false)

      const notFound = yield* codeOf(getResource("resource_does_not_exist")).pipe(Effect.provide(layer))
      expect(notFound?.code).toBe("not_found")
      expect(notFound?.httpStatus).toBe(404)
      expect(notFound?.requestId).toBeTypeOf("string")

      const badCursor = yield* codeOf(
        Effect.flatMap(Services.SatelliteService, (s) => s.listSatellites({ limit: 5, cursor: "bogus" }))
      ).pipe(Effect.provide(layer))
      expect(badCursor?.code).toBe("invalid_argument")

      const wrongRoute = DataAccessClient.layer({ baseUrl: `${url}/nothing-here`, apiKey: Redacted.make(server.apiKeys[0]!) }).pipe(
        Layer.provide(layerHttp),
        Layer.orDie
      )
      const unimplemented = yield* codeOf(getResource("x")).pipe(Effect.provide(wrongRoute))
      expect(unimplemented?.code).toBe("unimplemented")

      yield* server.setFaults({ rules: [{ fault: { _tag: "RateLimited", retryAfterSeconds: 7 } }] })
      const limited = yield* codeOf(getResource("x")).pipe(Effect.provide(layer))
      expect(limited?.code).toBe("resource_exhausted")
      expect(limited?.rateLimit?.retryAfterMillis).toBe(7000)

      yield* server.setFaults({ rules: [{ fault: { _tag: "Unavailable" } }] })
      const unavailable = yield* codeOf(getResource("x")).pipe(Effect.provide(layer))
      expect(unavailable?.code).toBe("unavailable")
      expect(unavailable?.isRetryable).toBe(true)

      yield* server.setFaults({ rules: [{ fault: { _tag: "BareStatus", status: 502 } }] })
      const bare = yield* codeOf(getResource("x")).pipe(Effect.provide(layer))
      expect(bare?.code).toBe("unavailable")
      expect(bare && ClientError.isStatusFallback(bare)).toBe(true)

      yield* server.setFaults({ rules: [{ fault: { _tag: "Violation", name: "invalid-error-body" } }] })
      const invalidBody = yield* codeOf(getResource("resource_does_not_exist")).pipe(Effect.provide(layer))
      expect(invalidBody?.code).toBe("unimplemented") // 404 without a Connect body
      expect(invalidBody && ClientError.isStatusFallback(invalidBody)).toBe(true)

      // The server's own deadline: a shorter Connect-Timeout-Ms than the client's budget.
      yield* server.setFaults({ rules: [{ fault: { _tag: "Latency", millis: 300 } }] })
      const shortDeadline = DataAccessClient.layer({
        baseUrl: url,
        apiKey: Redacted.make(server.apiKeys[0]!),
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("connect-timeout-ms", "50"))
      }).pipe(Layer.provide(layerHttp), Layer.orDie)
      const deadline = yield* codeOf(getResource(server.knownIds.resources[0]!)).pipe(Effect.provide(shortDeadline))
      expect(deadline?.code).toBe("deadline_exceeded")
      yield* server.setFaults({ rules: [] })

      // A wrong content type: unknown (a proxy or a misconfigured client, not retried away).
      const textPlain = DataAccessClient.layer({
        baseUrl: url,
        apiKey: Redacted.make(server.apiKeys[0]!),
        retryPolicy: Schedule.stop,
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("content-type", "text/plain"))
      }).pipe(Layer.provide(layerHttp), Layer.orDie)
      const unknown = yield* codeOf(getResource(server.knownIds.resources[0]!)).pipe(Effect.provide(textPlain))
      expect(unknown?.code).toBe("unknown")

      // An unknown field that the server chokes on: internal.
      yield* server.setFaults({ rules: [{ fault: { _tag: "Violation", name: "server-error-on-unknown-field" } }] })
      const extraField = DataAccessClient.layer({
        baseUrl: url,
        apiKey: Redacted.make(server.apiKeys[0]!),
        retryPolicy: Schedule.stop,
        transformClient: HttpClient.mapRequest((req) =>
          req.body._tag === "Uint8Array"
            ? HttpClientRequest.bodyText(req, JSON.stringify({ ...JSON.parse(new TextDecoder().decode(req.body.body)), futureField: 1 }), "application/json")
            : req
        )
      }).pipe(Layer.provide(layerHttp), Layer.orDie)
      const internal = yield* codeOf(getResource(server.knownIds.resources[0]!)).pipe(Effect.provide(extraField))
      expect(internal?.code).toBe("internal")
      expect(internal?.isRetryable).toBe(true)
      yield* server.setFaults({ rules: [] })

      yield* server.setFaults({ rules: [{ fault: { _tag: "Violation", name: "wrong-field-type" } }] })
      const decode = yield* Effect.flip(getResource(server.knownIds.resources[0]!)).pipe(Effect.provide(layer))
      expect(decode._tag).toBe("DecodeError")
      expect(decode._tag === "DecodeError" && decode.path).toBe("$.resource.id")
    }).pipe(Effect.scoped))
})

describe("body size limit", () => {
  it.live("a request over the server body limit decodes to resource_exhausted", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startServer({ maxBodyBytes: 256 })
      const error = yield* Effect.flip(
        Effect.flatMap(Services.PermissionsService, (s) =>
          s.createPermission({ name: "big", description: "too big", code: "x".repeat(1000) }, { retryPolicy: Schedule.stop }))
      ).pipe(Effect.provide(layer))
      expect(error._tag === "ConnectError" && error.code).toBe("resource_exhausted")
      expect((yield* server.requests).filter((r) => r.method === "CreatePermission")).toHaveLength(1)
    }).pipe(Effect.scoped))
})

describe("redaction against the reference server", () => {
  it.live("no API key or secret field value reaches logs, spans, errors or printed values", () =>
    Effect.gen(function*() {
      const capture = makeCapture()
      // return-secrets: the server returns the stored secrets, so that there are some to leak.
      const { layer, server } = yield* startServer({ latitude: ["return-secrets"] })
      const values: Array<unknown> = []
      const errors: Array<unknown> = []
      yield* Effect.gen(function*() {
        const client = yield* Client
        const context = yield* contextOf(server)
        for (const op of Operations.all) {
          values.push(yield* client.call(op.method, Behaviour.requestFor[op.method]!(context) as never))
        }
        values.push(Chunk.toReadonlyArray(yield* Stream.runCollect(client.listNativeUsersStream({ resourceId: context.resourceId }))))
        errors.push(yield* Effect.flip(client.getResource({ id: "resource_missing" })))
        yield* Effect.logDebug("decoded", ...values)
        yield* Effect.logError("failed", ...errors)
      }).pipe(Effect.withSpan("redaction"), Effect.provide(Layer.merge(layer, capture.layer)))
      const reveal = (u: unknown) => (Redacted.isRedacted(u) ? Redacted.value(u) : undefined)
      const secrets = new Set([server.apiKeys[0]!, ...Behaviour.secretsIn(values, reveal)])
      const dump = capture.dump()
      Behaviour.verifyNoLeak({ secrets, values, errors, dump, spans: capture.spans.length, lines: capture.lines.length }, expect)
    }).pipe(Effect.scoped))
})
