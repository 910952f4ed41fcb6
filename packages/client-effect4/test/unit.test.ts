import { ClientError, DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { readFileSync } from "node:fs"
import { API_KEY, clientLayer, makeFake, resource, runWithClock, unavailable } from "./fake.js"

const getResource = (options?: Services.CallOptions) =>
  Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id: "resource_1" }, options))

const failure = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const e = Exit.findErrorOption(exit)
  if (Option.isNone(e)) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return e.value
}

describe("headers", () => {
  it.effect("every call sends the API key, content type, protocol version, user agent and deadline", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      const result = yield* getResource({ timeout: "5 seconds", attemptTimeout: "10 seconds" }).pipe(Effect.provide(clientLayer(fake)))
      expect(result.resource.port).toBe(5432)
      const [req] = fake.seen
      expect(req!.url).toBe("http://fake.invalid/core.v1.ResourceService/GetResource")
      expect(req!.headers["x-api-key"]).toBe(API_KEY)
      expect(req!.headers["content-type"]).toBe("application/json")
      expect(req!.headers["connect-protocol-version"]).toBe("1")
      expect(req!.headers["user-agent"]).toBe(`@data-access/client-effect4/${pkg.version}`)
      expect(Number(req!.headers["connect-timeout-ms"])).toBeLessThanOrEqual(5000)
      expect(Number(req!.headers["connect-timeout-ms"])).toBeGreaterThan(4000)
      expect(req!.body).toEqual({ id: "resource_1" })
    }))

  it.effect("the deadline header is the attempt timeout when it is shorter than the budget", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      yield* getResource({ timeout: "30 seconds", attemptTimeout: "2 seconds" }).pipe(Effect.provide(clientLayer(fake)))
      expect(fake.seen[0]!.headers["connect-timeout-ms"]).toBe("2000")
    }))

  it.effect("without a finite deadline no Connect-Timeout-Ms is sent", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      yield* getResource({ timeout: Duration.infinity, attemptTimeout: Duration.infinity }).pipe(Effect.provide(clientLayer(fake)))
      expect(fake.seen[0]!.headers["connect-timeout-ms"]).toBeUndefined()
      const fake2 = makeFake([{ status: 200, body: resource }])
      yield* getResource({ timeout: Duration.infinity, attemptTimeout: "400 days" }).pipe(Effect.provide(clientLayer(fake2)))
      expect(fake2.seen[0]!.headers["connect-timeout-ms"]).toBe("9999999999")
    }))

  it.effect("a trailing slash on the base URL is harmless and a bad base URL is a ConfigError", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      yield* getResource().pipe(Effect.provide(clientLayer(fake, { baseUrl: "http://fake.invalid/" })))
      expect(fake.seen[0]!.url).toBe("http://fake.invalid/core.v1.ResourceService/GetResource")
      const exit = yield* Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake, { baseUrl: "not a url" }))))
      expect(String(failure(exit))).toContain("baseUrl")
    }))
})

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }

