/* global process, console, URL, performance */
// The time a proxy's judging thread takes to start: from `new Worker` to its first message
// (`Ready`), started one after another, with the options `contract-tests proxy --har` gives it.
// Prints the median and each start; nothing is asserted.
//
//   node bench/judging-start.mjs                      (dist/internal/proxy/, bundle when built)
//   BENCH_JUDGING_WORKER=/elsewhere/dist/internal/proxy/worker.js node bench/judging-start.mjs
import { once } from "node:events"
import { existsSync } from "node:fs"
import { loadavg } from "node:os"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"

const RUNS = Number(process.env.BENCH_JUDGING_RUNS ?? 10)
const bundle = new URL("../dist/internal/proxy/worker.bundle.js", import.meta.url)
const url =
  process.env.BENCH_JUDGING_WORKER !== undefined
    ? pathToFileURL(process.env.BENCH_JUDGING_WORKER)
    : existsSync(bundle)
      ? bundle
      : new URL("../dist/internal/proxy/worker.js", import.meta.url)
const init = {
  target: "http://127.0.0.1:1",
  limit: 4 * 1024 * 1024,
  strict: false,
  skewMillis: 5000,
  startedAt: Date.now(),
  har: true,
  metrics: true,
  live: false
}

const times = []
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now()
  const worker = new Worker(url, { workerData: init })
  const [message] = await once(worker, "message")
  times.push(performance.now() - t0)
  if (message._tag !== "Ready")
    throw new Error(`unexpected first message ${JSON.stringify(message)}`)
  await worker.terminate()
}
const sorted = [...times].sort((a, b) => a - b)
console.log(
  `${url.pathname}: judging thread start to Ready, median ${sorted[Math.floor(RUNS / 2)].toFixed(0)} ms over ${RUNS} (${times.map((t) => t.toFixed(0)).join(", ")} ms); load average ${loadavg()[0].toFixed(2)}`
)
