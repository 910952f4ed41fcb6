/**
 * Runs the contract checks against a deployment and returns a `Report`. Usable from a user's
 * own `@effect/vitest` suite:
 *
 * ```ts
 * import { ContractTests } from "@data-access/contract-tests"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { expect, it } from "@effect/vitest"
 * import { Config, Effect } from "effect"
 *
 * it.live("staging meets the contract", () =>
 *   Effect.gen(function* () {
 *     const baseUrl = yield* Config.string("DATA_ACCESS_BASE_URL")
 *     const apiKey = yield* Config.redacted("DATA_ACCESS_API_KEY")
 *     const report = yield* ContractTests.run({ baseUrl, apiKey, examples: 20, readOnly: true })
 *     expect(report.findings).toEqual([])
 *   }).pipe(Effect.provide(NodeHttpClient.layerUndici))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { ContractRules, type KnownIds, Operations, Secrets } from "@data-access/schema"
import * as Checks from "./Checks.js"
import * as Curl from "./Curl.js"
import { type Exchange, makeTarget, post, type Target } from "./internal/http.js"
import * as Inspect from "./internal/inspect.js"
import { isNote, type Note, type Outcome } from "./internal/outcome.js"
import { fromKnownIds, type Pools, poolOfOperation, poolOfIdentifier, requestPropertyNames } from "./internal/pools.js"
import type { Context, Op, Suite } from "./internal/context.js"
import { globalSuites, suitesOf } from "./internal/families/index.js"
import * as Baseline from "./Baseline.js"
import * as ReplayId from "./ReplayId.js"
import type * as Report from "./Report.js"

/**
 * Options of a run. Only `baseUrl` and `apiKey` are required.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** Ids of existing objects (decisions.md section 9); List operations add what they find. */
  readonly fixtures?: KnownIds.KnownIds | undefined
  /** Default: a random seed, printed in the report. */
  readonly seed?: number | undefined
  /** Generated examples per operation and property (default 100). */
  readonly examples?: number | undefined
  /** Method names to run (default: all). */
  readonly operations?: ReadonlyArray<string> | undefined
  readonly excludeOperations?: ReadonlyArray<string> | undefined
  /** Check ids to run (default: all). */
  readonly checks?: ReadonlyArray<string> | undefined
  readonly excludeChecks?: ReadonlyArray<string> | undefined
  /** Valid examples per Create operation, each of which makes an object (default: `examples`). */
  readonly createsPerOperation?: number | undefined
  /** Send no Create or Update request. */
  readonly readOnly?: boolean | undefined
  /** Requests per second; `undefined` is unlimited. */
  readonly rateLimit?: number | undefined
  /** Per-request timeout (default 10 seconds). */
  readonly timeout?: Duration.DurationInput | undefined
  /** Stop starting new examples after this long (default: none). */
  readonly timeBudget?: Duration.DurationInput | undefined
  /** Allowed clock difference between this machine and the server (default 5 seconds). */
  readonly clockSkew?: Duration.DurationInput | undefined
  /** Never send more requests than this (default 200000). */
  readonly maxRequests?: number | undefined
  /** Suites run at once (default 4). */
  readonly concurrency?: number | undefined
  /** Retry 429 and 503 answers after `Retry-After` (default true). */
  readonly retryThrottled?: boolean | undefined
  /** Requests spent shrinking one failure to a minimal example (default 60). */
  readonly shrinkBudget?: number | undefined
  /** Run only the case of this replay id. */
  readonly replay?: string | undefined
  /** Known findings: reported as known, not failing the run (see `Baseline`). */
  readonly baseline?: Baseline.Baseline | undefined
  /** Progress lines (suite done, findings so far); the CLI writes them to stderr. */
  readonly progress?: ((line: string) => void) | undefined
}

/**
 * The run could not be made: bad options, the target unreachable, or every call unauthenticated.
 *
 * @since 0.1.0
 * @category errors
 */
export class RunError extends Schema.TaggedError<RunError>("@data-access/contract-tests/RunError")("RunError", {
  reason: Schema.Literal("BadOptions", "Unreachable", "Unauthenticated"),
  message: Schema.String
}) {}