describe("errors", () => {
  it.effect("the code comes from the body, not the status", () =>
    Effect.gen(function*() {
      const fake = makeFake([
        { status: 400, body: { code: "not_found", message: "no such resource", details: [{ type: "x", value: "AA==" }] }, headers: { "x-request-id": "req-1" } }
      ])
      const error = failure(yield* Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake)))))
      expect(error._tag).toBe("ConnectError")
      if (error._tag !== "ConnectError") return
      expect(error.code).toBe("not_found")
      expect(error.message).toBe("no such resource")
      expect(error.httpStatus).toBe(400)
      expect(error.requestId).toBe("req-1")
      expect(error.details).toHaveLength(1)
      expect(error.operation).toBe("ResourceService/GetResource")
      expect(ClientError.isStatusFallback(error)).toBe(false)
      expect(fake.seen).toHaveLength(1)
    }))

  it.effect.each([
    [401, "unauthenticated"],
    [403, "permission_denied"],
    [404, "unimplemented"],
    [429, "unavailable"],
    [502, "unavailable"],
    [503, "unavailable"],
    [504, "unavailable"],
    [400, "unknown"],
    [418, "unknown"],
    [500, "unknown"]
  ] as const)("a bare %i without a Connect body falls back to %s", ([status, code]) =>
    Effect.gen(function*() {
      const fake = makeFake([{ status, text: "Bad Gateway" }])
      const error = failure(yield* Effect.exit(getResource({ retryPolicy: RetryPolicy.none }).pipe(Effect.provide(clientLayer(fake)))))
      expect(error._tag === "ConnectError" && error.code).toBe(code)
      expect(error._tag === "ConnectError" && error.httpStatus).toBe(status)
      expect(error._tag === "ConnectError" && ClientError.isStatusFallback(error)).toBe(true)
    }))

  it.effect("an error body that is JSON but not a Connect error also falls back to the status", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 403, body: { error: "nope", code: "not-a-code" } }])
      const error = failure(yield* Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake)))))
      expect(error._tag === "ConnectError" && error.code).toBe("permission_denied")
    }))

  it.effect("rate-limit headers are kept", () =>
    Effect.gen(function*() {
      const fake = makeFake([
        {
          status: 429,
          body: { code: "resource_exhausted", message: "slow down" },
          headers: { "retry-after": "2", "x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1700000000" }
        }
      ])
      const error = failure(yield* Effect.exit(getResource({ retryPolicy: RetryPolicy.none }).pipe(Effect.provide(clientLayer(fake)))))
      expect(error._tag === "ConnectError" && error.rateLimit).toEqual({ limit: 100, remaining: 0, reset: 1700000000, retryAfterMillis: 2000 })
      expect((error as ClientError.ClientError).isRetryable).toBe(true)
    }))

  it.effect("a malformed response is a DecodeError naming the JSON path", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: { resource: { id: "r", port: "not a port" } } }])
      const error = failure(yield* Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake)))))
      expect(error._tag).toBe("DecodeError")
      expect(error._tag === "DecodeError" && error.path).toBe("$.resource.port")
      expect(error.message).toContain("$.resource.port")
      expect((error as ClientError.ClientError).isRetryable).toBe(false)
      expect(fake.seen).toHaveLength(1)
    }))

  it.effect("a 200 that is not JSON is a DecodeError at $", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, text: "<html>" }])
      const error = failure(yield* Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake)))))
      expect(error._tag === "DecodeError" && error.path).toBe("$")
    }))

  it.effect("a decode error on a secret field never shows the value", () =>
    Effect.gen(function*() {
      const leaked = "s3cr3t-value-that-must-not-print"
      const fake = makeFake([
        { status: 200, body: { nativeUsers: [{ id: "u1", secret: { nested: leaked } }], listMetadata: {} } }
      ])
      const error = failure(
        yield* Effect.exit(
          Effect.flatMap(Services.ResourceService, (s) => s.listNativeUsers({ resourceId: "r", limit: 10 })).pipe(Effect.provide(clientLayer(fake)))
        )
      )
      expect(error._tag === "DecodeError" && error.path).toBe("$.nativeUsers[0].secret")
      expect(String(error)).not.toContain(leaked)
      expect(JSON.stringify(error)).not.toContain(leaked)
    }))

  it.effect("an invalid request is an InvalidRequestError and is not sent", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: {} }])
      const error = failure(
        yield* Effect.exit(
          Effect.flatMap(Services.ResourceService, (s) => s.listNativeUsers({ resourceId: "r", limit: 0 })).pipe(Effect.provide(clientLayer(fake)))
        )
      )
      expect(error._tag).toBe("InvalidRequestError")
      expect(error._tag === "InvalidRequestError" && error.path).toBe("$.limit")
      expect(error.message).toContain("limit must be from 1 to 500")
      expect(fake.seen).toHaveLength(0)
    }))
})

