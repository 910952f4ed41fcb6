/* global process, console, fetch, Buffer */
// Benchmark: GetResource and ListSatellites (limit 100) on the reference server, beside a bare
// node:http server answering the same bytes, each in its own process, with autocannon as the
// load generator in this process. A third server, a one-line @effect/platform HttpApp answering
// the same bytes, shows what the framework alone costs. Prints throughput, latency percentiles
// and the ratios to the bare server.
//
//   pnpm --filter @data-access/reference-server bench          (about 45 s)
//   BENCH_SECONDS=5 BENCH_ROUNDS=2 BENCH_CONNECTIONS=20 node bench/run.mjs
import autocannon from "autocannon"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const here = Path.dirname(fileURLToPath(import.meta.url))
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2.5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const KEY = "bench-key"

const startServer = (...args) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [Path.join(here, "server.mjs"), ...args], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const line = out.split("\n").find((l) => l.startsWith("{"))
      if (line) resolve({ child, info: JSON.parse(line) })
    })
    child.once("exit", (code) => reject(new Error(`server ${args[0]} exited with ${code}`)))
  })

const stop = ({ child }) =>
  new Promise((resolve) => {
    child.removeAllListeners("exit")
    child.once("exit", resolve)
    child.kill("SIGTERM")
  })

const load = (url, body, duration) =>
  new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": KEY,
          "connect-protocol-version": "1"
        },
        body,
        connections: CONNECTIONS,
        duration
      },
      (err, result) => (err ? reject(err) : resolve(result))
    )
  })

const reference = await startServer("reference")
const { url, resourceId } = reference.info
const scenarios = [
  {
    name: "GetResource",
    path: "/core.v1.ResourceService/GetResource",
    body: JSON.stringify({ id: resourceId })
  },
  {
    name: "ListSatellites (limit 100)",
    path: "/core.v1.SatelliteService/ListSatellites",
    body: JSON.stringify({ limit: 100 })
  }
]

// The bare server answers the bytes the reference server gives.
const bodies = {}
for (const s of scenarios) {
  const res = await fetch(url + s.path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": KEY },
    body: s.body
  })
  if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${await res.text()}`)
  bodies[s.path] = await res.text()
  s.bytes = Buffer.byteLength(bodies[s.path])
}
const bodiesFile = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), "bench-")), "bodies.json")
Fs.writeFileSync(bodiesFile, JSON.stringify(bodies))
const bare = await startServer("bare", bodiesFile)
const platform = await startServer("platform", bodiesFile)

// Rounds alternate between the two servers so that both see the same machine load; each
// figure is the mean over the rounds.
const servers = [
  ["reference", url],
  ["bare node:http", bare.info.url],
  ["@effect/platform floor", platform.info.url]
]
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length
const rows = []
for (const s of scenarios) {
  const runs = Object.fromEntries(servers.map(([label]) => [label, []]))
  for (const [, base] of servers) await load(base + s.path, s.body, WARMUP)
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, base] of servers) {
      const r = await load(base + s.path, s.body, SECONDS)
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${s.name} on ${label}: ${r.non2xx} non-2xx, ${r.errors} errors`)
      runs[label].push(r)
    }
  }
  const rps = (label) => mean(runs[label].map((r) => r.requests.average))
  for (const [label] of servers) {
    rows.push({
      scenario: `${s.name}, ${s.bytes} B`,
      server: label,
      "req/s": Math.round(rps(label)),
      "p50 ms": mean(runs[label].map((r) => r.latency.p50)).toFixed(1),
      "p90 ms": mean(runs[label].map((r) => r.latency.p90)).toFixed(1),
      "p99 ms": mean(runs[label].map((r) => r.latency.p99)).toFixed(1),
      "vs bare": `${((rps(label) / rps("bare node:http")) * 100).toFixed(0)}%`,
      "vs platform floor": `${((rps(label) / rps("@effect/platform floor")) * 100).toFixed(0)}%`
    })
  }
}
await stop(bare)
await stop(platform)
await stop(reference)

console.log(
  `\n${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s after ${WARMUP} s warm-up, node ${process.version}, ${Os.cpus().length} cores, load average ${Os.loadavg()[0].toFixed(1)}\n`
)
console.table(rows)
const worst = Math.min(
  ...rows.filter((r) => r.server === "reference").map((r) => parseInt(r["vs bare"], 10))
)
const floor = Math.max(
  ...rows
    .filter((r) => r.server === "@effect/platform floor")
    .map((r) => parseInt(r["vs bare"], 10))
)
const ofFloor = Math.min(
  ...rows.filter((r) => r.server === "reference").map((r) => parseInt(r["vs platform floor"], 10))
)
const floorLow = Math.min(
  ...rows
    .filter((r) => r.server === "@effect/platform floor")
    .map((r) => parseInt(r["vs bare"], 10))
)
console.log(
  `\nreference server throughput: at least ${worst}% of the bare node:http server (goal: 50%)`
)
console.log(
  `a one-line @effect/platform server (the floor of any server built on it) reaches ${floorLow}% to ${floor}% of it on this machine`
)
console.log(
  `the reference server keeps at least ${ofFloor}% of that floor${floorLow < 50 ? "; with the floor under 50%, the goal cannot be met on @effect/platform here" : ""}`
)
