/**
 * A whole run, step by step: the options checked, the target made and probed (reachable, the key
 * accepted, Connect JSON spoken), the objects that exist discovered, the suites planned and run
 * (writes first, then reads; or the one replayed case), and the report collated.
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { Secrets } from "@data-access/schema"
import type { Options } from "./types.js"
import type * as Report from "../report/model.js"
import type * as ReplayId from "../replayId.js"
import { type Context, casesOf, type Suite } from "../context.js"
import { type AnyCheckId, compareChecks } from "../checkIds.js"
import { observed } from "../customChecks.js"
import { namePrefix } from "../generate.js"
import * as ObjectModel from "../objectModel.js"
import * as Dimensions from "../dimensions.js"
import { makeReport } from "../findings.js"
import { knownBy } from "../baseline.js"
import { shardNote } from "../report/merge.js"
import { causeKey } from "../report/verdict.js"
import { harRecorder } from "../har/runner.js"
import { makeTarget, type Target } from "../http.js"
import { keySecrets } from "../keys.js"
import { headerSecrets } from "../requestHooks.js"
import {
  cellsOf,
  coverageOf,
  splitByBaseline,
  uniqueFindings,
  uniqueObservations
} from "./collate.js"
import { discover, preflight } from "./discovery.js"
import {
  concurrencyOf,
  defaults,
  newRunId,
  RunFailure,
  SHRINK_BUDGET,
  plannedChecks,
  selectedCustom,
  selectedIds,
  selectedMethods,
  validate
} from "./options.js"
import {
  type Group,
  objectsOfCase,
  plan,
  seesWrites,
  shareOf,
  withRestore,
  writesSeenBy
} from "./plan.js"
import { makeSlots } from "./slots.js"
import { addFailure, arrive, failures, type Shared } from "./sharedMemory.js"
import { refusal, runInWorkers, type WorkerPart } from "./workers.js"
import { type Limits, stopReason } from "./limits.js"
import { runSuite, type SuiteResult, type SuiteSettings } from "./suite.js"

/** What every step of a run shares. */
export interface Run {
  readonly options: Options
  readonly runId: string
  readonly seed: number
  readonly examples: number
  readonly started: number
  readonly readOnly: boolean
  /** The API key: kept out of every text of the report and of the progress lines. */
  readonly secrets: ReadonlyArray<string>
  readonly progress: (line: string) => void
}

export const makeRunTarget = (
  options: Options,
  shared?: Shared | undefined,
  model: ObjectModel.ObjectModel = ObjectModel.make(true)
) =>
  Effect.map(
    makeTarget({
      shared,
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      rateLimit: options.rateLimit,
      timeout: Duration.decode(options.timeout ?? "10 seconds"),
      maxRequests: options.maxRequests ?? defaults.maxRequests,
      retryThrottled: options.retryThrottled ?? true,
      headers: options.headers,
      hooks: options.hooks,
      onSent:
        options.onHarEntry === undefined
          ? undefined
          : harRecorder(options.onHarEntry, secretsOf(options))
    }),
    // The model of the run's objects judges every exchange; custom checks judge each case's
    // exchanges: the target logs them for the case that sent them.
    (target) => {
      const judged = ObjectModel.modelled(target, model)
      return (options.hooks?.checks ?? []).length > 0 ? observed(judged) : judged
    }
  )

/** The texts no report of a run may print: the key, its near keys and the extra headers' values. */
export const secretsOf = (options: Options): ReadonlyArray<string> => [
  ...keySecrets(Redacted.value(options.apiKey)),
  ...headerSecrets(options.headers)
]

/** The groups with the suites the hooks' filter leaves out marked skipped. */
export const filtered = (groups: ReadonlyArray<Group>, options: Options): Array<Group> => {
  const filter = options.hooks?.filter
  if (filter === undefined) return [...groups]
  return groups.map((g) => ({
    ...g,
    suites: g.suites.map((s) =>
      s.skip === undefined && !filter({ operation: g.method, family: s.family, checks: s.checks })
        ? { ...s, skip: "left out by the hooks' filter" }
        : s
    )
  }))
}

