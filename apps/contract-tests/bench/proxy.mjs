/* global process, console, fetch, URL */
// Benchmark of the conformance proxy: the latency it adds (p50, p99 of sequential calls) and its
// throughput (calls per second at a fixed concurrency), beside direct calls to the same reference
// server, measured in the same run, once with plain answers and once with a server that compresses
// its larger answers for the caller that offers an encoding (fetch does; the reference server's
// `connect-get` latitude switch). The proxy runs as `contract-tests proxy --har` does: every exchange
// kept for the HAR file, and its metrics (GET /__contract/metrics) counted.
//
// Where each part runs: the reference server in a Node process of its own (bench/reference-server.mjs),
// as a deployment behind a proxy is elsewhere; the client (fetch) and the proxy's relay share this
// process's main thread, the proxy's judging runs in its worker thread. Direct and proxied calls go
// to the same server process. Numbers and ratios are printed; nothing is asserted.
//
//   pnpm --filter @data-access/contract-tests bench          (build first; runs bench/run.mjs too)
//   BENCH_PROXY_CALLS=2000 BENCH_PROXY_CONCURRENCY=32 node bench/proxy.mjs
//   BENCH_PROXY_CLIENT=main BENCH_PROXY_MODULE=/elsewhere/apps/contract-tests/dist/index.js node bench/proxy.mjs
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { fork } from "node:child_process"
import { once } from "node:events"
import { readFileSync } from "node:fs"
import { availableParallelism, loadavg } from "node:os"
import { Worker } from "node:worker_threads"
import { ReferenceServer } from "@data-access/reference-server"
import * as Client from "./proxy-client.mjs"

// BENCH_PROXY_MODULE=/path/to/dist/index.js: another build's proxy (an A/B against an earlier commit).
const { Proxy } = await import(process.env.BENCH_PROXY_MODULE ?? "../dist/index.js")
const CALLS = Number(process.env.BENCH_PROXY_CALLS ?? 1000)
const CONCURRENCY = Number(process.env.BENCH_PROXY_CONCURRENCY ?? 16)
const KEY = ReferenceServer.DEFAULT_API_KEY
// BENCH_PROXY_HAR=0: the proxy without the HAR recording and the metrics, to compare.
const HAR = process.env.BENCH_PROXY_HAR !== "0"
// BENCH_PROXY_CLIENT=main: the client in the relay's thread (as this benchmark ran before), not in a worker thread.
const CLIENT = process.env.BENCH_PROXY_CLIENT === "main" ? "main" : "worker"

const scope = Effect.runSync(Scope.make())
const children = []
/** The reference server with these options in a process of its own: its URL and a resource id. */
const startServer = async (options) => {
  const child = fork(
    new URL("./reference-server.mjs", import.meta.url),
    [JSON.stringify(options)],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] }
  )
  children.push(child)
  const [server] = await once(child, "message")
  return { ...server, pid: child.pid }
}

