import * as Behaviour from "@data-access/client-behaviour"
import { ReferenceServer } from "@data-access/reference-server"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { driveClock, startServer } from "./server.js"

/** Records the (Test)Clock time at which each request leaves the client. */
const recorder = () => {
  const sent: Array<number> = []
  const transformClient = HttpClient.tapRequest(() =>
    Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => sent.push(t)))
  )
  return { sent, transformClient }
}

// Under the TestClock, the attempt timeout must outlast the clock jumps of driveClock.
const patient = { attemptTimeout: "2 hours", timeout: "3 hours" } as const

const countOf = (server: ReferenceServer.Running, method: string) =>
  Effect.map(server.requests, (rs) => rs.filter((r) => r.method === method).length)

describe("fault switches (TestClock for the waits)", () => {
  it.scoped(
    "a read is retried after transient errors and succeeds; the waits follow the default policy",
    () =>
      Effect.gen(function* () {
        const rec = recorder()
        const { layer, server } = yield* startServer(
          {
            faults: {
              rules: [{ methods: ["GetResource"], fault: { _tag: "Unavailable" }, times: 2 }]
            }
          },
          { ...patient, transformClient: rec.transformClient }
        )
        const id = server.knownIds.resources[0]!
        const fiber = yield* Effect.fork(
          Effect.provide(
            Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id })),
            layer
          )
        )
        const result = yield* driveClock(fiber)
        expect(result.resource.id).toBe(id)
        expect(yield* countOf(server, "GetResource")).toBe(3)
        expect(rec.sent).toHaveLength(3)
        const [a, b, c] = rec.sent as [number, number, number]
        expect(b - a).toBeGreaterThanOrEqual(400)
        expect(b - a).toBeLessThanOrEqual(600)
        expect(c - b).toBeGreaterThanOrEqual(800)
        expect(c - b).toBeLessThanOrEqual(1200)
      })
  )

  it.scoped("Retry-After from a rate-limited answer sets the wait", () =>
    Effect.gen(function* () {
      const rec = recorder()
      const { layer, server } = yield* startServer(
        { faults: { rules: [{ fault: { _tag: "RateLimited", retryAfterSeconds: 3 }, times: 1 }] } },
        { ...patient, transformClient: rec.transformClient }
      )
      const fiber = yield* Effect.fork(
        Effect.provide(
          Effect.flatMap(Services.SatelliteService, (s) => s.listSatellites({ limit: 5 })),
          layer
        )
      )
      yield* driveClock(fiber)
      expect(rec.sent).toHaveLength(2)
      expect(rec.sent[1]! - rec.sent[0]!).toBe(3000)
      expect(yield* countOf(server, "ListSatellites")).toBe(2)
    })
  )

  it.scoped("a create is retried after a Connect unavailable from the service, and acts once", () =>
    Effect.gen(function* () {
      const { layer, server } = yield* startServer(
        {
          faults: {
            rules: [{ methods: ["CreateConnector"], fault: { _tag: "Unavailable" }, times: 1 }]
          }
        },
        patient
      )
      const before = (yield* server.currentKnownIds).connectors.length
      const fiber = yield* Effect.fork(
        Effect.provide(
          Effect.flatMap(Services.ConnectorService, (s) =>
            s.createConnector({ name: "edge-retry" })
          ),
          layer
        )
      )
      const created = yield* driveClock(fiber)
      expect(created.connector.name).toBe("edge-retry")
      expect(yield* countOf(server, "CreateConnector")).toBe(2)
      expect((yield* server.currentKnownIds).connectors.length).toBe(before + 1)
    })
  )

  it.scoped.each([
    [
      "the connection drops after the server acted",
      { _tag: "DropConnection", when: "after-handling" },
      1
    ],
    ["a proxy answers a bare 502", { _tag: "BareStatus", status: 502 }, 0],
    ["a proxy answers a bare 504", { _tag: "BareStatus", status: 504 }, 0]
  ] as const)("a create is not retried when %s", ([, fault, createdCount]) =>
    Effect.gen(function* () {
      const { layer, server } = yield* startServer(
        { faults: { rules: [{ methods: ["CreateConnector"], fault, times: 1 }] } },
        patient
      )
      const before = (yield* server.currentKnownIds).connectors.length
      const fiber = yield* Effect.fork(
        Effect.exit(
          Effect.provide(
            Effect.flatMap(Services.ConnectorService, (s) =>
              s.createConnector({ name: "edge-once" })
            ),
            layer
          )
        )
      )
      const exit = yield* driveClock(fiber)
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* countOf(server, "CreateConnector")).toBe(1)
      // With after-handling, the service did act: a retry would have made a second connector.
      expect((yield* server.currentKnownIds).connectors.length).toBe(before + createdCount)
    })
  )

  it.scoped("a read is retried after the connection drops", () =>
    Effect.gen(function* () {
      const { layer, server } = yield* startServer(
        {
          faults: {
            rules: [
              {
                methods: ["GetResource"],
                fault: { _tag: "DropConnection", when: "before-handling" },
                times: 1
              }
            ]
          }
        },
        patient
      )
      const id = server.knownIds.resources[0]!
      const fiber = yield* Effect.fork(
        Effect.provide(
          Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id })),
          layer
        )
      )
      expect((yield* driveClock(fiber)).resource.id).toBe(id)
      expect(yield* countOf(server, "GetResource")).toBe(2)
    })
  )

  it.scoped(
    "a create is retried when the connection is refused (nothing listens), 3 attempts in all",
    () =>
      Effect.gen(function* () {
        const rec = recorder()
        const { layer } = yield* startServer(
          {},
          { ...patient, baseUrl: Behaviour.REFUSED_URL, transformClient: rec.transformClient }
        )
        const fiber = yield* Effect.fork(
          Effect.flip(
            Effect.provide(
              Effect.flatMap(Services.ConnectorService, (s) =>
                s.createConnector({ name: "edge-refused" })
              ),
              layer
            )
          )
        )
        const error = yield* driveClock(fiber)
        expect(error._tag).toBe("TransportError")
        expect(error._tag === "TransportError" && error.phase).toBe("connect")
        expect(rec.sent).toHaveLength(3)
      })
  )
})