const SHRINK_BUDGET = 60

/**
 * An arbitrary whose shrink candidates stop coming once `spent()` says so. fast-check walks every
 * candidate of a value until one fails; a property that passes them all once the request budget
 * is spent would still have each candidate generated (for a request with many fields, hundreds of
 * them, each deriving its mutations): the walk ends with the budget instead.
 */
class ShrinkBudgeted<T> extends fc.Arbitrary<T> {
  constructor(
    readonly inner: fc.Arbitrary<T>,
    readonly spent: () => boolean
  ) {
    super()
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.inner.generate(mrng, biasFactor)
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value)
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.spent() ? fc.Stream.nil() : this.inner.shrink(value, context).takeWhile(() => !this.spent())
  }
}

/** Existing objects an update operation may change (each put back afterwards). */
const UPDATE_TARGETS = 5

/**
 * The update that puts an object back: its current values of the fields the update request can
 * set (secrets left out: they cannot be read back). An update with only the id reads it.
 */
const snapshot = (target: Target, op: Op, id: string) =>
  Effect.gen(function* () {
    const e = yield* target.send(post(op.path, { id }))
    const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => (r.status === 200 ? r.json : Option.none())))
    const raw = op.wrapperKey === undefined ? json : (json as Record<string, unknown> | undefined)?.[op.wrapperKey]
    const full = Option.getOrUndefined(
      Option.flatMap(Schema.decodeUnknownOption(op.object)(raw), (a) => Schema.encodeOption(op.object)(a))
    ) as Record<string, unknown> | undefined
    if (full === undefined) return undefined
    const body: Record<string, unknown> = { id }
    const valid = Schema.is(Schema.encodedSchema(op.request))
    const decodes = (b: unknown) => Option.isSome(Schema.decodeUnknownOption(op.request)(b))
    for (const k of requestPropertyNames(op)) {
      if (k === "id" || !(k in full) || Secrets.fieldNames.has(k)) continue
      const v = full[k]
      if (typeof v === "object" && v !== null) continue
      if (valid({ id, [k]: v }) && decodes({ id, [k]: v })) body[k] = v
    }
    return body
  })

/** FNV-1a over text, as a 31-bit seed. */
const hashSeed = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0) & 0x7fffffff
}

/**
 * The seed fast-check uses for one suite: derived from the run seed, the family and the method.
 *
 * @since 0.1.0
 * @category seeds
 */
export const suiteSeed = (seed: number, family: string, method: string): number => hashSeed(`${seed}:${family}:${method}`)

const newRunId = (): string => Math.random().toString(36).slice(2, 8).padEnd(6, "0")

interface Failure {
  readonly index: string
  readonly value: unknown
  readonly outcome: Outcome
  occurrences: number
}

interface SuiteResult {
  readonly suite: Suite
  readonly counts: Map<Checks.CheckId, { passed: number; failed: number; skipped: number; reasons: Set<string> }>
  readonly findings: Array<Report.Finding>
  readonly observations: Array<Report.Observation>
}

const selectList = (all: ReadonlyArray<string>, include: ReadonlyArray<string> | undefined, exclude: ReadonlyArray<string> | undefined) =>
  all.filter((x) => (include === undefined || include.length === 0 || include.includes(x)) && !(exclude ?? []).includes(x))

const allOps = Operations.all as ReadonlyArray<Op>