/** CPU seconds of a /proc stat file (user + system, in ticks of 1/100 s). */
const ticksOf = (path) => {
  const stat = readFileSync(path, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}
/** CPU seconds so far of this process's main thread, of its other threads, and of the server's process; undefined off Linux. */
const cpu = (serverPid) => {
  try {
    const main = ticksOf(`/proc/${process.pid}/task/${process.pid}/stat`)
    return {
      main,
      others: ticksOf(`/proc/${process.pid}/stat`) - main,
      server: ticksOf(`/proc/${serverPid}/stat`)
    }
  } catch {
    return undefined
  }
}
const cpuSince = (before, serverPid) => {
  const after = cpu(serverPid)
  return before === undefined || after === undefined
    ? undefined
    : {
        main: after.main - before.main,
        others: after.others - before.others,
        server: after.server - before.server
      }
}
/** The proxy in front of `target`, living as long as `scope`. */
const startProxy = (target) =>
  Effect.runPromise(
    Proxy.start({ target, recordHar: HAR, metrics: HAR }).pipe(
      // An HTTP client living as long as the scope: the proxy of builds before its plain node:http relay
      // relayed through it (BENCH_PROXY_MODULE); this build's proxy has connections of its own.
      Effect.provide(Layer.extendScope(NodeHttpClient.layerUndici)),
      Scope.extend(scope)
    )
  )

const requestsOf = (server) => [
  ["/core.v1.SatelliteService/ListSatellites", { limit: 20 }],
  ["/core.v1.ResourceService/GetResource", { id: server.resource }],
  ["/core.v1.SatelliteService/ListSatellites", { limit: 501 }]
]
/** The client's numbers against `base`: in a worker thread of its own, or (BENCH_PROXY_CLIENT=main) in this thread, beside the relay. */
const measure = async (base, requests) => {
  const input = { base, requests, key: KEY, calls: CALLS, concurrency: CONCURRENCY }
  if (CLIENT === "main") return Client.measure(input)
  const worker = new Worker(new URL("./proxy-client.mjs", import.meta.url), { workerData: input })
  const [result] = await once(worker, "message")
  await worker.terminate()
  return result
}

const ms = (x) => `${x.toFixed(2)} ms`
const scenarios = [
  { title: "plain answers", options: {} },
  {
    title:
      "larger answers compressed (the server's connect-get switch; fetch offers gzip, deflate, br)",
    options: { latitude: ["connect-get"] }
  }
]
const [load1] = loadavg()
console.log(
  `where each part runs: the reference server in a Node process of its own (the same one for direct and proxied calls); the client (fetch) in ${CLIENT === "main" ? "this process's main thread, beside the proxy's relay" : "a worker thread of this process"}; the proxy's relay in this process's main thread, ${process.env.BENCH_PROXY_MODULE === undefined ? "its judging in a worker thread" : `its judging where ${process.env.BENCH_PROXY_MODULE} does it`} (${availableParallelism()} cores, load average ${load1.toFixed(2)} at the start)`
)
console.log("")
for (const { title, options } of scenarios) {
  const server = await startServer(options)
  const proxy = await startProxy(server.url)
  const requests = requestsOf(server)
  const encoding = (await Client.call(proxy.url, requests, KEY, 0)) ?? "none"
  const directCpu = cpu(server.pid)
  const direct = await measure(server.url, requests)
  const directSpent = cpuSince(directCpu, server.pid)
  const relayedCpu = cpu(server.pid)
  const relayed = await measure(proxy.url, requests)
  // Until every exchange is judged: the judging's CPU counts.
  await Effect.runPromise(proxy.findings)
  const relayedSpent = cpuSince(relayedCpu, server.pid)
  const report = await Effect.runPromise(proxy.report)
  const har = await Effect.runPromise(proxy.har)
  const metrics = await (await fetch(proxy.url + Proxy.METRICS_PATH)).text()
  const added = /^contract_proxy_added_latency_seconds_sum (\S+)$/m.exec(metrics)?.[1]
  const relayedCount = /^contract_proxy_added_latency_seconds_count (\S+)$/m.exec(metrics)?.[1]
  console.log(
    `conformance proxy vs direct calls to the reference server, ${title} (${CALLS} sequential calls, ${CALLS * 2} at concurrency ${CONCURRENCY})`
  )
  console.log(`                 direct      through the proxy   added        ratio`)
  console.log(
    `  latency p50    ${ms(direct.p50).padEnd(11)} ${ms(relayed.p50).padEnd(19)} ${ms(relayed.p50 - direct.p50).padEnd(12)} ${(relayed.p50 / direct.p50).toFixed(2)}x`
  )
  console.log(
    `  latency p99    ${ms(direct.p99).padEnd(11)} ${ms(relayed.p99).padEnd(19)} ${ms(relayed.p99 - direct.p99).padEnd(12)} ${(relayed.p99 / direct.p99).toFixed(2)}x`
  )
  console.log(
    `  throughput     ${`${direct.rps.toFixed(0)}/s`.padEnd(11)} ${`${relayed.rps.toFixed(0)}/s`.padEnd(19)} ${"".padEnd(12)} ${(relayed.rps / direct.rps).toFixed(2)}x`
  )
  if (directSpent !== undefined && relayedSpent !== undefined) {
    const calls = 100 + CALLS * 3
    const us = (x) => `${((x / calls) * 1e6).toFixed(0)} µs`
    console.log(`  CPU per call, all ${calls} calls of a side (/proc, ticks of 10 ms)`)
    console.log(
      `    this process's main thread     ${us(directSpent.main).padEnd(11)} ${us(relayedSpent.main).padEnd(19)} ${CLIENT === "main" ? "(the client; the client and the relay)" : "(idle; the relay)"}`
    )
    console.log(
      `    its other threads              ${us(directSpent.others).padEnd(11)} ${us(relayedSpent.others).padEnd(19)} ${CLIENT === "main" ? "(GC helpers; the judging and GC helpers)" : "(the client and GC helpers; the client, the judging and GC helpers)"}`
    )
    console.log(
      `    the reference server process   ${us(directSpent.server).padEnd(11)} ${us(relayedSpent.server)}`
    )
  }
  if (HAR)
    console.log(
      `  with --har and metrics: HAR entries kept: ${har.log.entries.length}; added latency by the proxy's own histogram: ${ms((Number(added) / Number(relayedCount)) * 1000)} mean over ${relayedCount} exchanges`
    )
  else console.log("  without --har and metrics (BENCH_PROXY_HAR=0)")
  console.log(
    `  ListSatellites answer encoding: ${encoding}; exchanges checked by the proxy: ${report.requests}; findings: ${report.findings.map((f) => `${f.side} ${f.rule} (${f.cause}: ${f.message})`).join(", ") || "none"}`
  )
  console.log("")
}
await Effect.runPromise(Scope.close(scope, Exit.void))
for (const child of children) child.disconnect()
