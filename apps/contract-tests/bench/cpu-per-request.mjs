/* global process, console, performance, URL */
// Benchmark: the runner's CPU per request beside bare undici keep-alive `Pool` loops, all against
// the same reference server in a process of its own. The runner: a default command-line run
// (`bin/contract-tests.js --base-url URL --fixtures ids.json --seed 1 --rate-limit 0 --quiet`),
// user + system CPU of its process (Linux: the children's CPU of this process once it has ended)
// over the requests it reports. Two baselines, measured in the same run, `BENCH_IN_FLIGHT` (16)
// requests at a time on one `Pool`, CPU of this process over the requests sent: GetResource, after
// 1,000 warm-up requests (the goal's); and a replay of the run's own requests (their methods,
// paths, headers and bodies, recorded by one run with `--har` before the measured ones), each
// answer read whole and JSON parsed as the GetResource loop does. Each BENCH_RUNS (3) times,
// alternately; the medians and their ratios (goal: at most 5 against GetResource).
//
//   node bench/cpu-per-request.mjs              (build first)
//   BENCH_RUNS=1 node bench/cpu-per-request.mjs
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Pool } from "@effect/platform-node/Undici"
import * as Compression from "@data-access/schema/Compression"
import { commandLineRun, load, median, startServer } from "./common.mjs"

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16)
const WARM_UP = 1000
const LOOP_REQUESTS = Number(process.env.BENCH_LOOP_REQUESTS ?? 10_000)
const GOAL = 5
const KEY = "cpu-bench-key"
const bin = fileURLToPath(new URL("../bin/contract-tests.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "cpu-bench-"))
const idsFile = join(dir, "ids.json")
const harFile = join(dir, "run.har")

/** CPU seconds of this process's ended and waited-for children (Linux), `undefined` elsewhere. */
const childrenCpu = () => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")
    return (Number(fields[13]) + Number(fields[14])) / 100
  } catch {
    return undefined
  }
}

/** One default command-line run against `url` (with `extra` arguments): its requests and its process's CPU seconds. */
const runnerRun = async (url, extra = []) => {
  const before = childrenCpu()
  const { requests } = await commandLineRun({ bin, url, idsFile, key: KEY, extra })
  const after = childrenCpu()
  return { requests, cpu: before === undefined || after === undefined ? undefined : after - before }
}

/** GetResource `requests` times, `IN_FLIGHT` at a time, on one keep-alive `Pool`: CPU seconds of this process. */
const poolLoop = async (pool, body, requests) => {
  const headers = {
    "content-type": "application/json",
    "connect-protocol-version": "1",
    "x-api-key": KEY
  }
  let next = 0
  const cpu0 = process.cpuUsage()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < requests) {
        const res = await pool.request({
          path: "/core.v1.ResourceService/GetResource",
          method: "POST",
          headers,
          body
        })
        const text = await res.body.text()
        if (res.statusCode !== 200) throw new Error(`GetResource answered ${res.statusCode}`)
        JSON.parse(text)
      }
    })
  )
  const cpu = process.cpuUsage(cpu0)
  return (cpu.user + cpu.system) / 1e6
}

/** `requests` (method, path, headers, body) in order, `IN_FLIGHT` at a time, on one keep-alive `Pool`: CPU seconds of this process. */
const replay = async (pool, requests) => {
  let next = 0
  const cpu0 = process.cpuUsage()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < requests.length) {
        const r = requests[next++]
        try {
          const res = await pool.request(r)
          const text = await res.body.text()
          if (/json/i.test(String(res.headers["content-type"] ?? ""))) {
            try {
              JSON.parse(text)
            } catch {
              // An answer that is no JSON is read as text.
            }
          }
        } catch {
          // A connection closed on a refused body (as the runner sees it too).
        }
      }
    })
  )
  const cpu = process.cpuUsage(cpu0)
  return (cpu.user + cpu.system) / 1e6
}

/** The requests of a HAR file as `Pool.request` options: the masked key as `KEY`, bodies compressed as their `Content-Encoding` says. */
const recordedRequests = (file) =>
  JSON.parse(readFileSync(file, "utf8")).log.entries.map(({ request }) => {
    const url = new URL(request.url)
    const headers = {}
    for (const { name, value } of request.headers)
      headers[name] = name === "x-api-key" && value.startsWith("[redacted") ? KEY : value
    const text = request.postData?.text ?? ""
    const encoding = headers["content-encoding"]
    const body =
      text === ""
        ? null
        : ["gzip", "deflate", "br"].includes(encoding)
          ? Compression.compress(text, encoding)
          : text
    return { method: request.method, path: url.pathname + url.search, headers, body }
  })

const loadBefore = load()
const server = await startServer(KEY, ["--write-ids", idsFile])
const started = performance.now()
try {
  const ids = JSON.parse(readFileSync(idsFile, "utf8"))
  const body = JSON.stringify({ id: ids.resources[0] })
  const pool = new Pool(server.url, { connections: IN_FLIGHT })
  await poolLoop(pool, body, WARM_UP)
  // The run's own requests, recorded by a run of the same command line (not measured).
  await runnerRun(server.url, ["--har", harFile])
  const recorded = recordedRequests(harFile)
  const runner = []
  const loop = []
  const replayed = []
  for (let i = 0; i < RUNS; i++) {
    const r = await runnerRun(server.url)
    const seconds = await poolLoop(pool, body, LOOP_REQUESTS)
    const replaySeconds = await replay(pool, recorded)
    if (r.cpu !== undefined) runner.push(r.cpu / r.requests)
    loop.push(seconds / LOOP_REQUESTS)
    replayed.push(replaySeconds / recorded.length)
    console.log(
      `run ${i + 1}/${RUNS}: runner ${r.requests} requests, ${r.cpu === undefined ? "CPU not measured" : `${r.cpu.toFixed(2)} s CPU, ${((1000 * r.cpu) / r.requests).toFixed(3)} ms per request`} · pool loop ${((1000 * seconds) / LOOP_REQUESTS).toFixed(3)} ms per request · replay of the run's ${recorded.length} requests ${((1000 * replaySeconds) / recorded.length).toFixed(3)} ms per request`
    )
  }
  await pool.close()
  if (runner.length === 0) {
    console.log("the runner's CPU is read from /proc (Linux): not measured here")
  } else {
    const ratio = median(runner) / median(loop)
    const replayRatio = median(runner) / median(replayed)
    console.log(
      `\nthe runner's CPU per request against a bare undici Pool loop, the reference server in its own process (${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadBefore} before, ${load()} after)`
    )
    console.log(
      `  runner, default command line   ${(1000 * median(runner)).toFixed(3)} ms CPU per request (median of ${RUNS})`
    )
    console.log(
      `  bare undici Pool loop   ${(1000 * median(loop)).toFixed(3)} ms CPU per request (${IN_FLIGHT} in flight, keep-alive, GetResource, ${WARM_UP} warm-up; median of ${RUNS})`
    )
    console.log(
      `  bare undici Pool replay of the run's requests   ${(1000 * median(replayed)).toFixed(3)} ms CPU per request (${IN_FLIGHT} in flight, keep-alive, the ${recorded.length} requests of a recorded run; median of ${RUNS})`
    )
    console.log(
      `  runner / Pool loop   ${ratio.toFixed(1)}x (ratio; goal at most ${GOAL}x: ${ratio <= GOAL ? "ok" : "MISSED"})`
    )
    console.log(`  runner / Pool replay of its requests   ${replayRatio.toFixed(1)}x (ratio)`)
  }
} finally {
  server.stop()
  rmSync(dir, { recursive: true, force: true })
}