describe("a call is a description", () => {
  it.effect("nothing is sent until the effect runs, and each run sends its own request with its own deadline", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      const layer = clientLayer(fake)
      const service = yield* Effect.provide(Services.ResourceService, layer)
      const call = service.getResource({ id: "resource_1" }, { timeout: "3 seconds" })
      expect(fake.seen).toHaveLength(0)
      yield* Effect.provide(call, layer)
      yield* TestClock.adjust("1 second")
      yield* Effect.provide(call, layer)
      expect(fake.seen).toHaveLength(2)
      expect(fake.seen.map((r) => r.body)).toEqual([{ id: "resource_1" }, { id: "resource_1" }])
      expect(fake.seen.map((r) => r.headers["connect-timeout-ms"])).toEqual(["3000", "3000"])
      expect(fake.seen[1]!.at - fake.seen[0]!.at).toBe(1000)
    }))
})


describe("retries (TestClock)", () => {
  it.effect("a read retries transient errors with the default backoff (2 retries, 500 ms then 1 s, jittered)", () =>
    Effect.gen(function*() {
      for (let run = 0; run < 2; run++) {
        const fake = makeFake([unavailable, unavailable, { status: 200, body: resource }])
        const fiber = yield* Effect.forkChild(getResource().pipe(Effect.provide(clientLayer(fake))))
        const result = yield* runWithClock(fiber, 10_000, 5)
        expect(result.resource.id).toBe("resource_1")
        expect(fake.seen).toHaveLength(3)
        const [a, b, c] = fake.seen.map((s) => s.at)
        expect(b! - a!).toBeGreaterThanOrEqual(400)
        expect(b! - a!).toBeLessThanOrEqual(605)
        expect(c! - b!).toBeGreaterThanOrEqual(800)
        expect(c! - b!).toBeLessThanOrEqual(1205)
      }
    }))

  it.effect("the retries run out after 2 and the last error is returned", () =>
    Effect.gen(function*() {
      const fake = makeFake([unavailable])
      const fiber = yield* Effect.forkChild(Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake)))))
      yield* TestClock.adjust("10 seconds")
      const error = failure(yield* Fiber.join(fiber))
      expect(error._tag === "ConnectError" && error.code).toBe("unavailable")
      expect(fake.seen).toHaveLength(3)
    }))

  it.effect("the policy can be replaced per layer and per call", () =>
    Effect.gen(function*() {
      const fake = makeFake([unavailable])
      const layer = clientLayer(fake, { retryPolicy: Schedule.spaced("1 second").pipe(Schedule.upTo({ times: 4 })) })
      const fiber = yield* Effect.forkChild(Effect.exit(getResource().pipe(Effect.provide(layer))))
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(fiber)
      expect(fake.seen).toHaveLength(5)
      const fake2 = makeFake([unavailable])
      yield* Effect.exit(getResource({ retryPolicy: RetryPolicy.none }).pipe(Effect.provide(clientLayer(fake2))))
      expect(fake2.seen).toHaveLength(1)
    }))

  it.effect("Retry-After (seconds) lengthens the wait", () =>
    Effect.gen(function*() {
      const fake = makeFake([
        { status: 429, body: { code: "resource_exhausted" }, headers: { "retry-after": "3" } },
        { status: 200, body: resource }
      ])
      const fiber = yield* Effect.forkChild(getResource().pipe(Effect.provide(clientLayer(fake))))
      yield* TestClock.adjust("2999 millis")
      expect(fake.seen).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(fake.seen).toHaveLength(2)
    }))

  it.effect("retry-after-ms is honoured", () =>
    Effect.gen(function*() {
      const fake = makeFake([
        { status: 503, body: { code: "unavailable" }, headers: { "retry-after-ms": "1500" } },
        { status: 200, body: resource }
      ])
      const fiber = yield* Effect.forkChild(getResource({ retryPolicy: RetryPolicy.exponential({ base: "10 millis", jitter: false }) }).pipe(Effect.provide(clientLayer(fake))))
      yield* TestClock.adjust("1499 millis")
      expect(fake.seen).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(fiber)
      expect(fake.seen).toHaveLength(2)
    }))

  it.effect("a Retry-After beyond the remaining budget ends the retries with the error at once", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 429, body: { code: "resource_exhausted" }, headers: { "retry-after": "20" } }])
      const exit = yield* getResource({ timeout: "5 seconds" }).pipe(Effect.provide(clientLayer(fake)), Effect.exit)
      expect(failure(exit)._tag).toBe("ConnectError")
      expect(fake.seen).toHaveLength(1)
    }))

  it("parseRetryAfter reads seconds, HTTP dates and milliseconds, capped at 60 s", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(RetryPolicy.parseRetryAfter({ "retry-after": "7" }, now)).toBe(7000)
    expect(RetryPolicy.parseRetryAfter({ "retry-after": "Thu, 01 Jan 2026 00:00:12 GMT" }, now)).toBe(12000)
    expect(RetryPolicy.parseRetryAfter({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }, now)).toBe(0)
    expect(RetryPolicy.parseRetryAfter({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250)
    expect(RetryPolicy.parseRetryAfter({ "retry-after": "3600" }, now)).toBe(60000)
    expect(RetryPolicy.parseRetryAfter({ "retry-after": "soon" }, now)).toBeUndefined()
    expect(RetryPolicy.parseRetryAfter({}, now)).toBeUndefined()
  })

  const createConnector = Effect.flatMap(Services.ConnectorService, (s) => s.createConnector({ name: "edge-1" }))
  const created = { status: 200, body: { connector: { id: "connector_1", name: "edge-1" } } }

  it.effect.each([
    ["a bare 502 from a proxy", { status: 502, text: "Bad Gateway" }],
    ["a bare 504 from a proxy", { status: 504, text: "Gateway Timeout" }],
    ["a reset after the request was sent", { transport: "ECONNRESET" }],
    ["a Connect internal error", { status: 500, body: { code: "internal" } }],
    ["a Connect deadline_exceeded", { status: 504, body: { code: "deadline_exceeded" } }]
  ] as const)("a create is not retried after %s", ([, reply]) =>
    Effect.gen(function*() {
      const fake = makeFake([reply, created])
      const fiber = yield* Effect.forkChild(Effect.exit(createConnector.pipe(Effect.provide(clientLayer(fake)))))
      yield* TestClock.adjust("30 seconds")
      expect(Exit.isFailure(yield* Fiber.join(fiber))).toBe(true)
      expect(fake.seen).toHaveLength(1)
    }))

  it.effect.each([
    ["a Connect unavailable body", unavailable],
    ["a Connect resource_exhausted body", { status: 429, body: { code: "resource_exhausted" } }],
    ["a refused connection", { transport: "ECONNREFUSED" }]
  ] as const)("a create is retried after %s", ([, reply]) =>
    Effect.gen(function*() {
      const fake = makeFake([reply, created])
      const fiber = yield* Effect.forkChild(createConnector.pipe(Effect.provide(clientLayer(fake))))
      yield* TestClock.adjust("30 seconds")
      const result = yield* Fiber.join(fiber)
      expect(result.connector.id).toBe("connector_1")
      expect(fake.seen).toHaveLength(2)
    }))

  it.effect.each([
    ["a bare 502", { status: 502, text: "Bad Gateway" }],
    ["a bare 408", { status: 408, text: "Request Timeout" }],
    ["a reset", { transport: "ECONNRESET" }],
    ["a Connect aborted", { status: 409, body: { code: "aborted" } }]
  ] as const)("a read is retried after %s", ([, reply]) =>
    Effect.gen(function*() {
      const fake = makeFake([reply, { status: 200, body: resource }])
      const fiber = yield* Effect.forkChild(getResource().pipe(Effect.provide(clientLayer(fake))))
      yield* TestClock.adjust("30 seconds")
      yield* Fiber.join(fiber)
      expect(fake.seen).toHaveLength(2)
    }))

  it.effect("a read is not retried after not_found or invalid_argument", () =>
    Effect.gen(function*() {
      for (const code of ["not_found", "invalid_argument", "permission_denied"]) {
        const fake = makeFake([{ status: 400, body: { code } }, { status: 200, body: resource }])
        const exit = yield* Effect.exit(getResource().pipe(Effect.provide(clientLayer(fake))))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(fake.seen).toHaveLength(1)
      }
    }))
})

