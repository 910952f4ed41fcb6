/* global process, console, performance, fetch */
// Benchmark of the conformance proxy: the latency it adds (p50, p99 of sequential calls) and its
// throughput (calls per second at a fixed concurrency), beside direct calls to the reference
// server, measured in the same run, once with plain answers and once with a server that compresses
// its larger answers for the caller that offers an encoding (fetch does; the reference server's
// `connect-get` latitude switch). The proxy runs as `contract-tests proxy --har` does: every exchange
// kept for the HAR file, and its metrics (GET /__contract/metrics) counted. Numbers and ratios are
// printed; nothing is asserted.
//
//   pnpm --filter @data-access/contract-tests bench          (build first; runs bench/run.mjs too)
//   BENCH_PROXY_CALLS=2000 BENCH_PROXY_CONCURRENCY=32 node bench/proxy.mjs
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { ReferenceServer } from "@data-access/reference-server"
import { Proxy } from "../dist/index.js"

const CALLS = Number(process.env.BENCH_PROXY_CALLS ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_PROXY_CONCURRENCY ?? 16)
const KEY = ReferenceServer.DEFAULT_API_KEY
// BENCH_PROXY_HAR=0: the proxy without the HAR recording and the metrics, to compare.
const HAR = process.env.BENCH_PROXY_HAR !== "0"

const scope = Effect.runSync(Scope.make())
/** The reference server with these options and the proxy in front of it, both living as long as `scope`. */
const serve = (options) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start(options)
      const proxy = yield* Proxy.start({ target: server.url, recordHar: HAR, metrics: HAR })
      return { server, proxy }
    // The HTTP client (the proxy's connection to the server) lives as long as the scope.
    }).pipe(Effect.provide(Layer.extendScope(NodeHttpClient.layerUndici)), Scope.extend(scope))
  )

const requestsOf = (server) => [
  ["/core.v1.SatelliteService/ListSatellites", { limit: 20 }],
  ["/core.v1.ResourceService/GetResource", { id: server.knownIds.resources[0] }],
  ["/core.v1.SatelliteService/ListSatellites", { limit: 501 }]
]
const call = async (base, requests, i) => {
  const [path, body] = requests[i % requests.length]
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY, "connect-protocol-version": "1" },
    body: JSON.stringify(body)
  })
  await res.arrayBuffer()
  return res.headers.get("content-encoding")
}
const percentile = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]
const latency = async (base, requests) => {
  for (let i = 0; i < 100; i++) await call(base, requests, i) // warm-up
  const times = []
  for (let i = 0; i < CALLS; i++) {
    const t = performance.now()
    await call(base, requests, i)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p99: percentile(times, 99) }
}
const throughput = async (base, requests) => {
  let next = 0
  const started = performance.now()
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < CALLS * 2) await call(base, requests, next++)
  }))
  return (CALLS * 2) / ((performance.now() - started) / 1000)
}

const ms = (x) => `${x.toFixed(2)} ms`
const scenarios = [
  { title: "plain answers", options: {} },
  { title: "larger answers compressed (the server's connect-get switch; fetch offers gzip, deflate, br)", options: { latitude: ["connect-get"] } }
]
for (const { title, options } of scenarios) {
  const { server, proxy } = await serve(options)
  const requests = requestsOf(server)
  const encoding = (await call(proxy.url, requests, 0)) ?? "none"
  const direct = { ...(await latency(server.url, requests)), rps: await throughput(server.url, requests) }
  const relayed = { ...(await latency(proxy.url, requests)), rps: await throughput(proxy.url, requests) }
  const report = await Effect.runPromise(proxy.report)
  const har = await Effect.runPromise(proxy.har)
  const metrics = await (await fetch(proxy.url + Proxy.METRICS_PATH)).text()
  const added = /^contract_proxy_added_latency_seconds_sum (\S+)$/m.exec(metrics)?.[1]
  const relayedCount = /^contract_proxy_added_latency_seconds_count (\S+)$/m.exec(metrics)?.[1]
  console.log(`conformance proxy vs direct calls to the reference server, ${title} (${CALLS} sequential calls, ${CALLS * 2} at concurrency ${CONCURRENCY})`)
  console.log(`                 direct      through the proxy   added        ratio`)
  console.log(`  latency p50    ${ms(direct.p50).padEnd(11)} ${ms(relayed.p50).padEnd(19)} ${ms(relayed.p50 - direct.p50).padEnd(12)} ${(relayed.p50 / direct.p50).toFixed(2)}x`)
  console.log(`  latency p99    ${ms(direct.p99).padEnd(11)} ${ms(relayed.p99).padEnd(19)} ${ms(relayed.p99 - direct.p99).padEnd(12)} ${(relayed.p99 / direct.p99).toFixed(2)}x`)
  console.log(`  throughput     ${`${direct.rps.toFixed(0)}/s`.padEnd(11)} ${`${relayed.rps.toFixed(0)}/s`.padEnd(19)} ${"".padEnd(12)} ${(relayed.rps / direct.rps).toFixed(2)}x`)
  if (HAR) console.log(`  with --har and metrics: HAR entries kept: ${har.log.entries.length}; added latency by the proxy's own histogram: ${ms((Number(added) / Number(relayedCount)) * 1000)} mean over ${relayedCount} exchanges`)
  else console.log("  without --har and metrics (BENCH_PROXY_HAR=0)")
  console.log(`  ListSatellites answer encoding: ${encoding}; exchanges checked by the proxy: ${report.requests}; findings: ${report.findings.map((f) => `${f.side} ${f.rule} (${f.cause}: ${f.message})`).join(", ") || "none"}`)
  console.log("")
}
await Effect.runPromise(Scope.close(scope, Exit.void))
