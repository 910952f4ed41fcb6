/**
 * A run dealt to worker threads (`--workers N`): the caller's thread has probed the target and
 * discovered its objects once; each thread runs every N-th suite of the same plan with its own
 * connection pool, under one request budget, one rate limit and one findings limit (`sharedMemory.ts`),
 * every thread's writes done before any thread's reads that a write may change; the threads'
 * reports are joined into one.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Fs from "node:fs"
import { builtSibling } from "../builtModule.js"
import { Worker } from "node:worker_threads"
import type { Pools } from "../pools.js"
import type * as Report from "../report/model.js"
import { join } from "../report/merge.js"
import { RunFailure } from "./options.js"
import type { Shard } from "./plan.js"
import { makeShared, type Shared } from "./sharedMemory.js"
import type { Options } from "./types.js"

/** What a worker thread's run takes besides the options: its share and what the run shares. */
export interface WorkerPart {
  readonly share: Shard
  readonly shared: Shared
  readonly runId: string
  readonly seed: number
  readonly started: number
  readonly pools: Pools
  readonly notes: ReadonlyArray<string>
}

/** The options as they cross to a thread: data only (the key and headers as text, durations as "<n> millis"). */
export type PlainOptions = Omit<
  Options,
  "apiKey" | "headers" | "progress" | "onProgress" | "onHarEntry" | "hooks"
>

/** A worker thread's start: its options, key, headers and part. */
export interface WorkerInit {
  readonly options: PlainOptions
  readonly apiKey: string
  readonly headers: Readonly<Record<string, string>> | undefined
  readonly part: WorkerPart
  readonly progress: boolean
  readonly har: boolean
}

/** What a worker thread tells the caller's. */
export type WorkerMessage =
  | { readonly _tag: "Progress"; readonly line: string }
  | { readonly _tag: "Har"; readonly entry: unknown }
  | { readonly _tag: "Done"; readonly report: Report.Report }
  | { readonly _tag: "Failed"; readonly reason: RunFailure["reason"]; readonly message: string }

/**
 * Why the options cannot run in threads (code of the caller's own cannot cross to a thread), or
 * undefined.
 */
export const refusal = (options: Options): string | undefined =>
  options.hooks !== undefined
    ? "hooks run in the caller's thread: leave out workers (or --workers) to use them"
    : undefined

/** The thread's module, built (`builtSibling`). */
const workerUrl = (): URL => builtSibling(import.meta.url, "worker.js")

const millis = (d: Duration.DurationInput | undefined): Duration.DurationInput | undefined =>
  d === undefined ? undefined : `${Duration.toMillis(Duration.decode(d))} millis`

/** The options as data a thread can receive. */
const plain = (options: Options): PlainOptions => {
  const {
    apiKey: _apiKey,
    headers: _headers,
    progress: _progress,
    onProgress: _onProgress,
    onHarEntry: _har,
    hooks: _hooks,
    ...rest
  } = options
  return {
    ...rest,
    timeout: millis(options.timeout),
    timeBudget: millis(options.timeBudget),
    clockSkew: millis(options.clockSkew)
  }
}

/** One thread's run: its report, or its failure; the thread ends with the effect. */
const inThread = (init: WorkerInit, options: Options) =>
  Effect.async<Report.Report, RunFailure>((resume) => {
    const url = workerUrl()
    if (!Fs.existsSync(url)) {
      resume(
        Effect.fail(
          new RunFailure({
            reason: "BadOptions",
            message: `the worker module ${url.href} is not built`
          })
        )
      )
      return
    }
    const worker = new Worker(url, {
      workerData: init,
      name: `contract-tests worker ${init.part.share.index}/${init.part.share.total}`
    })
    let settled = false
    const settle = (e: Effect.Effect<Report.Report, RunFailure>) => {
      if (settled) return
      settled = true
      resume(e)
    }
    worker.on("message", (m: WorkerMessage) => {
      switch (m._tag) {
        case "Progress":
          options.progress?.(m.line)
          return
        case "Har":
          options.onHarEntry?.(m.entry as Parameters<NonNullable<Options["onHarEntry"]>>[0])
          return
        case "Done":
          return settle(Effect.succeed(m.report))
        case "Failed":
          return settle(Effect.fail(new RunFailure({ reason: m.reason, message: m.message })))
      }
    })
    const failed = (why: string) =>
      settle(
        Effect.fail(
          new RunFailure({
            reason: "Unreachable",
            message: `worker thread ${init.part.share.index} of ${init.part.share.total} ${why}`
          })
        )
      )
    worker.on("error", (e) => failed(`failed: ${e.message}`))
    worker.on("exit", (code) => failed(`ended (exit code ${code}) before its report`))
    return Effect.promise(() => worker.terminate())
  })

/**
 * The run in `workers` threads, each with every `workers`-th suite: their reports joined, with the
 * requests the caller's thread sent to probe and discover.
 */
export const runInWorkers = (
  options: Options,
  workers: number,
  part: Omit<WorkerPart, "share" | "shared">,
  callerRequests: number
): Effect.Effect<Report.Report, RunFailure> =>
  Effect.gen(function* () {
    const shared = makeShared(workers, callerRequests)
    const headers =
      options.headers === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(options.headers).map(([k, v]) => [k, Redacted.value(v)])
          )
    const reports = yield* Effect.forEach(
      Array.from({ length: workers }, (_, i) => i + 1),
      (index) =>
        inThread(
          {
            options: plain(options),
            apiKey: Redacted.value(options.apiKey),
            headers,
            part: { ...part, share: { index, total: workers }, shared },
            progress: options.progress !== undefined,
            har: options.onHarEntry !== undefined
          },
          options
        ),
      { concurrency: "unbounded" }
    )
    const joined = join(reports)
    return {
      ...joined,
      runId: part.runId,
      startedAt: new Date(part.started).toISOString(),
      durationMs: Date.now() - part.started,
      requests: joined.requests + callerRequests,
      notes: [...joined.notes, `ran in ${workers} worker threads`],
      ...(options.shard === undefined ? {} : { shard: options.shard })
    }
  })