/** Discovery: every List operation adds the ids it returns to the pools. */
const discover = (target: Target, fixtures: KnownIds.KnownIds | undefined, readPages: number) =>
  Effect.gen(function* () {
    const base = fromKnownIds(fixtures ?? ({} as KnownIds.KnownIds))
    const ids: Record<string, Array<string>> = Object.fromEntries(Object.entries(base.ids).map(([k, v]) => [k, [...v]]))
    const byResource = new Map<string, Array<string>>()
    const add = (pool: string | undefined, id: unknown) => {
      if (pool === undefined || typeof id !== "string" || id === "") return
      const list = (ids[pool] ??= [])
      if (!list.includes(id)) list.push(id)
    }
    const notes: Array<string> = []
    const listAll = (op: Op, body: Record<string, unknown>) =>
      Effect.gen(function* () {
        const items: Array<Record<string, unknown>> = []
        let cursor: string | undefined
        for (let page = 0; page < readPages; page++) {
          const sent = yield* Effect.either(target.send(post(op.path, cursor === undefined ? { ...body, limit: 500 } : { ...body, limit: 500, cursor })))
          if (sent._tag === "Left") break
          const e = sent.right
          const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => (r.status === 200 ? r.json : Option.none()))) as Record<string, unknown> | undefined
          const page_ = json?.[op.itemField ?? ""]
          if (!Array.isArray(page_)) break
          items.push(...page_.filter((x) => x !== null && typeof x === "object"))
          const next = (json?.listMetadata as Record<string, unknown> | undefined)?.nextCursor
          if (typeof next !== "string" || next === "") break
          cursor = next
        }
        return items
      })
    // Lists without required references first, then ListNativeUsers-like lists per reference.
    for (const op of allOps.filter((o) => o.kind === "list")) {
      const pool = poolOfOperation(op)
      const props = requestPropertyNames(op)
      const refField = props.find((p) => p !== "limit" && /Id$/.test(p) && Schema.is(Schema.encodedSchema(op.request))({ limit: 1 }) === false)
      if (refField === undefined) {
        const items = yield* listAll(op, {})
        for (const it of items) {
          add(pool, it.id)
          add("spaces", it.spaceId)
        }
      } else {
        const refPool = poolOfIdentifier(refField.charAt(0).toUpperCase() + refField.slice(1, -2))
        for (const refId of (refPool ? ids[refPool] : undefined)?.slice(0, 25) ?? []) {
          const items = yield* listAll(op, { [refField]: refId })
          for (const it of items) {
            add(pool, it.id)
            if (refField === "resourceId" && typeof it.id === "string") {
              byResource.set(refId, [...(byResource.get(refId) ?? []), it.id])
            }
          }
        }
      }
    }
    const counts = Object.entries(ids)
      .filter(([, v]) => v.length > 0)
      .map(([k, v]) => `${k} ${v.length}`)
    notes.push(`known ids: ${counts.join(", ") || "none"}; users ${base.users.length}`)
    const pools: Pools = { ids, users: base.users, nativeUsersByResource: byResource }
    return { pools, notes }
  })

const toFinding = (
  suite: Suite,
  failure: Failure,
  path: string,
  shrinkSteps: number,
  seed: number,
  baseUrl: string,
  scrubKey: (s: string) => string
): Report.Finding => {
  const o = failure.outcome
  const e: Exchange | undefined = o.exchange
  const body = e?.request.body === undefined ? undefined : Option.getOrUndefined(Option.liftThrowable(JSON.parse)(e.request.body))
  const scrubSecrets = Secrets.scrubber(Secrets.values(body))
  const scrub = (s: string) => scrubSecrets(scrubKey(s))
  const response: Report.Finding["response"] =
    e === undefined
      ? undefined
      : Option.match(e.response, {
          onNone: () => ({ _tag: "NoResponse" as const, error: scrub(e.transportError ?? "no response") }),
          onSome: (r) => ({ _tag: "Response" as const, status: r.status, contentType: r.headers["content-type"], body: scrub(Inspect.excerpt(r, 800)) })
        })
  const rule = ContractRules.get(o.rule!)
  return {
    check: o.check,
    rule: rule.id,
    source: `${rule.source.doc} § ${rule.source.section}: “${rule.source.quote}”`,
    severity: Checks.byId.get(o.check)!.severity,
    operation: suite.method,
    cause: scrub(o.cause),
    message: scrub(o.message),
    detail: o.detail === undefined ? undefined : scrub(o.detail),
    seed,
    replayId: ReplayId.encode({ family: suite.family, method: suite.method, check: o.check, seed, path }),
    curl: e === undefined ? "" : scrub(Curl.render(baseUrl, e.request)),
    request: e === undefined ? { method: "", path: "", body: undefined } : { method: e.request.method, path: e.request.path, body: Curl.displayBody(e.request.body) },
    response,
    occurrences: failure.occurrences,
    shrinkSteps
  }
}