/** The suites' context: the target, the pools and the run's settings. */
export const contextOf = (run: Run, target: Target, pools: Context["pools"]): Context => ({
  target,
  pools,
  runId: run.runId,
  skewMillis: Duration.toMillis(
    Duration.decode(run.options.clockSkew ?? Duration.millis(defaults.clockSkewMillis))
  ),
  readOnly: run.readOnly,
  examples: run.examples,
  createExamples: run.options.createsPerOperation ?? run.examples,
  seed: run.seed,
  dimensions: Dimensions.tally()
})

/**
 * Progress per finished suite: a line with its counts, its time and the findings so far; or, to
 * `onProgress`, the examples done and planned and the findings so far.
 */
const progressLine = (run: Run, groups: ReadonlyArray<Group>) => {
  const total = groups.reduce((n, g) => n + g.suites.length, 0)
  const planned = groups.reduce((n, g) => n + g.suites.reduce((k, s) => k + costOf(s), 0), 0)
  let done = 0
  let examples = 0
  // Counted as the verdict counts them: by cause, over every operation, the baseline's left out.
  const causes = new Set<string>()
  const known = knownBy(run.options.baseline)
  const onProgress = run.options.onProgress
  onProgress?.({ done: 0, planned, findings: 0 })
  return (r: SuiteResult, millis: number) => {
    done++
    examples += costOf(r.suite)
    for (const f of r.findings) if (!known(f)) causes.add(causeKey(f))
    const findings = causes.size
    if (onProgress !== undefined) return onProgress({ done: examples, planned, findings })
    const failed = [...r.counts.values()].reduce((n, c) => n + c.failed, 0)
    const passed = [...r.counts.values()].reduce((n, c) => n + c.passed, 0)
    const suite = r.suite
    run.progress(
      `[${done}/${total}] ${suite.method === "_" ? "(api)" : suite.method} ${suite.family}: ${suite.skip !== undefined ? `skipped (${suite.skip})` : `${passed} passed, ${failed} failed`} · ${millis} ms · ${findings} findings so far`
    )
  }
}

/** A suite's cases: what it costs to run, in requests at least. */
const costOf = (suite: Suite): number => (suite.skip !== undefined ? 0 : casesOf(suite.cases))

/**
 * Runs every group: a read group once the writes whose changes it may see are done (they change
 * what lists return), so that paging and search see a stable snapshot; reads that no write
 * touches start at once. Up to `concurrency` cases are in flight at once, from any suite of any
 * operation, the cases of writes served before those of reads and the longest suites started
 * first. The suites of an Update operation change the same few objects, so they run one after
 * the other (with the objects read before and put back after), their cases on different objects
 * overlapping; a suite whose cases change what others read sends them one after the other
 * (`Suite.ordered`); the cases of any other suite overlap. What one case sends still goes in order.
 */
