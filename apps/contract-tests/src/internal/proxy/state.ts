/**
 * The proxy's state, in the relay's thread: the finished exchanges handed to the judging thread
 * (`worker.ts`, which keeps the store) without waiting for it, at most `judgingQueue` of them not
 * judged yet (more are relayed unjudged and counted), and the findings, the report and the HAR
 * asked of it, every exchange finished before judged first.
 *
 * The relay's thread posts one message per turn of its event loop, whatever the number of
 * exchanges that finished in it, and the judging thread answers a batch with one message: no reply
 * per exchange, and no Effect fiber per exchange on the relay's side (`@effect/platform`'s
 * `Worker` is one request, one reply).
 */
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as Fs from "node:fs"
import { builtSibling } from "../builtModule.js"
import { Worker } from "node:worker_threads"
import type * as Report from "../report/model.js"
import type * as Har from "../recording/model.js"
import type { Job } from "../judge/judging.js"
import type { Metrics } from "./metrics.js"
import type { Answers, FromJudge, Init, ToJudge } from "./threadMessages.js"
import type { StoreOptions } from "../judge/store.js"
import type { Finding } from "../judge/types.js"

/** What the state is kept for. */
export interface StateOptions extends Omit<StoreOptions, "onJudged"> {
  /** Exchanges waiting to be judged, at most (default `JUDGING_QUEUE`); more are relayed unjudged and counted. */
  readonly judgingQueue?: number | undefined
  /** Judging waits while its first element is 1 (see `Init.hold`): for the tests only. */
  readonly hold?: Int32Array | undefined
}

/** Exchanges waiting to be judged, at most. */
export const JUDGING_QUEUE = 4096

/**
 * How long finished exchanges wait for the next ones before they are posted together: each message
 * wakes the judging thread (and its reply the relay's), and a wake-up costs the relay more than
 * cloning a job; at a few hundred exchanges a second, a message per 5 ms still carried about one.
 * The report, the findings, the HAR and the metrics post what waits before they ask.
 */
const POST_EVERY_MILLIS = 25

/** A running proxy's state. */
export interface State {
  /** Hands a finished exchange to the judge (never blocks the relay). */
  readonly enqueue: (job: Job) => void
  /** The findings so far, every finished exchange judged first. */
  readonly findings: Effect.Effect<ReadonlyArray<Finding>>
  /** The report so far, every finished exchange judged first. */
  readonly report: Effect.Effect<Report.Report & { readonly findings: ReadonlyArray<Finding> }>
  /** The exchanges so far as HAR (every finished exchange judged first); empty unless recorded. */
  readonly har: Effect.Effect<Har.Har>
  /** Every finished exchange judged (the metrics told of it). */
  readonly settled: Effect.Effect<void>
}

/** What the running proxy keeps besides findings. */
export interface Recording {
  /** Keep every exchange for a HAR file. */
  readonly har: boolean
  readonly metrics: Metrics | undefined
}

/**
 * The judging thread did not start, or stopped.
 */
export class JudgingError extends Data.TaggedError("JudgingError")<{ readonly message: string }> {}

/**
 * The judging thread's module: `worker.bundle.js` beside this one once built (the worker module and
 * its dependencies in one file, `scripts/bundle-worker.mjs`: a thread loads its modules anew, and
 * one file starts several times sooner than the hundreds it is made of), or `worker.js` for a build
 * without the bundle (`tsc` alone), in the built directory (`builtSibling`).
 */
export const workerUrl = (
  here: string = import.meta.url,
  exists: (url: URL) => boolean = Fs.existsSync
): URL => {
  const bundle = builtSibling(here, "worker.bundle.js")
  return exists(bundle) ? bundle : builtSibling(here, "worker.js")
}

/**
 * The jobs with their bodies copied into one buffer of their own, transferred with the message
 * rather than cloned (the relay's bytes may still be in flight): one copy and one transfer a batch.
 */