interface Limits {
  readonly deadline: number | undefined
  readonly shrinkBudget: number
  stoppedBy: string | undefined
}

const runSuite = (
  suite: Suite,
  seed: number,
  selected: ReadonlySet<Checks.CheckId>,
  baseUrl: string,
  limits: Limits,
  scrub: (s: string) => string,
  replayPath: string | undefined
) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const runEither = (a: unknown) => Runtime.runPromise(runtime)(Effect.either(suite.run(a)))
    const counts: SuiteResult["counts"] = new Map()
    const cell = (check: Checks.CheckId) => {
      let c = counts.get(check)
      if (c === undefined) counts.set(check, (c = { passed: 0, failed: 0, skipped: 0, reasons: new Set() }))
      return c
    }
    const checksOf = suite.checks.filter((c) => selected.has(c))
    const result: SuiteResult = { suite, counts, findings: [], observations: [] }
    const noted = new Set<string>()
    const observe = (n: Note) => {
      const key = `${n.note}\u0000${n.message}`
      if (noted.has(key)) return
      noted.add(key)
      const e = n.exchange
      result.observations.push({
        note: n.note,
        operation: suite.method,
        message: scrub(n.message),
        curl: e === undefined ? "" : scrub(Curl.render(baseUrl, e.request))
      })
    }
    if (suite.skip !== undefined) {
      for (const c of checksOf) {
        const x = cell(c)
        x.skipped++
        x.reasons.add(suite.skip)
      }
      return result
    }
    const sSeed = suiteSeed(seed, suite.family, suite.method)
    const failures = new Map<string, Failure>()
    const stopped = () => {
      if (limits.stoppedBy !== undefined) return true
      if (limits.deadline !== undefined && Date.now() > limits.deadline) limits.stoppedBy = "the time budget is spent"
      return limits.stoppedBy !== undefined
    }
    let skippedExamples = 0
    const evaluate = async (a: unknown, index: string) => {
      if (stopped()) {
        skippedExamples++
        return
      }
      const r = await runEither(a)
      if (Either.isLeft(r)) {
        limits.stoppedBy = r.left.message
        skippedExamples++
        return
      }
      const byCheck = new Map<Checks.CheckId, boolean>()
      const counted = new Set<string>()
      for (const v of r.right) {
        if (isNote(v)) {
          observe(v)
          continue
        }
        const o: Outcome = v
        if (!selected.has(o.check)) continue
        byCheck.set(o.check, (byCheck.get(o.check) ?? true) && o.ok)
        if (!o.ok) {
          const key = `${o.rule}\u0000${o.cause}`
          if (counted.has(key)) continue
          counted.add(key)
          const f = failures.get(key)
          if (f === undefined) failures.set(key, { index, value: a, outcome: o, occurrences: 1 })
          else f.occurrences++
        }
      }
      for (const [c, ok] of byCheck) {
        if (ok) cell(c).passed++
        else cell(c).failed++
      }
    }
    const cases = suite.cases
    if (cases._tag === "Enumerated") {
      const indices = replayPath === undefined ? Array.from({ length: cases.count }, (_, i) => i) : [Number(replayPath.split(":")[0])]
      for (const i of indices) {
        if (i < cases.count) yield* Effect.promise(() => evaluate(cases.at(i), String(i)))
      }
    } else if (replayPath !== undefined) {
      yield* Effect.promise(async () => {
        await fc.check(
          fc.asyncProperty(cases.arbitrary, async (a) => {
            await evaluate(a, replayPath)
            return true
          }),
          { seed: sSeed, path: replayPath, numRuns: 1, endOnFailure: true }
        )
      })
    } else {
      let i = 0
      yield* Effect.promise(async () => {
        await fc.check(
          fc.asyncProperty(cases.arbitrary, async (a) => {
            await evaluate(a, String(i++))
            return true
          }),
          { seed: sSeed, numRuns: cases.examples }
        )
      })
    }
    if (skippedExamples > 0 && limits.stoppedBy !== undefined) {
      for (const c of checksOf) {
        const x = cell(c)
        x.skipped += skippedExamples
        x.reasons.add(limits.stoppedBy)
      }
    }
    // Shrink each distinct failure to a minimal example with the same check and cause.
    for (const failure of failures.values()) {
      let best = failure
      let path = failure.index
      let steps = 0
      if (cases._tag === "Property" && replayPath === undefined && !stopped()) {
        let evals = 0
        const { rule, cause } = failure.outcome
        const spent = () => evals >= limits.shrinkBudget || stopped()
        const details = yield* Effect.promise(() =>
          fc.check(
            fc.asyncProperty(new ShrinkBudgeted(cases.arbitrary, spent), async (a) => {
              if (spent()) return true
              evals++
              const r = await runEither(a)
              if (Either.isLeft(r)) return true
              const same = r.right.find((o) => !isNote(o) && !o.ok && o.rule === rule && o.cause === cause)
              if (same === undefined || isNote(same)) return true
              best = { ...failure, value: a, outcome: same }
              return false
            }),
            { seed: sSeed, path: failure.index, numRuns: 1 }
          )
        )
        if (details.failed && details.counterexamplePath !== null) {
          path = details.counterexamplePath
          steps = path.split(":").length - 1
        }
      }
      result.findings.push(toFinding(suite, { ...best, occurrences: failure.occurrences }, path, steps, seed, baseUrl, scrub))
    }
    return result
  })