describe("transport errors with the fetch HttpClient", () => {
  it.live(
    "a refused connection is a TransportError in the connect phase with FetchHttpClient too",
    () =>
      Effect.gen(function* () {
        const layer = DataAccessClient.layer({
          baseUrl: Behaviour.REFUSED_URL,
          apiKey: Redacted.make("k"),
          retryPolicy: RetryPolicy.none
        }).pipe(Layer.provide(FetchHttpClient.layer), Layer.orDie)
        const error = yield* Effect.flip(
          Effect.flatMap(Services.ConnectorService, (s) =>
            s.createConnector({ name: "edge-refused" })
          )
        ).pipe(Effect.provide(layer))
        expect(error._tag).toBe("TransportError")
        expect(error._tag === "TransportError" && error.phase).toBe("connect")
        expect(error._tag === "TransportError" && error.errorCode).toBe("ECONNREFUSED")
      })
  )
})

describe("deadlines (real time)", () => {
  it.live(
    "an overall deadline across retries ends the call once it passes, not before, and the server saw Connect-Timeout-Ms",
    () =>
      Effect.gen(function* () {
        const { layer, server } = yield* startServer({
          faults: {
            rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 5000 } }]
          }
        })
        const id = server.knownIds.resources[0]!
        const start = Date.now()
        const error = yield* Effect.flip(
          Effect.provide(
            Effect.flatMap(Services.ResourceService, (s) =>
              s.getResource(
                { id },
                {
                  timeout: "2 seconds",
                  attemptTimeout: "600 millis",
                  retryPolicy: RetryPolicy.exponential({
                    base: "100 millis",
                    factor: 1,
                    retries: 40,
                    jitter: false
                  })
                }
              )
            ),
            layer
          )
        )
        const elapsed = Date.now() - start
        expect(error._tag).toBe("TimeoutError")
        expect(error._tag === "TimeoutError" && error.scope).toBe("overall")
        expect(error._tag === "TimeoutError" && error.attempts).toBeGreaterThanOrEqual(2)
        // Never before the deadline, and long before what the attempts would take without it (41
        // attempts of 700 ms): the upper bound is far from both, so a slow machine's timers pass.
        expect(elapsed).toBeGreaterThanOrEqual(1800)
        expect(elapsed).toBeLessThan(15_000)
        // The server answers calls it finished; a slow one that completes shows the header it got.
        yield* server.setFaults({
          rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 100 } }]
        })
        yield* Effect.provide(
          Effect.flatMap(Services.ResourceService, (s) =>
            s.getResource({ id }, { timeout: "2 seconds", attemptTimeout: "5 seconds" })
          ),
          layer
        )
        const seen = (yield* server.requests).filter(
          (r) => r.method === "GetResource" && r.code === "ok"
        )
        const header = Number(seen[0]?.headers["connect-timeout-ms"])
        expect(header).toBeGreaterThan(1800)
        expect(header).toBeLessThanOrEqual(2000)
      }).pipe(Effect.scoped)
  )

  it.live(
    "a create without retries ends at its deadline, not before, long before the slow answer",
    () =>
      Effect.gen(function* () {
        const { layer } = yield* startServer({
          faults: {
            rules: [{ methods: ["CreateConnector"], fault: { _tag: "Latency", millis: 30_000 } }]
          }
        })
        const start = Date.now()
        const error = yield* Effect.flip(
          Effect.provide(
            Effect.flatMap(Services.ConnectorService, (s) =>
              s.createConnector({ name: "slow-one" }, { timeout: "1500 millis" })
            ),
            layer
          )
        )
        const elapsed = Date.now() - start
        expect(error._tag).toBe("TimeoutError")
        // Never before the deadline, and long before the server's answer (30 s): the upper bound is
        // far from both, so a slow machine's timers pass.
        expect(elapsed).toBeGreaterThanOrEqual(1350)
        expect(elapsed).toBeLessThan(15_000)
      }).pipe(Effect.scoped)
  )
})
