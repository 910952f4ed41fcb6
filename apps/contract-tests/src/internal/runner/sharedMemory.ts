/**
 * What the worker threads of one run share (`--workers`), in one `SharedArrayBuffer`: the requests
 * sent (one request budget), the distinct failures (one findings limit), the rate limit's next free
 * slot (one rate for all threads) and the barrier between the writes and the reads.
 */
import * as Effect from "effect/Effect"

/** The shared memory of a run's threads and how many threads there are. */
export interface Shared {
  readonly buffer: SharedArrayBuffer
  readonly workers: number
}

const REQUESTS = 0
const FAILURES = 1
const ARRIVED = 2

/** The shared memory of `workers` threads, the requests the caller's thread sent already counted. */
export const makeShared = (workers: number, requestsSent: number): Shared => {
  const buffer = new SharedArrayBuffer(32)
  new Int32Array(buffer, 0, 4)[REQUESTS] = requestsSent
  return { buffer, workers }
}

/** `Atomics.waitAsync` (Node 16 and later; ES2024 in TypeScript's libraries). */
const waitAsync = (
  Atomics as unknown as {
    readonly waitAsync: (
      a: Int32Array,
      index: number,
      value: number
    ) => { readonly value: Promise<string> | string }
  }
).waitAsync

const ints = (s: Shared) => new Int32Array(s.buffer, 0, 4)
const clock = (s: Shared) => new BigInt64Array(s.buffer, 16, 2)

/** Takes one request of the budget: the number of requests taken before it, by every thread. */
export const takeRequest = (s: Shared): number => Atomics.add(ints(s), REQUESTS, 1)

/** Counts one distinct failure; the count after it, over every thread. */
export const addFailure = (s: Shared): number => Atomics.add(ints(s), FAILURES, 1) + 1

/** Distinct failures so far, over every thread. */
export const failures = (s: Shared): number => Atomics.load(ints(s), FAILURES)

/**
 * The milliseconds to wait before the next request at `rate` per second over every thread: each
 * request takes the slot after the last one taken, so the threads together keep the rate.
 */
export const rateDelay = (s: Shared, rate: number): number => {
  const c = clock(s)
  const interval = BigInt(Math.max(1, Math.round(1_000_000 / rate)))
  for (;;) {
    const now = BigInt(Date.now()) * 1000n
    const next = Atomics.load(c, 0)
    const slot = next > now ? next : now
    if (Atomics.compareExchange(c, 0, next, slot + interval) === next)
      return Number(slot - now) / 1000
  }
}

/**
 * Waits until every thread has arrived here (the end of the writes): no thread starts a read that
 * a write may change while another still creates or changes objects. The wait does not block the
 * thread's event loop.
 */
export const arrive = (s: Shared): Effect.Effect<void> =>
  Effect.promise(async () => {
    const a = ints(s)
    if (Atomics.add(a, ARRIVED, 1) + 1 >= s.workers) {
      Atomics.notify(a, ARRIVED)
      return
    }
    // A pending `waitAsync` does not keep a thread's event loop alive: this timer does.
    const alive = setInterval(() => {}, 60_000)
    try {
      for (;;) {
        const seen = Atomics.load(a, ARRIVED)
        if (seen >= s.workers) return
        await waitAsync(a, ARRIVED, seen).value
      }
    } finally {
      clearInterval(alive)
    }
  })