const validateOptions = (options: Options) => {
  const methods = allOps.map((o) => o.method)
  const bad = [...(options.operations ?? []), ...(options.excludeOperations ?? [])].filter((m) => !methods.includes(m))
  if (bad.length > 0) return Either.left(new RunError({ reason: "BadOptions", message: `unknown operations: ${bad.join(", ")} (known: ${methods.join(", ")})` }))
  const badChecks = [...(options.checks ?? []), ...(options.excludeChecks ?? [])].filter((c) => !Checks.isCheckId(c))
  if (badChecks.length > 0) return Either.left(new RunError({ reason: "BadOptions", message: `unknown checks: ${badChecks.join(", ")} (known: ${Checks.ids.join(", ")})` }))
  if (options.examples !== undefined && (!Number.isInteger(options.examples) || options.examples < 1)) {
    return Either.left(new RunError({ reason: "BadOptions", message: "examples must be a positive integer" }))
  }
  if (options.maxRequests !== undefined && (!Number.isInteger(options.maxRequests) || options.maxRequests < 1)) {
    return Either.left(new RunError({ reason: "BadOptions", message: "max-requests must be a positive integer" }))
  }
  if (options.rateLimit !== undefined && !(options.rateLimit > 0)) {
    return Either.left(new RunError({ reason: "BadOptions", message: "the rate limit must be a positive number of requests per second" }))
  }
  if (options.replay !== undefined) {
    const r = ReplayId.decode(options.replay)
    if (Either.isLeft(r)) return Either.left(new RunError({ reason: "BadOptions", message: r.left.message }))
    return Either.right(r.right)
  }
  return Either.right(undefined)
}

/** The first List operation that needs nothing but `limit`: the probe of reachability and auth. */
const probeOperation = allOps.find((o) => o.kind === "list" && Schema.is(Schema.encodedSchema(o.request))({ limit: 1 }))!

/** Whether an answer is Connect JSON: a JSON object body with a JSON content type. */
const speaksConnect = (e: Exchange): boolean =>
  Option.match(e.response, {
    onNone: () => true,
    onSome: (r) => Inspect.contentTypeIsJson(r) && Option.isSome(r.json) && typeof r.json.value === "object" && r.json.value !== null && !Array.isArray(r.json.value)
  })

/** The first rule of each check: what a target that does not speak Connect JSON breaks under it. */
const firstRuleOf = (check: Checks.CheckId): ContractRules.RuleId | undefined => ContractRules.rules.find((r) => r.check === check)?.id

