/* global performance, fetch */
// The timing both clients' benchmarks use (packages/client/bench/run.mjs and
// packages/client-effect4/bench/compare.mjs): calls per second and latency percentiles of a call
// run by concurrent workers in short rounds, the median time of a synchronous function, a
// ListNativeUsers page as the server writes it, fetched without a client, and the number of
// secrets a decoded page holds.

/** The `p`th percentile of numbers sorted in ascending order. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

/** Runs `call` from `concurrency` workers for `seconds`; returns every latency (ms) and the time taken (s). */
export const measure = async (call, concurrency, seconds) => {
  const latencies = []
  const end = performance.now() + seconds * 1000
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now()
      await call()
      latencies.push(performance.now() - t0)
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  return { latencies, seconds: (performance.now() - start) / 1000 }
}

/** Rounds of `measure` taken as one: calls per second over all of them, p50 and p99 of every latency (ms), and the number of calls. */
export const combine = (rounds) => {
  const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b)
  const seconds = rounds.reduce((s, r) => s + r.seconds, 0)
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    n: latencies.length
  }
}

/** The median time (ms) of one run of `f`, run for `seconds` after `warmup` runs. */
export const medianMillis = (f, { seconds, warmup }) => {
  for (let i = 0; i < warmup; i++) f()
  const samples = []
  const end = performance.now() + seconds * 1000
  while (performance.now() < end) {
    const t0 = performance.now()
    f()
    samples.push(performance.now() - t0)
  }
  samples.sort((a, b) => a - b)
  return percentile(samples, 50)
}

/** The body of the ListNativeUsers page of `limit` native users of `resourceId`, as the server at `url` writes it. */
export const fetchNativeUsersPage = async (url, apiKey, resourceId, limit = 500) => {
  const response = await fetch(`${url}/core.v1.ResourceService/ListNativeUsers`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey },
    body: JSON.stringify({ resourceId, limit })
  })
  if (response.status !== 200) throw new Error(`ListNativeUsers: status ${response.status}`)
  return response.text()
}

/** How many values of a decoded value `isRedacted` says are secrets (each one a `Redacted` its decode made). */
export const countSecrets = (isRedacted, u) =>
  isRedacted(u)
    ? 1
    : u !== null && typeof u === "object"
      ? Object.values(u).reduce((n, v) => n + countSecrets(isRedacted, v), 0)
      : 0
