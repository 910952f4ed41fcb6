/* global performance, fetch */
// The client of bench/proxy.mjs (fetch): sequential calls for the latency (p50, p99), then calls at
// a fixed concurrency for the throughput. Imported, it runs in the caller's thread; started as a
// worker thread (workerData: what `measure` takes), it posts its result and ends.
import { parentPort, workerData } from "node:worker_threads"

/** One call; its answer's Content-Encoding. */
export const call = async (base, requests, key, i) => {
  const [path, body] = requests[i % requests.length]
  const res = await fetch(base + path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": key,
      "connect-protocol-version": "1"
    },
    body: JSON.stringify(body)
  })
  await res.arrayBuffer()
  return res.headers.get("content-encoding")
}

const percentile = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]

/** p50 and p99 of `calls` sequential calls (after 100 to warm up), and calls per second of `calls * 2` at `concurrency`. */
export const measure = async ({ base, requests, key, calls, concurrency }) => {
  for (let i = 0; i < 100; i++) await call(base, requests, key, i)
  const times = []
  for (let i = 0; i < calls; i++) {
    const t = performance.now()
    await call(base, requests, key, i)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls * 2) await call(base, requests, key, next++)
    })
  )
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    rps: (calls * 2) / ((performance.now() - started) / 1000)
  }
}

if (parentPort !== null && workerData?.base !== undefined)
  parentPort.postMessage(await measure(workerData))