describe("deadlines (TestClock)", () => {
  it.effect("an attempt that hangs times out, is retried, and the overall budget ends it with a TimeoutError", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ hang: true }])
      const fiber = yield* Effect.forkChild(
        Effect.exit(
          getResource({ attemptTimeout: "1 second", timeout: "2500 millis", retryPolicy: RetryPolicy.exponential({ base: "100 millis", jitter: false, retries: 5 }) })
            .pipe(Effect.provide(clientLayer(fake)))
        )
      )
      yield* TestClock.adjust("1 second")
      expect(fake.seen).toHaveLength(1)
      yield* TestClock.adjust("100 millis")
      expect(fake.seen).toHaveLength(2)
      expect(fake.seen[1]!.headers["connect-timeout-ms"]).toBe("1000")
      yield* TestClock.adjust("1200 millis")
      expect(fake.seen).toHaveLength(3)
      expect(Number(fake.seen[2]!.headers["connect-timeout-ms"])).toBe(200)
      yield* TestClock.adjust("200 millis")
      const error = failure(yield* Fiber.join(fiber))
      expect(error._tag).toBe("TimeoutError")
      expect(error._tag === "TimeoutError" && error.scope).toBe("overall")
      expect(error._tag === "TimeoutError" && error.timeoutMillis).toBe(2500)
      expect((error as ClientError.ClientError).isRetryable).toBe(false)
    }))

  it.effect("a create that times out is not retried", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ hang: true }])
      const fiber = yield* Effect.forkChild(
        Effect.exit(
          Effect.flatMap(Services.ConnectorService, (s) => s.createConnector({ name: "edge-1" }, { attemptTimeout: "1 second" })).pipe(
            Effect.provide(clientLayer(fake))
          )
        )
      )
      yield* TestClock.adjust("20 seconds")
      const error = failure(yield* Fiber.join(fiber))
      expect(error._tag === "TimeoutError" && error.scope).toBe("attempt")
      expect(fake.seen).toHaveLength(1)
    }))
})

