/**
 * The Connect protocol around the handlers: routing, method and content type, auth, required
 * headers, deadlines, body limits, decoding, faults, encoding, request ids and the request log.
 * Transport-neutral: the Node server and the in-process client both feed it an `Input`.
 *
 * One faithful pipeline (`faithful.ts`) with hook points (the stages of `pipeline-types.ts`). The
 * latitude switches that are on (`latitude.ts`) are put on it once, when the server starts; the
 * violations a fault plan turns on (`violations/`) once per set of them, the first time a request
 * gets that set (`faultAnswers.ts`). A request runs the stages as composed: the pipeline itself
 * knows no switch or violation.
 *
 * @internal
 */
import { type ContractRules, Deadline, JsonBody, Operations, ProtoJson } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Json } from "./collections.js"
import type { Decision, Injector } from "./faults.js"
import type { StoreService } from "./store.js"
import { stamp } from "./clock.js"
import { composeRoute, composeStages, type Pipeline } from "./compose.js"
import * as ConnectError from "./connectError.js"
import {
  drop,
  dropsAfter,
  firstAnswer,
  terminalAnswer,
  violatedPipelines,
  withLatency
} from "./faultAnswers.js"
import { AS_IS, EMPTY_OBJECT, faithfulRoutes, faithfulStages, NO_RULES } from "./faithful.js"
import * as Latitude from "./latitude.js"
import { describeIssue } from "./messages.js"
import {
  type Answer,
  type Body,
  type Check,
  type Exchange,
  Fail,
  type Handle,
  type Hooks,
  type Input,
  type Issue,
  parseIssueOf,
  type Op,
  type Output,
  type RecordedRequest,
  type Refusal,
  type Route,
  type ServerStages
} from "./pipeline-types.js"
import { fastUlid } from "./random.js"
import { record } from "./requestLog.js"
import { makeWriter, withoutSecrets } from "./writer.js"

export type { Input, Output, RecordedRequest } from "./pipeline-types.js"
export { hashKeys } from "./faithful.js"

/** The server's mutable state around the pipeline. */
export interface AppState {
  readonly store: StoreService
  readonly apiKeyHashes: ReadonlyArray<Buffer>
  readonly emitDefaults: boolean
  /** The body limit configured (a stage may lower it). */
  readonly maxBodyBytes: number
  injector: Injector
  readonly onRequest: (entry: RecordedRequest) => Effect.Effect<void>
  /** The latitude switches that are on. */
  readonly latitude: ReadonlySet<ContractRules.LatitudeName>
}

