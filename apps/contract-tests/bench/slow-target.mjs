/* global process, console, fetch, performance, URL */
// Benchmark: a run against a slow target, the reference server in a process of its own answering
// every request `BENCH_LATENCY_MS` (20) ms late (`--latency-ms`), with `--concurrency 16` and no
// rate limit. What the concurrency allows is concurrency / latency (800 requests per second at
// 16 and 20 ms); the run's requests per second are printed as a ratio of it (goal: at least 0.8),
// beside the same server's rate for a plain loop of reads at the same concurrency, measured in the
// same run once the server and the loop are warm (the baseline: what the machine and the server
// reach at all, which on a busy machine is itself short of concurrency / latency), and the same run
// at `--concurrency 2` (ratio of 2 / latency).
//
//   node bench/slow-target.mjs                  (build first)
//   BENCH_LATENCY_MS=50 BENCH_CONCURRENCY=32 BENCH_EXAMPLES=50 node bench/slow-target.mjs
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { load, startServer } from "./common.mjs"

const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 20)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const EXAMPLES = Number(process.env.BENCH_EXAMPLES ?? 100)
const SEED = Number(process.env.BENCH_SEED ?? 5)
const GOAL = 0.8
const KEY = "slow-target-bench-key"
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

/** A plain loop of ListSatellites reads, `concurrency` at a time: requests per second. */
const plainLoop = async (url, concurrency, requests) => {
  const headers = {
    "content-type": "application/json",
    "connect-protocol-version": "1",
    "x-api-key": KEY
  }
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) {
        const res = await fetch(`${url}/core.v1.SatelliteService/ListSatellites`, {
          method: "POST",
          headers,
          body: JSON.stringify({ limit: 5 })
        })
        if (res.status !== 200) throw new Error(`the baseline read answered ${res.status}`)
        await res.arrayBuffer()
      }
    })
  )
  return requests / ((performance.now() - started) / 1000)
}

/** One run of the command line against `url`: its requests and wall time, from its JSON report. */
const run = (url, concurrency) =>
  new Promise((resolve, reject) => {
    const args = [
      "--max-semi-space-size=64",
      bin,
      "--base-url",
      url,
      "--seed",
      String(SEED),
      "--examples",
      String(EXAMPLES),
      "--rate-limit",
      "0",
      "--concurrency",
      String(concurrency),
      "--quiet"
    ]
    const started = performance.now()
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, DATA_ACCESS_API_KEY: KEY, NO_COLOR: "1" }
    })
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("exit", (code) => {
      const wall = (performance.now() - started) / 1000
      const m = /· (\d+) requests in ([\d.]+) s/.exec(out)
      if (code !== 0 || m === null)
        return reject(new Error(`the run exited with ${code}: ${out.slice(-500)}`))
      resolve({ requests: Number(m[1]), seconds: Number(m[2]), wall })
    })
  })

const loadBefore = load()
const server = await startServer(KEY, ["--latency-ms", String(LATENCY)])
try {
  // A cold loop measures the JIT's warm-up (of the server and of the loop) as much as the server.
  await plainLoop(server.url, CONCURRENCY, Math.max(1000, CONCURRENCY * 50))
  const alone = await plainLoop(server.url, CONCURRENCY, Math.max(2000, CONCURRENCY * 100))
  const rows = []
  for (const concurrency of [CONCURRENCY, 2]) {
    const r = await run(server.url, concurrency)
    const rps = r.requests / r.seconds
    const allowed = concurrency / (LATENCY / 1000)
    rows.push({
      scenario: `--concurrency ${concurrency}, ${LATENCY} ms latency`,
      requests: r.requests,
      "run s": r.seconds.toFixed(1),
      "req/s": rps.toFixed(0),
      "concurrency / latency": allowed.toFixed(0),
      "ratio of concurrency / latency": (rps / allowed).toFixed(2),
      "plain loop req/s (same run)": concurrency === CONCURRENCY ? alone.toFixed(0) : "",
      "ratio of the plain loop": concurrency === CONCURRENCY ? (rps / alone).toFixed(2) : "",
      goal:
        concurrency === CONCURRENCY
          ? rps / allowed >= GOAL
            ? `ok (>= ${GOAL})`
            : `MISSED (< ${GOAL})`
          : ""
    })
  }
  console.log(
    `contract-tests against a slow target (reference server with --latency-ms ${LATENCY}, its own process; seed ${SEED}, ${EXAMPLES} examples; load average ${loadBefore} before, ${load()} after)`
  )
  console.table(rows)
} finally {
  server.stop()
}