const notConnectReport = (
  run: { readonly runId: string; readonly seed: number; readonly started: number; readonly target: string; readonly requests: number; readonly examples: number; readonly readOnly: boolean; readonly replay: string | undefined },
  checks: ReadonlyArray<Checks.CheckId>,
  probe: Exchange,
  scrub: (s: string) => string
): Report.Report => {
  const r = Option.getOrUndefined(probe.response)!
  const what = `HTTP ${r.status} with Content-Type ${JSON.stringify(r.headers["content-type"] ?? "")}`
  const body = scrub(Inspect.excerpt(r, 300))
  const findings = checks.flatMap((check): Array<Report.Finding> => {
    const ruleId = firstRuleOf(check)
    if (ruleId === undefined) return []
    const rule = ContractRules.get(ruleId)
    return [
      {
        check,
        rule: ruleId,
        source: `${rule.source.doc} § ${rule.source.section}: “${rule.source.quote}”`,
        severity: Checks.byId.get(check)!.severity,
        operation: "_",
        cause: "the target does not speak Connect JSON",
        message: `the target answers ${what}, not Connect JSON, to ${probe.request.path} and to an unknown route; no ${check} case can be judged`,
        detail: undefined,
        seed: run.seed,
        replayId: "",
        curl: scrub(Curl.render(run.target, probe.request)),
        request: { method: probe.request.method, path: probe.request.path, body: Curl.displayBody(probe.request.body) },
        response: { _tag: "Response", status: r.status, contentType: r.headers["content-type"], body },
        occurrences: 1,
        shrinkSteps: 0
      }
    ]
  })
  return {
    runId: run.runId,
    seed: run.seed,
    target: run.target,
    startedAt: new Date(run.started).toISOString(),
    durationMs: Date.now() - run.started,
    requests: run.requests,
    examples: run.examples,
    readOnly: run.readOnly,
    replay: run.replay,
    cells: findings.map((f) => ({ operation: "_", check: f.check, passed: 0, failed: 1, skipped: 0, skipReasons: [] })),
    findings,
    known: [],
    fixed: [],
    observations: [],
    notes: [`the target does not speak Connect JSON (${what}); the run stopped after ${run.requests} requests`]
  }
}