/** Builds the request pipeline over a state. */
export const makeApp = (state: AppState): Handle => {
  const writers = new Map<boolean, Pipeline["write"]>()
  const writerOf = (keepSecrets: boolean) => {
    let w = writers.get(keepSecrets)
    if (w === undefined) writers.set(keepSecrets, (w = makeWriter(state.emitDefaults, keepSecrets)))
    return w
  }
  const compose = (
    base: { readonly routes: ReadonlyMap<string, Route>; readonly stages: ServerStages },
    hooks: ReadonlyArray<Hooks>
  ): Pipeline => {
    const stages = composeStages(base.stages, hooks)
    return {
      routes: new Map([...base.routes].map(([path, route]) => [path, composeRoute(route, hooks)])),
      stages,
      maxBodyBytes: stages.bodyLimit(state.maxBodyBytes),
      write: writerOf(stages.returnSecrets)
    }
  }
  const switches = Latitude.records.filter((r) => state.latitude.has(r.name)).map((r) => r.hooks)
  const faithful = compose(
    { routes: faithfulRoutes, stages: faithfulStages(state.apiKeyHashes) },
    switches
  )

  const pipelineOf = violatedPipelines(faithful, compose)

  const refuse = (p: Pipeline, refusal: Refusal, base: Record<string, string>): Output =>
    p.stages.writeError(
      refusal.error,
      refusal.headers === undefined ? base : { ...base, ...refusal.headers },
      refusal.status
    )

  const runChecks = (checks: ReadonlyArray<Check>, input: Input, op: Op): Refusal | undefined => {
    for (const check of checks) {
      const refusal = check.run(input, op)
      if (refusal !== undefined) return refusal
    }
    return undefined
  }

  /** Reads a body into a decoded request, or says why not. */
  const prepare = (
    route: Route,
    method: string,
    ex: Exchange
  ): Fail | Readonly<Record<string, unknown>> => {
    const parsed = route.parse(method !== "POST" && ex.bytes.length === 0 ? EMPTY_OBJECT : ex.bytes)
    if (typeof parsed === "string") return new Fail(ConnectError.make("invalid_argument", parsed))
    if (parsed instanceof ConnectError.ConnectError) return new Fail(parsed)
    ex.sent = parsed
    const relaxed = route.relax(parsed, ex)
    if (relaxed instanceof ConnectError.ConnectError) return new Fail(relaxed)
    const decoded = route.decode(relaxed)
    if (Either.isLeft(decoded))
      return new Fail(ConnectError.make("invalid_argument", describeIssue(decoded.left)))
    let request = decoded.right
    if (route.validate !== NO_RULES) {
      const issues: Array<Issue> = []
      request = route.validate(request, issues)
      const issue = route.pickIssue(issues)
      if (issue !== undefined)
        return new Fail(ConnectError.make("invalid_argument", describeIssue(parseIssueOf(issue))))
    }
    return route.prepare(request, ex)
  }

  /** The success answer. */
  const finish = (
    p: Pipeline,
    route: Route,
    request: Readonly<Record<string, unknown>>,
    body: Json,
    base: Record<string, string>,
    ex: Exchange
  ): Output => {
    if (route.respond === AS_IS) return p.stages.writeSuccess(base, p.write(route.op, body))
    const visible = p.stages.returnSecrets
      ? body
      : (Object.fromEntries(Object.entries(body).map(([k, x]) => [k, withoutSecrets(x)])) as Json)
    const shaped = state.emitDefaults ? visible : (ProtoJson.omitZeroValues(visible) as Json)
    return p.stages.writeSuccess(base, JSON.stringify(route.respond(request, shaped, ex)))
  }

  /** Latency, faults, body, decoding and the operation: what a deadline applies to. */
  const work = (
    p: Pipeline,
    input: Input,
    route: Route,
    base: Record<string, string>,
    decision: Decision
  ): Effect.Effect<Answer> => {
    const maxBodyBytes = p.maxBodyBytes
    const run = Effect.suspend((): Effect.Effect<Answer> => {
      const early = p.stages.admit() ?? terminalAnswer(p, decision.terminal, base)
      if (early !== undefined) return Effect.succeed(early)
      const contentLength = Number(input.headers["content-length"] ?? "0")
      const body =
        contentLength > maxBodyBytes
          ? Effect.succeed("too-large" as const)
          : Effect.orElseSucceed(input.body(maxBodyBytes), () => new Uint8Array(0))
      return Effect.flatMap(body, (bytes): Effect.Effect<Answer> => {
        if (bytes === "too-large")
          return Effect.succeed(
            new Fail(
              ConnectError.make(
                "resource_exhausted",
                JsonBody.describe({ _tag: "TooLarge", maxBytes: maxBodyBytes })
              )
            )
          )
        const ex: Exchange = { store: state.store, stamp, bytes, sent: NOTHING_SENT }
        const request = prepare(route, input.method, ex)
        if (request instanceof Fail) return Effect.succeed(new Fail(route.error(request.error, ex)))
        const refusal = runChecks(p.stages.checks.afterBody, input, route.op)
        if (refusal !== undefined) {
          // Only the body-before-auth switch refuses after the body, with unauthenticated, which
          // both ways write alike.
          return Effect.succeed(
            refusal.status === undefined && refusal.headers === undefined
              ? new Fail(route.error(refusal.error, ex))
              : refuse(p, refusal, base)
          )
        }
        return Effect.match(route.handler(request, ex), {
          onFailure: (error) => new Fail(route.error(error, ex)),
          onSuccess: (result) =>
            dropsAfter(decision) ? drop : finish(p, route, request, result, base, ex)
        })
      })
    })
    return withLatency(decision, run)
  }

  const handle: Handle = (input) =>
    Effect.suspend(() => {
      const started = performance.now()
      const requestId = `req_${fastUlid(Date.now())}`
      const base: Record<string, string> = { "x-request-id": requestId }
      const q = input.url.indexOf("?")
      const path = q === -1 ? input.url : input.url.slice(0, q)
      const op = Operations.byPath.get(path)
      const decision = state.injector.decide(op?.method)
      const p = pipelineOf(decision.violations)
      const route = p.routes.get(p.stages.resolve(path))
      let answer: Effect.Effect<Output>
      const first = firstAnswer(p, decision, base)
      if (first !== undefined) {
        answer = Effect.succeed(first)
      } else if (route === undefined) {
        answer = Effect.succeed(p.stages.writeError(p.stages.unknownRoute(path), base, 404))
      } else {
        const refusal = runChecks(p.stages.checks.beforeBody, input, route.op)
        if (refusal !== undefined) {
          answer = Effect.succeed(refuse(p, refusal, base))
        } else {
          const timeout = Deadline.parseTimeout(input.headers[Deadline.TIMEOUT_HEADER])
          const worked = work(p, input, route, base, decision)
          const timed =
            timeout._tag === "Millis" ? p.stages.deadline(worked, timeout.millis, started) : worked
          answer = Effect.map(timed, (out) =>
            out instanceof Fail ? p.stages.writeError(out.error, base) : out
          )
        }
      }
      return answer.pipe(
        Effect.catchAllDefect(() =>
          Effect.succeed(p.stages.writeError(ConnectError.make("internal", "internal error"), base))
        ),
        Effect.tap((output) => state.onRequest(record(input, op, path, requestId, started, output)))
      )
    })

  let around = handle
  for (const r of Latitude.records) {
    const hook = r.hooks.around
    if (hook !== undefined && state.latitude.has(r.name)) around = hook(around)
  }
  return around
}

/** What `Exchange.sent` holds until the body is parsed. */
const NOTHING_SENT: Body = Object.freeze({}) as Body