describe("deadlines (real time, fake HttpClient)", () => {
  it.live("an attempt that hangs ends with a TimeoutError after the attempt timeout, and the request is interrupted", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ hang: true }])
      const started = Date.now()
      const error = failure(
        yield* Effect.exit(
          Effect.flatMap(Services.ConnectorService, (s) => s.createConnector({ name: "edge-1" }, { attemptTimeout: "150 millis" })).pipe(
            Effect.provide(clientLayer(fake))
          )
        )
      )
      const elapsed = Date.now() - started
      expect(error._tag === "TimeoutError" && error.scope).toBe("attempt")
      expect(error._tag === "TimeoutError" && error.timeoutMillis).toBe(150)
      expect(fake.seen).toHaveLength(1)
      expect(fake.interrupted.count).toBe(1)
      expect(elapsed).toBeGreaterThanOrEqual(145)
      expect(elapsed).toBeLessThan(1500)
    }))

  it.live("the overall budget ends hanging attempts of a read with a TimeoutError of scope overall", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ hang: true }])
      const error = failure(
        yield* Effect.exit(
          getResource({ attemptTimeout: "100 millis", timeout: "250 millis", retryPolicy: RetryPolicy.exponential({ base: "10 millis", jitter: false, retries: 5 }) })
            .pipe(Effect.provide(clientLayer(fake)))
        )
      )
      expect(error._tag === "TimeoutError" && error.scope).toBe("overall")
      expect(error._tag === "TimeoutError" && error.timeoutMillis).toBe(250)
      expect(fake.seen.length).toBeGreaterThanOrEqual(2)
      expect(fake.interrupted.count).toBe(fake.seen.length)
    }))

  it.live("interrupting the caller interrupts the request in flight", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ hang: true }])
      const fiber = yield* Effect.forkChild(getResource({ attemptTimeout: "10 seconds" }).pipe(Effect.provide(clientLayer(fake))))
      yield* Effect.sleep("50 millis")
      expect(fake.seen).toHaveLength(1)
      yield* Fiber.interrupt(fiber)
      expect(fake.interrupted.count).toBe(1)
    }))

  it.live("a response before the deadline is returned, and no timer fires later", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      const r = yield* getResource({ attemptTimeout: "100 millis" }).pipe(Effect.provide(clientLayer(fake)))
      expect(r.resource?.id).toBe("resource_1")
      yield* Effect.sleep("150 millis")
      expect(fake.seen).toHaveLength(1)
      expect(fake.interrupted.count).toBe(0)
    }))
})

