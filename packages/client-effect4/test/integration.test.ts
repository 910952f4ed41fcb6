/**
 * The Effect 4 client against the real reference server, each in its own process, over loopback
 * HTTP: all 22 operations, typed errors, retries that honour Retry-After, deadlines, paging and
 * redaction.
 */
import * as Operations from "@data-access/schema-effect4/Operations"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { ClientError, DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { clientLayer, type RunningServer, startServer, startWithClient } from "./server.js"

const Client = DataAccessClient.DataAccessClient

/** The request context: ids from the server, and a native user of the first resource. */
const contextOf = (server: RunningServer) =>
  Effect.gen(function*() {
    const client = yield* Client
    const resourceId = server.knownIds.resources[0]!
    const users = yield* client.listNativeUsers({ resourceId, limit: 1 })
    return { ids: server.knownIds, resourceId, nativeUserId: users.nativeUsers[0]!.id, suffix: Math.random().toString(36).slice(2, 8), secret: Redacted.make }
  })

const getResource = (id: string, options?: { readonly retryPolicy?: RetryPolicy.RetryPolicy }) =>
  Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id }, { retryPolicy: options?.retryPolicy ?? RetryPolicy.none }))

const connectErrorOf = <A, R>(effect: Effect.Effect<A, ClientError.ClientError, R>) =>
  Effect.map(Effect.flip(effect), (e) => (e._tag === "ConnectError" ? e : undefined))

describe("against the reference server over loopback", () => {
  it.live("all 22 operations round-trip", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startWithClient()
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
        expect(satellites.find((s) => s.id === server.knownIds.satellites[0])?.name).toBe(`sat ${context.suffix}`)
        // Every operation reached the server once (and the reads above).
        const seen = new Set((yield* server.requests).map((r) => r.method))
        for (const op of Operations.all) expect(seen.has(op.method), op.method).toBe(true)
      }).pipe(Effect.provide(layer))
    }).pipe(Effect.scoped))

  it.live("responses with zero values left out decode to the same values as with every field written", () =>
    Effect.gen(function*() {
      const [sparse, full] = yield* Effect.all([startWithClient(), startWithClient({ emitDefaults: true })], { concurrency: 2 })
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
      const satellites = a[0] as ReadonlyArray<{ terminationProtection: boolean }>
      expect(satellites.some((s) => s.terminationProtection === false)).toBe(true)
    }).pipe(Effect.scoped))

  it.live("a paging stream over several pages returns every item once", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startWithClient()
      yield* Effect.gen(function*() {
        const resources = yield* Services.ResourceService
        const resourceId = server.knownIds.resources[0]!
        const all = yield* resources.listNativeUsers({ resourceId, limit: 500 })
        expect(all.nativeUsers.length).toBeGreaterThan(100)
        const streamed = yield* Stream.runCollect(resources.listNativeUsersStream({ resourceId }, { pageSize: 50 }))
        expect(streamed.map((u) => u.id)).toEqual(all.nativeUsers.map((u) => u.id))
        expect(new Set(streamed.map((u) => u.id)).size).toBe(streamed.length)
        const seen = (yield* server.requests).filter((r) => r.method === "ListNativeUsers")
        expect(seen.length).toBe(1 + Math.ceil(all.nativeUsers.length / 50))
        expect(seen.length - 1).toBeGreaterThanOrEqual(3)
      }).pipe(Effect.provide(layer))
    }).pipe(Effect.scoped))
})

