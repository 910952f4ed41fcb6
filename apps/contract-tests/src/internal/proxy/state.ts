/**
 * The proxy's state: exchanges judged one at a time off a queue, findings deduplicated (by side,
 * rule, operation and cause) and counted, a cell per operation and check, the live line of each
 * new finding, and the report so far (every finished exchange judged first).
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import { Secrets } from "@data-access/schema"
import * as Checks from "../../Checks.js"
import type { Finding } from "./types.js"
import type * as Report from "../../Report.js"
import type * as Har from "../har/model.js"
import { makeFinding, makeReport } from "../findings.js"
import { entryOf, make as makeHar } from "../har/write.js"
import { type Job, judge, type Judgement, type Settings } from "./judging.js"
import type { Metrics } from "./metrics.js"

/** What the state is kept for. */
export interface StateOptions extends Settings {
  /** The deployment relayed to: the base URL of the curl reproductions. */
  readonly target: string
  /** Called once per new finding (first occurrence). */
  readonly onFinding?: ((finding: Finding) => void) | undefined
  /** Called with every exchange once judged (the HAR recorder, the metrics). */
  readonly onJudged?: ((job: Job, judgement: Judgement, keys: ReadonlySet<string>) => void) | undefined
  /** What the traffic is, for the report's first note (default: the proxy in front of `target`). */
  readonly source?: string | undefined
  /** When the traffic started (default: now). */
  readonly startedAt?: number | undefined
  /** Exchanges waiting to be judged, at most (default `JUDGING_QUEUE`); more are relayed unjudged and counted. */
  readonly judgingQueue?: number | undefined
}

interface Cell {
  passed: number
  failed: number
}

/** The findings, counts and keys seen, and how a judgement adds to them. */
export const makeStore = (options: StateOptions) => {
  const startedAt = options.startedAt ?? Date.now()
  const runId = `${options.source === undefined ? "proxy" : "har"}-${startedAt.toString(36)}`
  const findings = new Map<string, { finding: Finding; count: number }>()
  const cells = new Map<string, Cell>()
  const keys = new Set<string>()
  const counters = { exchanges: 0, unchecked: 0 }

  const cell = (operation: string, check: Checks.CheckId) => {
    const k = `${operation}\u0000${check}`
    let c = cells.get(k)
    if (c === undefined) cells.set(k, (c = { passed: 0, failed: 0 }))
    return c
  }

  /** Counts each verdict; a failure's first occurrence becomes a finding, a later one a count. */
  const record = (judgement: Judgement) => {
    if (judgement.unread) counters.unchecked++
    for (const { operation, outcome: o, side } of judgement.verdicts) {
      const c = cell(operation, o.check)
      if (o.ok || o.rule === undefined) {
        c.passed++
        continue
      }
      c.failed++
      const k = `${side}\u0000${o.rule}\u0000${operation}\u0000${o.cause}`
      const seen = findings.get(k)
      if (seen !== undefined) {
        seen.count++
        continue
      }
      const finding = makeFinding({ outcome: o, operation, side, baseUrl: options.target, secrets: [...judgement.secrets, ...keys], exchange: judgement.exchange })
      findings.set(k, { finding, count: 1 })
      options.onFinding?.(finding)
    }
  }

  /** Judges one exchange into the store. */
  const check = (job: Job): void => {
    counters.exchanges++
    if (job.key !== undefined && job.key.length >= Secrets.MIN_LENGTH) keys.add(job.key)
    const judgement = judge(job, options)
    record(judgement)
    options.onJudged?.(job, judgement, keys)
  }

  /** The findings with their counts: the server's first, then by check. */
  const currentFindings = (): Array<Finding> => {
    const all = [...findings.values()].map(({ count, finding }) => ({ ...finding, occurrences: count }))
    const order = (f: Finding) => (f.side === "server" ? 0 : 1) * 1e6 + Checks.ids.indexOf(f.check) * 1000
    return all.sort((a, b) => order(a) - order(b))
  }

  const reportCells = (): Array<Report.Cell> =>
    [...cells.entries()]
      .map(([k, c]) => {
        const [operation, check] = k.split("\u0000") as [string, Checks.CheckId]
        return { operation, check, passed: c.passed, failed: c.failed, skipped: 0, skipReasons: [] }
      })
      .sort((a, b) => (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : Checks.ids.indexOf(a.check) - Checks.ids.indexOf(b.check)))

  const report = (fs: ReadonlyArray<Finding>, extraNotes: ReadonlyArray<string> = []) => {
    const { exchanges, unchecked } = counters
    return makeReport({
      runId,
      target: options.target,
      started: startedAt,
      requests: exchanges,
      cells: reportCells(),
      findings: fs,
      notes: [
        `${options.source ?? `conformance proxy in front of ${options.target}`}: ${exchanges} exchanges checked; ${fs.filter((f) => f.side === "server").length} server and ${fs.filter((f) => f.side === "client").length} client findings${options.strict ? " (strict client)" : ""}`,
        ...(unchecked === 0
          ? []
          : [`${unchecked} of them relayed with a body left unread (binary codec, or a Content-Encoding that could not be decompressed): judged by status and headers only`]),
        ...extraNotes
      ],
      secrets: keys
    })
  }

  return { check, currentFindings, report }
}

