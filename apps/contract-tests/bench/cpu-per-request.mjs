/* global process, console, performance, URL */
// Benchmark: the runner's CPU per request beside a bare undici keep-alive `Pool` loop, both against
// the same reference server in a process of its own. The runner: a default command-line run
// (`bin/contract-tests.js --base-url URL --fixtures ids.json --seed 1 --rate-limit 0 --quiet`),
// user + system CPU of its process (Linux: the children's CPU of this process once it has ended)
// over the requests it reports. The baseline, measured in the same run: GetResource requests
// `BENCH_IN_FLIGHT` (16) at a time on one `Pool`, after 1,000 warm-up requests, CPU of this
// process over the requests sent. Each BENCH_RUNS (3) times, alternately; the medians and their
// ratio (goal: at most 5).
//
//   node bench/cpu-per-request.mjs              (build first)
//   BENCH_RUNS=1 node bench/cpu-per-request.mjs
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Pool } from "@effect/platform-node/Undici"
import { load, median, startServer } from "./common.mjs"

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 16)
const WARM_UP = 1000
const LOOP_REQUESTS = Number(process.env.BENCH_LOOP_REQUESTS ?? 10_000)
const GOAL = 5
const KEY = "cpu-bench-key"
const bin = fileURLToPath(new URL("../bin/contract-tests.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "cpu-bench-"))
const idsFile = join(dir, "ids.json")

/** CPU seconds of this process's ended and waited-for children (Linux), `undefined` elsewhere. */
const childrenCpu = () => {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")
    return (Number(fields[13]) + Number(fields[14])) / 100
  } catch {
    return undefined
  }
}

/** One default command-line run against `url`: its requests and its process's CPU seconds. */
const runnerRun = (url) =>
  new Promise((resolve, reject) => {
    const before = childrenCpu()
    const child = spawn(
      process.execPath,
      [
        bin,
        "--base-url",
        url,
        "--fixtures",
        idsFile,
        "--seed",
        "1",
        "--rate-limit",
        "0",
        "--quiet"
      ],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, DATA_ACCESS_API_KEY: KEY, NO_COLOR: "1" }
      }
    )
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("exit", (code) => {
      const m = /· (\d+) requests in ([\d.]+) s/.exec(out)
      if (code !== 0 || m === null)
        return reject(new Error(`the run exited with ${code}: ${out.slice(-500)}`))
      const after = childrenCpu()
      resolve({
        requests: Number(m[1]),
        cpu: before === undefined || after === undefined ? undefined : after - before
      })
    })
  })

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

const loadBefore = load()
const server = await startServer(KEY, ["--write-ids", idsFile])
const started = performance.now()
try {
  const ids = JSON.parse(readFileSync(idsFile, "utf8"))
  const body = JSON.stringify({ id: ids.resources[0] })
  const pool = new Pool(server.url, { connections: IN_FLIGHT })
  await poolLoop(pool, body, WARM_UP)
  const runner = []
  const loop = []
  for (let i = 0; i < RUNS; i++) {
    const r = await runnerRun(server.url)
    const seconds = await poolLoop(pool, body, LOOP_REQUESTS)
    if (r.cpu !== undefined) runner.push(r.cpu / r.requests)
    loop.push(seconds / LOOP_REQUESTS)
    console.log(
      `run ${i + 1}/${RUNS}: runner ${r.requests} requests, ${r.cpu === undefined ? "CPU not measured" : `${r.cpu.toFixed(2)} s CPU, ${((1000 * r.cpu) / r.requests).toFixed(3)} ms per request`} · pool loop ${((1000 * seconds) / LOOP_REQUESTS).toFixed(3)} ms per request`
    )
  }
  await pool.close()
  if (runner.length === 0) {
    console.log("the runner's CPU is read from /proc (Linux): not measured here")
  } else {
    const ratio = median(runner) / median(loop)
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
      `  runner / Pool loop   ${ratio.toFixed(1)}x (ratio; goal at most ${GOAL}x: ${ratio <= GOAL ? "ok" : "MISSED"})`
    )
  }
} finally {
  server.stop()
  rmSync(dir, { recursive: true, force: true })
}