describe("every error code the server produces decodes to its typed error", () => {
  it.live("unauthenticated, not_found, invalid_argument, unimplemented, decode errors", () =>
    Effect.gen(function*() {
      const { layer, server } = yield* startWithClient()
      const id = server.knownIds.resources[0]!

      const wrongKey = DataAccessClient.layer({ baseUrl: server.url, apiKey: Redacted.make("not-a-key") }).pipe(
        Layer.provide(NodeHttpClient.layerUndici),
        Layer.orDie
      )
      const unauthenticated = yield* connectErrorOf(getResource(id)).pipe(Effect.provide(wrongKey))
      expect(unauthenticated?.code).toBe("unauthenticated")
      expect(unauthenticated?.httpStatus).toBe(401)
      expect(unauthenticated && ClientError.isStatusFallback(unauthenticated)).toBe(false)

      const notFound = yield* connectErrorOf(getResource("resource_does_not_exist")).pipe(Effect.provide(layer))
      expect(notFound?.code).toBe("not_found")
      expect(notFound?.httpStatus).toBe(404)
      expect(notFound?.requestId).toBeTypeOf("string")
      // Typed errors are caught by tag and by code.
      const caught = yield* getResource("resource_does_not_exist").pipe(
        Effect.map(() => "found"),
        Effect.catchIf(ClientError.hasCode("not_found"), () => Effect.succeed("not found")),
        Effect.provide(layer)
      )
      expect(caught).toBe("not found")

      const badCursor = yield* connectErrorOf(
        Effect.flatMap(Services.SatelliteService, (s) => s.listSatellites({ limit: 5, cursor: "bogus" }))
      ).pipe(Effect.provide(layer))
      expect(badCursor?.code).toBe("invalid_argument")

      const wrongRoute = clientLayer({ ...server, url: `${server.url}/nothing-here` })
      const unimplemented = yield* connectErrorOf(getResource("x")).pipe(Effect.provide(wrongRoute))
      expect(unimplemented?.code).toBe("unimplemented")

      // A request that breaks a rule is not sent.
      const before = (yield* server.requests).length
      const invalid = yield* Effect.flip(Effect.flatMap(Services.SatelliteService, (s) => s.listSatellites({ limit: 0 }))).pipe(
        Effect.provide(layer)
      )
      expect(invalid._tag).toBe("InvalidRequestError")
      expect(invalid._tag === "InvalidRequestError" && invalid.path).toBe("$.limit")
      expect((yield* server.requests).length).toBe(before)

      // A connection that never opens.
      const closed = clientLayer({ ...server, url: "http://127.0.0.1:9" })
      const transport = yield* Effect.flip(getResource(id)).pipe(Effect.provide(closed))
      expect(transport._tag).toBe("TransportError")
      expect(transport._tag === "TransportError" && transport.phase).toBe("connect")
    }).pipe(Effect.scoped))

  it.live("faults: resource_exhausted with Retry-After, unavailable, a bare 502, a body that is not Connect, a broken response", () =>
    Effect.gen(function*() {
      const servers = yield* Effect.all(
        {
          limited: startServer({ faults: { rules: [{ fault: { _tag: "RateLimited", retryAfterSeconds: 7 } }] } }),
          unavailable: startServer({ faults: { rules: [{ fault: { _tag: "Unavailable" } }] } }),
          bare: startServer({ faults: { rules: [{ fault: { _tag: "BareStatus", status: 502 } }] } }),
          invalidBody: startServer({ faults: { rules: [{ fault: { _tag: "Violation", name: "invalid-error-body" } }] } }),
          wrongType: startServer({ faults: { rules: [{ fault: { _tag: "Violation", name: "wrong-field-type" } }] } })
        },
        { concurrency: "unbounded" }
      )
      const on = <A, E>(server: RunningServer, effect: Effect.Effect<A, E, Services.Any | DataAccessClient.DataAccessClient>) =>
        Effect.provide(effect, clientLayer(server))

      const limited = yield* on(servers.limited, connectErrorOf(getResource("x")))
      expect(limited?.code).toBe("resource_exhausted")
      expect(limited?.httpStatus).toBe(429)
      expect(limited?.rateLimit?.retryAfterMillis).toBe(7000)

      const unavailable = yield* on(servers.unavailable, connectErrorOf(getResource("x")))
      expect(unavailable?.code).toBe("unavailable")
      expect(unavailable?.isRetryable).toBe(true)

      const bare = yield* on(servers.bare, connectErrorOf(getResource("x")))
      expect(bare?.code).toBe("unavailable")
      expect(bare && ClientError.isStatusFallback(bare)).toBe(true)

      const invalidBody = yield* on(servers.invalidBody, connectErrorOf(getResource("resource_does_not_exist")))
      expect(invalidBody?.code).toBe("unimplemented") // 404 without a Connect body
      expect(invalidBody && ClientError.isStatusFallback(invalidBody)).toBe(true)

      const decode = yield* on(servers.wrongType, Effect.flip(getResource(servers.wrongType.knownIds.resources[0]!)))
      expect(decode._tag).toBe("DecodeError")
      expect(decode._tag === "DecodeError" && decode.path).toBe("$.resource.id")
    }).pipe(Effect.scoped))
})