/** Exchanges waiting to be judged, at most. */
export const JUDGING_QUEUE = 4096

type Work = { readonly _tag: "Job"; readonly job: Job } | { readonly _tag: "Flush"; readonly done: Deferred.Deferred<void> }

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
}

/** What the running proxy keeps besides findings. */
export interface Recording {
  /** Keep every exchange for a HAR file. */
  readonly har: boolean
  readonly metrics: Metrics | undefined
}

/** A judged job as a HAR entry, every secret masked. */
const entryOfJob = (target: string, limit: number, job: Job, judgement: Judgement, keys: ReadonlySet<string>) =>
  entryOf({
    startedAt: job.started,
    durationMs: job.receivedAt - job.started,
    method: job.request.method,
    url: target + job.request.path + (job.request.query === "" ? "" : `?${job.request.query}`),
    requestHeaders: job.request.headers,
    requestBody: job.request.body,
    requestBodyBytes: job.request.bodyBytes,
    status: job.transportError === undefined ? job.status : 0,
    responseHeaders: job.headers,
    responseBody: job.body,
    error: job.transportError,
    secrets: keys,
    limit,
    read: { requestSecrets: judgement.secrets, responseJson: Option.getOrUndefined(Option.flatMap(judgement.exchange.response, (r) => r.json)) }
  })

/**
 * The state, with a fiber in the caller's scope that judges the queued exchanges one at a time.
 * A check that fails (a defect) is logged and the next exchange judged.
 */
export const make = (options: StateOptions, recording: Recording = { har: false, metrics: undefined }): Effect.Effect<State, never, Scope.Scope> =>
  Effect.gen(function* () {
    const entries: Array<Har.Entry> = []
    const { har, metrics } = recording
    const store = makeStore({
      ...options,
      onJudged:
        !har && metrics === undefined
          ? undefined
          : (job, judgement, keys) => {
              metrics?.judged(judgement)
              if (har) entries.push(entryOfJob(options.target, options.limit, job, judgement, keys))
            }
    })
    // Bounded for the relay's jobs: a relay faster than its judging for long drops exchanges from
    // judging (counted in the report) rather than keep them all in memory, and never waits for the
    // judge. A flush is always taken, after every job queued before it.
    const capacity = options.judgingQueue ?? JUDGING_QUEUE
    const queue = yield* Queue.unbounded<Work>()
    let dropped = 0
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))
    yield* Queue.take(queue).pipe(
      Effect.flatMap((w) =>
        w._tag === "Flush"
          ? Deferred.succeed(w.done, undefined)
          : Effect.sync(() => store.check(w.job)).pipe(Effect.catchAllDefect((d) => Effect.logWarning("contract-tests proxy: a check failed", d)))
      ),
      Effect.forever,
      Effect.forkScoped
    )
    const flush = Effect.gen(function* () {
      const done = yield* Deferred.make<void>()
      yield* Queue.offer(queue, { _tag: "Flush", done })
      yield* Deferred.await(done)
    })
    const findings = Effect.map(flush, store.currentFindings)
    return {
      enqueue: (job) => {
        if (Option.getOrElse(queue.unsafeSize(), () => 0) >= capacity) dropped++
        else Queue.unsafeOffer(queue, { _tag: "Job", job })
      },
      findings,
      report: Effect.map(findings, (fs) =>
        store.report(fs, dropped === 0 ? [] : [`${dropped} exchanges relayed but not judged: the judging queue (${capacity} exchanges) was full`])
      ),
      har: Effect.map(flush, () => makeHar(entries))
    }
  })