describe("paging", () => {
  const page = (ids: ReadonlyArray<string>, nextCursor?: string) => ({
    status: 200,
    body: { nativeUsers: ids.map((id) => ({ id })), listMetadata: { count: ids.length, ...(nextCursor ? { nextCursor } : {}) } }
  })

  it.effect("follows nextCursor until it is absent, with the page size", () =>
    Effect.gen(function*() {
      const fake = makeFake([page(["a", "b"], "c1"), page(["c", "d"], "c2"), page(["e"])])
      const items = yield* Effect.flatMap(Services.ResourceService, (s) =>
        Stream.runCollect(s.listNativeUsersStream({ resourceId: "r" }, { pageSize: 2 }))
      ).pipe(Effect.provide(clientLayer(fake)))
      expect([...items].map((u) => u.id)).toEqual(["a", "b", "c", "d", "e"])
      expect(fake.seen.map((s) => s.body)).toEqual([
        { resourceId: "r", limit: 2 },
        { resourceId: "r", limit: 2, cursor: "c1" },
        { resourceId: "r", limit: 2, cursor: "c2" }
      ])
    }))

  it.effect("the default page size is 100", () =>
    Effect.gen(function*() {
      const fake = makeFake([page([])])
      yield* DataAccessClient.DataAccessClient.pipe(
        Effect.flatMap((c) => Stream.runDrain(c.stream("ListLogQueries", {}))),
        Effect.provide(clientLayer(fake))
      )
      expect(fake.seen[0]!.body).toEqual({ limit: 100 })
    }))

  it.effect("a repeated cursor fails with CursorRepeatedError", () =>
    Effect.gen(function*() {
      const fake = makeFake([page(["a"], "c1"), page(["b"], "c2"), page(["c"], "c1")])
      const exit = yield* Effect.flatMap(Services.ResourceService, (s) =>
        Stream.runCollect(s.listNativeUsersStream({ resourceId: "r" }))
      ).pipe(Effect.provide(clientLayer(fake)), Effect.exit)
      const error = failure(exit)
      expect(error._tag).toBe("CursorRepeatedError")
      expect(error._tag === "CursorRepeatedError" && error.page).toBe(3)
      expect(fake.seen).toHaveLength(3)
    }))
})

