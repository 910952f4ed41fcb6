// The judge runs beside the relay, in a worker thread, fed by a bounded queue: an answer goes back
// as soon as it is relayed, whatever the judging's pace; a burst larger than the queue is relayed
// whole (enqueue never waits nor fails), the exchanges that did not fit are counted in the report,
// and the report still waits for every exchange that was queued. A check that fails on one
// exchange is logged; the next ones are judged.
import { ReferenceServer } from "@data-access/reference-server"
import * as Undici from "@effect/platform-node/Undici"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import { existsSync } from "node:fs"
import * as Http from "node:http"
import type * as Net from "node:net"
import { fileURLToPath } from "node:url"
import type { Job } from "../src/internal/judge/judging.js"
import * as Metrics from "../src/internal/proxy/metrics.js"
import * as Relay from "../src/internal/proxy/relay.js"
import * as State from "../src/internal/proxy/state.js"
import type { Finding } from "../src/internal/judge/types.js"

const KEY = ReferenceServer.DEFAULT_API_KEY
const LIST = "/core.v1.SatelliteService/ListSatellites"
const settings = {
  target: "http://upstream.invalid",
  limit: 1 << 20,
  strict: false,
  skewMillis: 5000
}

const job = (i: number): Job => {
  const body = new TextEncoder().encode(JSON.stringify({ id: `r${i}` }))
  return {
    request: {
      method: "POST",
      path: "/core.v1.ResourceService/GetResource",
      query: "",
      headers: { "content-type": "application/json", "connect-protocol-version": "1" },
      keyPresent: true,
      body,
      bodyBytes: body.length
    },
    status: 404,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify({ code: "not_found", message: "no resource" })),
    transportError: undefined,
    started: Date.now(),
    receivedAt: Date.now(),
    key: "a-key-of-twenty-chars"
  }
}

const post = (base: string, body: unknown) =>
  Effect.promise(async () => {
    const res = await fetch(base + LIST, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": KEY,
        "connect-protocol-version": "1"
      },
      body: JSON.stringify(body)
    })
    return { status: res.status, body: await res.text() }
  })

/** A counter's value in the metrics' text, read as it is, without waiting for the judge. */
const counted = (metrics: Metrics.Metrics, name: string) =>
  Effect.promise(async () =>
    Number(new RegExp(`^${name} (\\S+)$`, "m").exec(await metrics.text())?.[1])
  )

describe("the proxy's judging queue", () => {
  it.live(
    "a burst over the queue is relayed unjudged and counted; the queued ones are all judged",
    () =>
      Effect.gen(function* () {
        const state = yield* State.make({ ...settings, judgingQueue: 8 })
        // Synchronously, as the relay hands them over: the judge gets no turn in between.
        for (let i = 0; i < 20; i++) state.enqueue(job(i))
        const report = yield* state.report
        expect(report.requests).toBe(8)
        expect(report.notes).toContain(
          "12 exchanges relayed but not judged: the judging queue (8 exchanges) was full"
        )
      }).pipe(Effect.scoped)
  )

  it.live(
    "the relay answers while judging is held; the report waits for the judge and has every finished exchange",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start()
        // The judge stands still until the test lets it go: a judge far slower than the relay.
        const hold = new Int32Array(new SharedArrayBuffer(4))
        Atomics.store(hold, 0, 1)
        const metrics = Metrics.make()
        const found: Array<Finding> = []
        const state = yield* State.make(
          { ...settings, target: server.url, hold, onFinding: (f) => found.push(f) },
          { har: true, metrics }
        )
        const dispatcher = yield* Effect.acquireRelease(
          Effect.sync(() => new Undici.Agent()),
          (agent) => Effect.promise(() => agent.destroy())
        )
        const listener = Relay.listener({
          target: server.url,
          limit: settings.limit,
          dispatcher,
          enqueue: state.enqueue,
          report: state.report,
          metrics,
          settled: state.settled,
          run: Effect.runPromise
        })
        const http = yield* Effect.acquireRelease(
          Effect.async<Http.Server>((resume) => {
            const s = Http.createServer(listener).listen(0, "127.0.0.1", () =>
              resume(Effect.succeed(s))
            )
          }),
          (s) => Effect.async<void>((resume) => void s.close(() => resume(Effect.void)))
        )
        const url = `http://127.0.0.1:${(http.address() as Net.AddressInfo).port}`

        // Every call answered, as the server answers it, while not one exchange is judged.
        for (let i = 0; i < 30; i++) {
          const answer = yield* post(url, { limit: i % 3 === 0 ? 501 : 2 })
          expect(answer.status).toBe(i % 3 === 0 ? 400 : 200)
        }
        expect(yield* counted(metrics, "contract_proxy_exchanges_relayed_total")).toBe(30)
        expect(yield* counted(metrics, "contract_proxy_exchanges_judged_total")).toBe(0)
        expect(found).toEqual([])

        // The report waits for the judge: it cannot be answered while the judge is held.
        const report = yield* Effect.fork(state.report)
        yield* Effect.sleep("200 millis")
        expect(Option.isNone(yield* Fiber.poll(report))).toBe(true)
        Atomics.store(hold, 0, 0)
        Atomics.notify(hold, 0)
        const judged = yield* Fiber.join(report)
        expect(judged.requests).toBe(30)
        expect(judged.notes.filter((n) => n.includes("not judged"))).toEqual([])
        expect(judged.findings.map((f) => [f.side, f.rule, f.occurrences])).toEqual([
          ["client", "lists.limit-range", 10]
        ])
        // The live line of the finding came before the report.
        expect(found.map((f) => f.rule)).toEqual(["lists.limit-range"])
        expect((yield* state.har).log.entries.length).toBe(30)
        expect(yield* counted(metrics, "contract_proxy_exchanges_judged_total")).toBe(30)
      }).pipe(Effect.scoped)
  )

  it.live("a check that fails on one exchange is logged; the judge goes on with the next", () =>
    Effect.gen(function* () {
      const logs: Array<string> = []
      const logger = Logger.make(({ message }) =>
        logs.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
      )
      const state = yield* State.make(settings).pipe(
        Effect.provide(Logger.replace(Logger.defaultLogger, logger))
      )
      // Answer headers that are no object: the checks read them and throw.
      state.enqueue({ ...job(0), headers: null as unknown as Job["headers"] })
      state.enqueue(job(1))
      const report = yield* state.report
      expect(report.requests).toBe(2)
      expect(report.cells.reduce((n, c) => n + c.passed + c.failed, 0)).toBeGreaterThan(0)
      expect(
        logs.some(
          (l) => l.startsWith("contract-tests proxy: a check failed") && l.includes("TypeError")
        )
      ).toBe(true)
    }).pipe(Effect.scoped)
  )

  it("the tests judge in the built judging thread, the one the package ships: the bundle, else the plain module", () => {
    const built = State.workerUrl()
    expect(fileURLToPath(built)).toMatch(
      /\/apps\/contract-tests\/dist\/internal\/proxy\/worker\.bundle\.js$/
    )
    expect(existsSync(built)).toBe(true)
    const installed =
      "file:///app/node_modules/@data-access/contract-tests/dist/internal/proxy/state.js"
    expect(State.workerUrl(installed, () => true).href).toBe(
      "file:///app/node_modules/@data-access/contract-tests/dist/internal/proxy/worker.bundle.js"
    )
    expect(State.workerUrl(installed, () => false).href).toBe(
      "file:///app/node_modules/@data-access/contract-tests/dist/internal/proxy/worker.js"
    )
  })
})