const runAll = (
  run: Run,
  target: Target,
  groups: ReadonlyArray<Group>,
  settings: SuiteSettings,
  shared: Shared | undefined
) =>
  Effect.gen(function* () {
    const results: Array<SuiteResult> = []
    const finished = progressLine(run, groups)
    const concurrency = concurrencyOf(run.options)
    const slotOf = makeSlots(concurrency)
    const runOne = (g: Group, suite: Suite, objectsOf?: (a: unknown) => ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const t0 = Date.now()
        const ordered = suite.ordered ?? suite.writes
        const r = yield* runSuite(suite, {
          ...settings,
          slot: slotOf(g.writes),
          window: ordered && objectsOf === undefined ? 1 : concurrency,
          objectsOf: ordered ? objectsOf : undefined
        })
        results.push(r)
        finished(r, Date.now() - t0)
      })
    const writes = groups.filter((g) => g.writes)
    const done = new Map<Group, Deferred.Deferred<void>>()
    for (const g of writes) done.set(g, yield* Deferred.make<void>())
    // A worker thread's reads that a write may change wait for every thread's writes.
    const barrier = yield* Deferred.make<void>()
    const arrived =
      shared === undefined
        ? Effect.void
        : Effect.forEach(done.values(), Deferred.await, { discard: true }).pipe(
            Effect.zipRight(arrive(shared)),
            Effect.zipRight(Deferred.succeed(barrier, undefined))
          )
    const before = (g: Group): Effect.Effect<void> =>
      g.writes
        ? Effect.void
        : shared !== undefined
          ? seesWrites(g)
            ? Deferred.await(barrier)
            : Effect.void
          : Effect.forEach(writesSeenBy(g, writes), (w) => Deferred.await(done.get(w)!), {
              discard: true
            })
    /** What runs as one: a whole ordered group, or one suite of another. */
    const units = groups
      .flatMap((g) =>
        g.ordered
          ? [
              {
                group: g,
                cost: g.suites.reduce((n, s) => n + costOf(s), 0),
                run: withRestore(
                  target,
                  g,
                  Effect.forEach(g.suites, (s) => runOne(g, s, objectsOfCase(g)), { discard: true })
                )
              }
            ]
          : g.suites.map((s) => ({ group: g, cost: costOf(s), run: runOne(g, s) }))
      )
      .sort((a, b) => b.cost - a.cost)
    // A write group is done once its last unit is.
    const left = new Map<Group, number>()
    for (const u of units) left.set(u.group, (left.get(u.group) ?? 0) + 1)
    const unitDone = (g: Group) =>
      Effect.suspend(() => {
        const n = left.get(g)! - 1
        left.set(g, n)
        const d = done.get(g)
        return n === 0 && d !== undefined ? Deferred.succeed(d, undefined) : Effect.void
      })
    yield* Effect.all(
      [
        arrived,
        Effect.forEach(
          units,
          (u) => Effect.zipRight(before(u.group), Effect.zipRight(u.run, unitDone(u.group))),
          { concurrency: "unbounded", discard: true }
        )
      ],
      { concurrency: "unbounded", discard: true }
    )
    return results
  })

/** Runs the one case a replay id names. */
const runReplay = (
  run: Run,
  replay: ReplayId.ReplayId,
  groups: ReadonlyArray<Group>,
  settings: SuiteSettings
) =>
  Effect.gen(function* () {
    const suite = groups
      .find((g) => g.method === replay.method)
      ?.suites.find((s) => s.family === replay.family)
    if (suite === undefined) {
      return yield* new RunFailure({
        reason: "BadOptions",
        message: `replay id ${run.options.replay} names no suite of this run (${replay.family} of ${replay.method})`
      })
    }
    return [
      yield* runSuite(suite, {
        ...settings,
        selected: new Set([replay.check]),
        replayPath: replay.path
      })
    ]
  })

/** The run's report from its suites' results. */
const collate = (
  run: Run,
  target: Target,
  groups: ReadonlyArray<Group>,
  results: ReadonlyArray<SuiteResult>,
  notes: ReadonlyArray<string>,
  dimensions: Dimensions.Tally,
  othersWrite: boolean
) =>
  Effect.gen(function* () {
    const cells = cellsOf(groups, results)
    const held = uniqueFindings(results.map((r) => ({ ...r, findings: r.held })))
    const split = splitByBaseline(
      run.options.baseline,
      uniqueFindings(
        othersWrite ? results : results.map((r) => ({ ...r, findings: [...r.findings, ...r.held] }))
      ),
      cells
    )
    const selected = new Set<AnyCheckId>(
      run.options.replay === undefined
        ? selectedIds(run.options)
        : results.flatMap((r) => [...r.counts.keys()])
    )
    const shard = run.options.replay === undefined ? run.options.shard : undefined
    const report = makeReport({
      runId: run.runId,
      seed: run.seed,
      target: target.baseUrl,
      started: run.started,
      requests: yield* target.sent,
      examples: run.examples,
      readOnly: run.readOnly,
      replay: run.options.replay,
      cells,
      findings: split.findings,
      known: split.known,
      fixed: split.fixed,
      observations: uniqueObservations(results),
      notes: [
        ...notes,
        ...(othersWrite ? held.map(withheldNote) : []),
        ...(shard === undefined ? [] : [shardNote(shard)])
      ],
      coverage: coverageOf(results, cells, selected),
      secrets: run.secrets
    })
    return {
      ...report,
      fields: Dimensions.coverageOf(dimensions),
      repeats: results.reduce((n, r) => n + r.repeats, 0),
      checks: [...selected].sort(compareChecks),
      ...(shard === undefined ? {} : { shard: { index: shard.index, total: shard.total } })
    }
  })