const runScoped = Effect.fn("ContractTests.run")(function* (options: Options) {
  const started = Date.now()
  const replay = yield* validateOptions(options)
  const seed = replay?.seed ?? options.seed ?? Math.floor(Math.random() * 0x7fffffff)
  const examples = options.examples ?? 100
  const runId = newRunId()
  const scrub = Secrets.scrubber([Redacted.value(options.apiKey)])
  const progress = (line: string) => options.progress?.(scrub(line))
  const target = yield* makeTarget({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    rateLimit: options.rateLimit,
    timeout: Duration.decode(options.timeout ?? "10 seconds"),
    maxRequests: options.maxRequests ?? 200_000,
    retryThrottled: options.retryThrottled ?? true
  })
  // Can the run be made at all?
  const probe = yield* target.send(post(probeOperation.path, { limit: 1 })).pipe(Effect.orDie)
  if (Option.isNone(probe.response)) {
    return yield* new RunError({ reason: "Unreachable", message: scrub(`the target ${target.baseUrl} cannot be reached: ${probe.transportError ?? "no response"}`) })
  }
  if (probe.response.value.status === 401) {
    return yield* new RunError({ reason: "Unauthenticated", message: `every call is unauthenticated: the API key is not accepted by ${target.baseUrl}` })
  }
  progress(`contract-tests: run ${runId}, seed ${seed}, ${examples} examples per operation against ${target.baseUrl}`)
  // A target that does not answer Connect JSON at all (an HTML page, a proxy's error page) gets
  // one finding per check that says so, not one per request.
  if (!speaksConnect(probe)) {
    const route = yield* target.send(post(`/${Operations.PACKAGE}.NoSuchService/NoSuchMethod`, {})).pipe(Effect.orDie)
    if (!speaksConnect(route)) {
      const selectedChecks = selectList(Checks.ids, options.checks, options.excludeChecks) as Array<Checks.CheckId>
      return notConnectReport({ runId, seed, started, target: target.baseUrl, requests: yield* target.sent, examples, readOnly: options.readOnly ?? false, replay: options.replay }, selectedChecks, probe, scrub)
    }
  }
  const { pools, notes } = yield* discover(target, options.fixtures, 20).pipe(Effect.orDie)
  progress(notes[0]!)
  const methods = new Set(selectList(allOps.map((o) => o.method), options.operations, options.excludeOperations))
  const selected = new Set(selectList(Checks.ids, options.checks, options.excludeChecks) as Array<Checks.CheckId>)
  const ctx: Context = {
    target,
    pools,
    runId,
    skewMillis: Duration.toMillis(Duration.decode(options.clockSkew ?? "5 seconds")),
    readOnly: options.readOnly ?? false,
    examples,
    createExamples: options.createsPerOperation ?? examples,
    seed
  }
  const groups: Array<{ readonly method: string; readonly writes: boolean; readonly suites: ReadonlyArray<Suite>; readonly restore?: ReadonlyArray<string> }> = []
  for (const op of allOps) {
    if (!methods.has(op.method)) continue
    // Updates touch at most UPDATE_TARGETS existing objects, put back once the operation is done.
    const pool = op.kind === "update" ? poolOfOperation(op) : undefined
    const targets = pool === undefined ? undefined : (pools.ids[pool] ?? []).slice(0, UPDATE_TARGETS)
    const opCtx = pool === undefined || targets === undefined ? ctx : { ...ctx, pools: { ...pools, ids: { ...pools.ids, [pool]: targets } } }
    const suites = suitesOf(op, opCtx).filter((s) => s.checks.some((c) => selected.has(c)))
    if (suites.length > 0) {
      groups.push({ method: op.method, writes: op.kind === "create" || op.kind === "update", suites, ...(targets && !ctx.readOnly ? { restore: targets } : {}) })
    }
  }
  const global = globalSuites(ctx).filter((s) => s.checks.some((c) => selected.has(c)))
  if (global.length > 0 && (options.operations === undefined || options.operations.length === 0)) groups.push({ method: "_", writes: false, suites: global })

  const limits: Limits = { shrinkBudget: options.shrinkBudget ?? SHRINK_BUDGET, deadline: options.timeBudget === undefined ? undefined : started + Duration.toMillis(Duration.decode(options.timeBudget)), stoppedBy: undefined }
  const results: Array<SuiteResult> = []
  const total = groups.reduce((n, g) => n + g.suites.length, 0)
  let done = 0
  let findings = 0
  const runGroup = (g: (typeof groups)[number]) =>
    g.restore === undefined || g.restore.length === 0
      ? runSuites(g)
      : Effect.gen(function* () {
          const op = allOps.find((o) => o.method === g.method)!
          const saved = yield* Effect.forEach(g.restore!, (id) => Effect.orElseSucceed(snapshot(target, op, id), () => undefined))
          yield* runSuites(g).pipe(Effect.ensuring(Effect.forEach(saved, (body) => (body === undefined ? Effect.void : Effect.ignore(target.send(post(op.path, body)))), { discard: true })))
        })
  const runSuites = (g: (typeof groups)[number]) =>
    Effect.forEach(
      g.suites,
      (suite) =>
        Effect.gen(function* () {
          const t0 = Date.now()
          const r = yield* runSuite(suite, seed, selected, target.baseUrl, limits, scrub, undefined)
          results.push(r)
          done++
          findings += r.findings.length
          const failed = [...r.counts.values()].reduce((n, c) => n + c.failed, 0)
          const passedN = [...r.counts.values()].reduce((n, c) => n + c.passed, 0)
          progress(
            `[${done}/${total}] ${suite.method === "_" ? "(api)" : suite.method} ${suite.family}: ${suite.skip !== undefined ? `skipped (${suite.skip})` : `${passedN} passed, ${failed} failed`} · ${Date.now() - t0} ms · ${findings} findings so far`
          )
        }),
      { discard: true }
    )
  const concurrency = options.concurrency ?? 4

  if (replay !== undefined) {
    const group = groups.find((g) => g.method === replay.method)
    const suite = group?.suites.find((s) => s.family === replay.family)
    if (suite === undefined) {
      return yield* new RunError({ reason: "BadOptions", message: `replay id ${options.replay} names no suite of this run (${replay.family} of ${replay.method})` })
    }
    const r = yield* runSuite(suite, seed, new Set([replay.check]), target.baseUrl, limits, scrub, replay.path)
    results.push(r)
  } else {
    // Writes first (they change what lists return), then the reads, so that paging and search
    // see a stable snapshot. Suites of one operation run in order; operations run side by side.
    yield* Effect.forEach(groups.filter((g) => g.writes), runGroup, { concurrency, discard: true })
    yield* Effect.forEach(groups.filter((g) => !g.writes), runGroup, { concurrency, discard: true })
  }

  const cells: Array<Report.Cell> = []
  for (const g of groups) {
    for (const id of Checks.ids) {
      const rs = results.filter((r) => r.suite.method === g.method && r.counts.has(id))
      if (rs.length === 0) continue
      const cs = rs.map((r) => r.counts.get(id)!)
      cells.push({
        operation: g.method,
        check: id,
        passed: cs.reduce((n, c) => n + c.passed, 0),
        failed: cs.reduce((n, c) => n + c.failed, 0),
        skipped: cs.reduce((n, c) => n + c.skipped, 0),
        skipReasons: [...new Set(cs.flatMap((c) => [...c.reasons]))]
      })
    }
  }
  const order = (f: Report.Finding) => Checks.ids.indexOf(f.check) * 1000 + allOps.findIndex((o) => o.method === f.operation)
  // One finding per check, operation and cause across the suites of an operation: the most
  // shrunk one is kept, the occurrences are summed.
  const unique = new Map<string, Report.Finding>()
  for (const f of results.flatMap((r) => r.findings)) {
    const key = Baseline.key(f)
    const seen = unique.get(key)
    if (seen === undefined) unique.set(key, f)
    else {
      const keep = f.shrinkSteps > seen.shrinkSteps ? f : seen
      unique.set(key, { ...keep, occurrences: seen.occurrences + f.occurrences })
    }
  }
  const allFindings = [...unique.values()].sort((a, b) => order(a) - order(b))
  if (limits.stoppedBy !== undefined) notes.push(`stopped early: ${limits.stoppedBy}`)
  const ran = (operation: string, rule: ContractRules.RuleId) => {
    const check = ContractRules.get(rule).check
    return cells.some((c) => c.operation === operation && c.check === check && c.passed + c.failed > 0)
  }
  const split = options.baseline === undefined ? { findings: allFindings, known: [], fixed: [] } : Baseline.apply(options.baseline, allFindings, ran)
  const observed = new Map<string, Report.Observation>()
  for (const o of results.flatMap((r) => r.observations)) observed.set(`${o.note}\u0000${o.operation}\u0000${o.message}`, o)
  const report: Report.Report = {
    runId,
    seed,
    target: target.baseUrl,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    requests: yield* target.sent,
    examples,
    readOnly: ctx.readOnly,
    replay: options.replay,
    cells,
    findings: split.findings,
    known: split.known,
    fixed: split.fixed.map((e) => ({ rule: e.rule, operation: e.operation, cause: e.cause })),
    observations: [...observed.values()],
    notes: notes.map(scrub)
  }
  return report
})

/**
 * Runs the contract checks against `options.baseUrl` and returns the report. Fails with a
 * `RunError` when the run cannot be made (bad options, target unreachable, key not accepted).
 * It uses the wall clock even inside `it.effect` (whose `TestClock` would stall the waits).
 *
 * @example
 * ```ts
 * import { ContractTests, Report } from "@data-access/contract-tests"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Redacted } from "effect"
 *
 * const program = ContractTests.run({
 *   baseUrl: "https://staging.example.com",
 *   apiKey: Redacted.make("key"),
 *   examples: 20,
 *   readOnly: true // no Create or Update request
 * }).pipe(
 *   Effect.tap((report) => Effect.log(Report.toTerminal(report))),
 *   Effect.map(Report.exitCode),
 *   Effect.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 *
 * @since 0.1.0
 * @category running
 */
export const run = (options: Options): Effect.Effect<Report.Report, RunError, HttpClient.HttpClient> =>
  // Waits (Retry-After, rate limit, timeouts) follow the wall clock, also under a TestClock.
  Effect.scoped(runScoped(options)).pipe(Effect.withClock(Clock.make()))