const owned = (jobs: ReadonlyArray<Job>): { jobs: Array<Job>; buffer: ArrayBuffer } => {
  let size = 0
  for (const j of jobs) size += (j.request.body?.length ?? 0) + (j.body?.length ?? 0)
  const buffer = new ArrayBuffer(size)
  let at = 0
  const copy = (b: Uint8Array | undefined) => {
    if (b === undefined) return undefined
    const c = new Uint8Array(buffer, at, b.length)
    c.set(b)
    at += b.length
    return c
  }
  return {
    jobs: jobs.map((j) => ({
      ...j,
      request: { ...j.request, body: copy(j.request.body) },
      body: copy(j.body)
    })),
    buffer
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/**
 * The state, with the judging thread living as long as the caller's scope. Fails when the thread
 * does not start.
 */
export const make = (
  options: StateOptions,
  recording: Recording = { har: false, metrics: undefined }
): Effect.Effect<State, JudgingError, Scope.Scope> =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const { har, metrics } = recording
    const { hold, judgingQueue, onFinding, ...store } = options
    const init: Init = {
      ...store,
      startedAt: options.startedAt ?? Date.now(),
      har,
      metrics: metrics !== undefined,
      live: onFinding !== undefined,
      hold
    }
    const capacity = judgingQueue ?? JUDGING_QUEUE
    const ready = yield* Deferred.make<void, JudgingError>()
    const asked = new Map<number, Deferred.Deferred<Answers[keyof Answers], JudgingError>>()
    // Exchanges posted (or to be posted at the end of this turn) and not judged yet; those dropped for
    // a full queue; those that could not be posted (the thread stopped).
    let pending = 0
    let dropped = 0
    let unposted = 0
    let asks = 0
    let stopped: JudgingError | undefined
    let closing = false
    const stop = (error: JudgingError) => {
      if (closing || stopped !== undefined) return
      stopped = error
      Deferred.unsafeDone(ready, Exit.fail(error))
      for (const d of asked.values()) Deferred.unsafeDone(d, Exit.fail(error))
      asked.clear()
      Runtime.runFork(runtime)(Effect.logError(`contract-tests proxy: ${error.message}`))
    }
    const worker = yield* Effect.acquireRelease(
      Effect.try({
        try: () =>
          new Worker(workerUrl(), { workerData: init, name: "contract-tests proxy judging" }),
        catch: (e) =>
          new JudgingError({ message: `the judging thread could not start: ${message(e)}` })
      }),
      (w) =>
        Effect.promise(() => {
          closing = true
          return w.terminate()
        })
    )
    worker.on("message", (m: FromJudge) => {
      switch (m._tag) {
        case "Ready":
          return Deferred.unsafeDone(ready, Exit.void)
        case "Judged":
          pending -= m.count
          if (m.tally !== undefined) metrics?.judged(m.tally)
          if (onFinding !== undefined) for (const f of m.findings) onFinding(f)
          return
        case "Defect":
          return Runtime.runFork(runtime)(
            Effect.logWarning("contract-tests proxy: a check failed", m.message)
          )
        case "Answer": {
          const d = asked.get(m.id)
          asked.delete(m.id)
          if (d !== undefined) Deferred.unsafeDone(d, Exit.succeed(m.value))
        }
      }
    })
    worker.on("error", (e) =>
      stop(new JudgingError({ message: `the judging thread failed: ${message(e)}` }))
    )
    worker.on("exit", (code) =>
      stop(new JudgingError({ message: `the judging thread stopped (exit code ${code})` }))
    )
    yield* Deferred.await(ready)

    let batch: Array<Job> = []
    const post = () => {
      if (batch.length === 0 || stopped !== undefined) return
      const jobs = batch
      batch = []
      try {
        const own = owned(jobs)
        worker.postMessage({ _tag: "Jobs", jobs: own.jobs } satisfies ToJudge, [own.buffer])
      } catch (error) {
        // Never the relay's failure: the batch is counted as not judged.
        pending -= jobs.length
        unposted += jobs.length
        Runtime.runFork(runtime)(
          Effect.logWarning(
            "contract-tests proxy: exchanges could not be handed to the judge",
            message(error)
          )
        )
      }
    }
    const ask = <K extends keyof Answers>(
      what: K,
      notes: () => ReadonlyArray<string> = () => []
    ): Effect.Effect<Answers[K]> =>
      Effect.flatMap(Deferred.make<Answers[keyof Answers], JudgingError>(), (done) => {
        if (stopped !== undefined) return Effect.die(stopped)
        // The exchanges of this turn first: an answer comes after every exchange posted before it.
        post()
        const id = asks++
        asked.set(id, done)
        worker.postMessage({ _tag: "Ask", id, what, notes: notes() } satisfies ToJudge)
        return Effect.orDie(Deferred.await(done) as Effect.Effect<Answers[K], JudgingError>)
      })
    return {
      // Bounded for the relay's jobs: a relay faster than its judging for long drops exchanges from
      // judging (counted in the report) rather than keep them all in memory, and never waits for the
      // judge.
      enqueue: (job) => {
        if (stopped !== undefined) unposted++
        else if (pending >= capacity) dropped++
        else {
          pending++
          batch.push(job)
          if (batch.length === 1) setTimeout(post, POST_EVERY_MILLIS).unref()
        }
      },
      findings: ask("findings"),
      report: ask("report", () => [
        ...(dropped === 0
          ? []
          : [
              `${dropped} exchanges relayed but not judged: the judging queue (${capacity} exchanges) was full`
            ]),
        ...(unposted === 0
          ? []
          : [
              `${unposted} exchanges relayed but not judged: they could not be handed to the judging thread`
            ])
      ]),
      har: ask("har"),
      settled: ask("settled")
    }
  })