describe("retries", () => {
  it.live("a read waits as long as Retry-After asks, then succeeds", () =>
    Effect.gen(function*() {
      const server = yield* startServer({
        faults: { rules: [{ methods: ["GetResource"], fault: { _tag: "RateLimited", retryAfterSeconds: 1 }, times: 1 }] }
      })
      const id = server.knownIds.resources[0]!
      // The policy alone would wait 10 ms; Retry-After makes it 1 s.
      const policy = RetryPolicy.exponential({ retries: 3, base: "10 millis", jitter: false })
      const started = Date.now()
      const { resource } = yield* Effect.provide(getResource(id, { retryPolicy: policy }), clientLayer(server))
      const elapsed = Date.now() - started
      expect(resource.id).toBe(id)
      expect(elapsed).toBeGreaterThanOrEqual(1000)
      expect(elapsed).toBeLessThan(5000)
      const seen = (yield* server.requests).filter((r) => r.method === "GetResource")
      expect(seen.map((r) => r.code)).toEqual(["resource_exhausted", "ok"])
    }).pipe(Effect.scoped))

  it.live("reads retry unavailable; creates retry a Connect unavailable but never a bare 502", () =>
    Effect.gen(function*() {
      const servers = yield* Effect.all(
        {
          flaky: startServer({ faults: { rules: [{ fault: { _tag: "Unavailable" }, times: 2 }] } }),
          proxy: startServer({ faults: { rules: [{ methods: ["CreateConnector"], fault: { _tag: "BareStatus", status: 502 } }] } })
        },
        { concurrency: "unbounded" }
      )
      const policy = RetryPolicy.exponential({ retries: 3, base: "10 millis", jitter: false })
      const id = servers.flaky.knownIds.resources[0]!
      const read = yield* Effect.provide(getResource(id, { retryPolicy: policy }), clientLayer(servers.flaky))
      expect(read.resource.id).toBe(id)
      expect((yield* servers.flaky.requests).map((r) => r.code)).toEqual(["unavailable", "unavailable", "ok"])

      const create = Effect.flatMap(Services.ConnectorService, (s) => s.createConnector({ name: "conn-retry" }, { retryPolicy: policy }))
      const bare = yield* Effect.flip(Effect.provide(create, clientLayer(servers.proxy)))
      expect(bare._tag === "ConnectError" && bare.code).toBe("unavailable")
      expect((yield* servers.proxy.requests).filter((r) => r.method === "CreateConnector")).toHaveLength(1)
    }).pipe(Effect.scoped))
})

describe("deadlines", () => {
  it.live("the overall timeout ends a slow call and Connect-Timeout-Ms carries the time left", () =>
    Effect.gen(function*() {
      const server = yield* startServer({ faults: { rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 3000 } }] } })
      const sent: Array<string | undefined> = []
      const layer = clientLayer(server, {
        transformClient: HttpClient.tapRequest((request) => Effect.sync(() => sent.push(request.headers["connect-timeout-ms"])))
      })
      const started = Date.now()
      const error = yield* Effect.flip(
        Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id: server.knownIds.resources[0]! }, { timeout: "400 millis" }))
      ).pipe(Effect.provide(layer))
      expect(Date.now() - started).toBeLessThan(2500)
      expect(error._tag).toBe("TimeoutError")
      expect(error._tag === "TimeoutError" && error.scope).toBe("overall")
      expect(sent.length).toBeGreaterThanOrEqual(1)
      expect(Number(sent[0])).toBeGreaterThan(0)
      expect(Number(sent[0])).toBeLessThanOrEqual(400)
    }).pipe(Effect.scoped))

  it.live("the server's own deadline answers deadline_exceeded", () =>
    Effect.gen(function*() {
      const server = yield* startServer({ faults: { rules: [{ fault: { _tag: "Latency", millis: 300 } }] } })
      const layer = clientLayer(server, {
        transformClient: HttpClient.mapRequest(HttpClientRequest.setHeader("connect-timeout-ms", "50"))
      })
      const error = yield* connectErrorOf(getResource(server.knownIds.resources[0]!)).pipe(Effect.provide(layer))
      expect(error?.code).toBe("deadline_exceeded")
    }).pipe(Effect.scoped))
})

describe("redaction against the reference server", () => {
  it.live("no API key or secret field value reaches logs, spans, errors or printed values", () =>
    Effect.gen(function*() {
      const capture = makeCapture()
      // return-secrets: the server returns the stored secrets, so that there are some to leak.
      const { layer, server } = yield* startWithClient({ latitude: ["return-secrets"] })
      const values: Array<unknown> = []
      const errors: Array<unknown> = []
      yield* Effect.gen(function*() {
        const client = yield* Client
        const context = yield* contextOf(server)
        for (const op of Operations.all) {
          values.push(yield* client.call(op.method, Behaviour.requestFor[op.method]!(context) as never))
        }
        values.push(yield* Stream.runCollect(client.listNativeUsersStream({ resourceId: context.resourceId })))
        errors.push(yield* Effect.flip(client.getResource({ id: "resource_missing" })))
        yield* Effect.logDebug("decoded", ...values)
        yield* Effect.logError("failed", ...errors)
      }).pipe(Effect.withSpan("redaction"), Effect.provide(Layer.merge(layer, capture.layer)))
      const reveal = (u: unknown) => (Redacted.isRedacted(u) ? Redacted.value(u) : undefined)
      const secrets = new Set([server.apiKey, ...Behaviour.secretsIn(values, reveal)])
      const dump = capture.dump()
      Behaviour.verifyNoLeak({ secrets, values, errors, dump, spans: capture.spans.length, lines: capture.lines.length }, expect)
    }).pipe(Effect.scoped))
})