/**
 * A finding on an object other clients may write too, left out of a run that saw another client
 * write to the target (`restsOnShared`): a note instead, so that two runs against one target at
 * once do not fail each other.
 */
const withheldNote = (f: Report.Finding): string =>
  `not judged, another client wrote to the target during the run: ${f.operation} ${f.rule}: ${f.message}`

/** A run's limits: one findings count for all threads of a run in workers, else its own. */
const limitsOf = (options: Options, started: number, shared: Shared | undefined): Limits => {
  let own = 0
  return {
    shrinkBudget: options.shrinkBudget ?? SHRINK_BUDGET,
    deadline:
      options.timeBudget === undefined
        ? undefined
        : started + Duration.toMillis(Duration.decode(options.timeBudget)),
    stoppedBy: undefined,
    maxFindings: options.maxFindings,
    failures:
      shared === undefined
        ? { count: () => own, add: () => void own++ }
        : { count: () => failures(shared), add: () => void addFailure(shared) }
  }
}

/** A run of the contract checks against `options.baseUrl`, in the caller's scope. */
export const run = (
  options: Options & { readonly worker?: WorkerPart | undefined }
): Effect.Effect<Report.Report, RunFailure, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    const worker = options.worker
    const started = worker?.started ?? Date.now()
    const replay = yield* validate(options)
    const seed =
      worker?.seed ?? replay?.seed ?? options.seed ?? Math.floor(Math.random() * 0x7fffffff)
    const secrets = secretsOf(options)
    const scrub = Secrets.scrubber(secrets)
    const r: Run = {
      options,
      runId: worker?.runId ?? newRunId(),
      seed,
      examples: options.examples ?? defaults.examples,
      started,
      readOnly: options.readOnly ?? false,
      secrets,
      progress: (line) => options.progress?.(scrub(line))
    }
    const model = ObjectModel.make(true, namePrefix(r.runId))
    const target = yield* makeRunTarget(options, worker?.shared, model)
    let discovered: { readonly pools: Context["pools"]; readonly notes: ReadonlyArray<string> }
    if (worker !== undefined) discovered = worker
    else {
      yield* preflight(target, scrub)
      r.progress(
        `contract-tests: run ${r.runId}, seed ${seed}, ${r.examples} examples per operation against ${target.baseUrl}`
      )
      discovered = yield* discover(target, options.fixtures, 20, concurrencyOf(options)).pipe(
        Effect.orDie
      )
      r.progress(discovered.notes[0]!)
      const workers = options.workers ?? 1
      if (workers > 1 && replay === undefined) {
        const refused = refusal(options)
        if (refused !== undefined)
          return yield* new RunFailure({ reason: "BadOptions", message: refused })
        return yield* runInWorkers(
          options,
          workers,
          { runId: r.runId, seed, started, pools: discovered.pools, notes: discovered.notes },
          yield* target.sent
        )
      }
    }
    const { pools, notes } = discovered
    const selected = new Set<AnyCheckId>(selectedIds(options))
    const ctx = contextOf(r, target, pools)
    const planned = plan(
      ctx,
      new Set(selectedMethods(options)),
      new Set(plannedChecks(options)),
      options.operations === undefined || options.operations.length === 0
    )
    const groups =
      replay === undefined
        ? shareOf(shareOf(filtered(planned, options), options.shard), worker?.share)
        : filtered(planned, options)
    const limits = limitsOf(options, started, worker?.shared)
    const settings: SuiteSettings = {
      seed,
      selected,
      baseUrl: target.baseUrl,
      limits,
      secrets,
      replayPath: undefined,
      custom: selectedCustom(options)
    }
    const results =
      replay === undefined
        ? yield* runAll(r, target, groups, settings, worker?.shared)
        : yield* runReplay(r, replay, groups, settings)
    const stopped = stopReason(limits)
    return yield* collate(
      r,
      target,
      groups,
      results,
      stopped === undefined ? notes : [...notes, `stopped early: ${stopped}`],
      ctx.dimensions,
      model.othersWrite
    )
  })