describe("layers", () => {
  it.effect("layerConfig reads DATA_ACCESS_BASE_URL and DATA_ACCESS_API_KEY", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      const { ConfigProvider, Layer } = yield* Effect.promise(() => import("effect"))
      const provider = ConfigProvider.fromEnv({ env: { [DataAccessClient.BASE_URL_ENV]: "http://config.invalid", [DataAccessClient.API_KEY_ENV]: API_KEY } })
      const layer = DataAccessClient.layerConfig().pipe(Layer.provide(fake.layer), Layer.provide(ConfigProvider.layer(provider)))
      yield* getResource().pipe(Effect.provide(layer))
      expect(fake.seen[0]!.url).toBe("http://config.invalid/core.v1.ResourceService/GetResource")
      expect(fake.seen[0]!.headers["x-api-key"]).toBe(API_KEY)
    }))

  it.effect("transformClient sees every request", () =>
    Effect.gen(function*() {
      const fake = makeFake([{ status: 200, body: resource }])
      const HttpClient = yield* Effect.promise(() => import("effect/http/HttpClient"))
      const urls: Array<string> = []
      const layer = clientLayer(fake, {
        transformClient: HttpClient.tapRequest((req) => Effect.sync(() => urls.push(req.url)))
      })
      yield* getResource().pipe(Effect.provide(layer))
      expect(urls).toEqual(["http://fake.invalid/core.v1.ResourceService/GetResource"])
    }))

  it.effect("every service of the table is provided, with one method per operation", () =>
    Effect.gen(function*() {
      const { Operations } = yield* Effect.promise(() => import("@data-access/schema-effect4"))
      const fake = makeFake([{ status: 200, body: resource }])
      const client = yield* DataAccessClient.DataAccessClient.pipe(Effect.provide(clientLayer(fake)))
      for (const [service, ops] of Operations.services) {
        const tag = Services.tags[service] as unknown as Effect.Effect<unknown, never, Services.Any>
        const fromTag = yield* Effect.provide(tag, clientLayer(fake))
        for (const op of ops) {
          const name = op.method.charAt(0).toLowerCase() + op.method.slice(1)
          expect(typeof (fromTag as unknown as Record<string, unknown>)[name]).toBe("function")
          expect(typeof (client as unknown as Record<string, unknown>)[name]).toBe("function")
          if (op.kind === "list") expect(typeof (fromTag as unknown as Record<string, unknown>)[`${name}Stream`]).toBe("function")
        }
      }
      expect(Object.keys(Services.tags).sort()).toEqual([...Operations.services.keys()].sort())
      expect(Duration.toMillis(DataAccessClient.DEFAULT_TIMEOUT)).toBe(30000)
    }))
})

describe("spans", () => {
  it.effect("one client span per call named <Service>/<Method>, with rpc attributes, attempt and retry events", () =>
    Effect.gen(function*() {
      const { makeCapture } = yield* Effect.promise(() => import("./capture.js"))
      const { Layer } = yield* Effect.promise(() => import("effect"))
      const capture = makeCapture()
      const fake = makeFake([unavailable, { status: 200, body: resource }])
      const fiber = yield* Effect.forkChild(
        getResource({ retryPolicy: RetryPolicy.exponential({ base: "100 millis", jitter: false }) }).pipe(
          Effect.provide(Layer.merge(clientLayer(fake), capture.layer))
        )
      )
      yield* runWithClock(fiber, 5_000, 10)
      const span = capture.spans.find((s) => s.name === "ResourceService/GetResource")
      expect(span).toBeDefined()
      expect(span!.attributes.get("rpc.system")).toBe("connect_rpc")
      expect(span!.attributes.get("rpc.service")).toBe("core.v1.ResourceService")
      expect(span!.attributes.get("rpc.method")).toBe("GetResource")
      expect(span!.attributes.get("rpc.response.code")).toBe("ok")
      expect(span!.attributes.get("rpc.attempts")).toBe(2)
      expect(span!.events.map((e) => e.name)).toEqual(["attempt", "retry", "attempt"])
      expect(span!.events[1]!.attributes?.["retry.reason"]).toBe("unavailable")
      expect(capture.dump()).not.toContain(API_KEY)
    }))
})
