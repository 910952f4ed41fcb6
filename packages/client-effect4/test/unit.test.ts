import { DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import { API_KEY, clientLayer, makeFake, resource, runWithClock, unavailable } from "./fake.js"

const getResource = (options?: Services.CallOptions) =>
  Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id: "resource_1" }, options))

const failure = <A, E>(exit: Exit.Exit<A, E>): E => {
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const e = Exit.findErrorOption(exit)
  if (Option.isNone(e)) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return e.value
}

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
          // The second attempt starts about 1 ms after the first times out, with 50 ms of the budget left: a
          // loaded machine has that much slack before the wait would pass the deadline.
          getResource({ attemptTimeout: "100 millis", timeout: "150 millis", retryPolicy: RetryPolicy.exponential({ base: "1 millis", jitter: false, retries: 5 }) })
            .pipe(Effect.provide(clientLayer(fake)))
        )
      )
      expect(error._tag === "TimeoutError" && error.scope).toBe("overall")
      expect(error._tag === "TimeoutError" && error.timeoutMillis).toBe(150)
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
