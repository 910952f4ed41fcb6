/**
 * Effect 4's harness of `@data-access/client-behaviour`: a case's call through this line's client,
 * how it ended and the run of a case over the fake (behaviour.test.ts), and the interpreter of the
 * shared scenarios (each step an effect of this line, the scenario driven inside `Effect.gen`).
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as Operations from "@data-access/schema-effect4/Operations"
import { expect } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as TestClock from "effect/testing/TestClock"
import { ClientError, DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { clientLayer, makeFake, runWithClock } from "./fake.js"

/** A described policy as this line's `Schedule`. */
export const policyOf = (retry: Behaviour.Retry): RetryPolicy.RetryPolicy => {
  if (retry === "none") return RetryPolicy.none
  if (retry._tag === "exponential") {
    return RetryPolicy.exponential({
      base: Duration.millis(retry.baseMillis),
      jitter: retry.jitter,
      retries: retry.retries
    })
  }
  return Schedule.spaced(Duration.millis(retry.millis)).pipe(
    Schedule.upTo({ times: retry.times })
  ) as RetryPolicy.RetryPolicy
}

const durationOf = (n: number): Duration.Input =>
  n === Infinity ? Duration.infinity : Duration.millis(n)

/** A service client's methods, by name. */
type ServiceMethods = Readonly<
  Record<
    string,
    (
      request: unknown,
      options: unknown
    ) => Effect.Effect<unknown, unknown> | Stream.Stream<unknown, unknown>
  >
>

/**
 * A case's call through the combined client (`call`, `stream`) or through its operation's service
 * client (`getResource`, `listNativeUsersStream`): its value (a stream's items in an array), or
 * how it failed.
 */
export const callOf = (c: Omit<Behaviour.ScenarioCall, "baseUrl">) =>
  c.catchCodes === undefined
    ? plainCallOf(c)
    : plainCallOf(c).pipe(
        ClientError.catchCodes(
          Behaviour.codeHandlers(c.catchCodes, Effect.succeed) as ClientError.CodeHandlers
        )
      )

const plainCallOf = (c: Omit<Behaviour.ScenarioCall, "baseUrl">) =>
  Effect.gen(function* () {
    const options = Behaviour.optionsOf(c, durationOf, policyOf)
    if (c.viaService === true) {
      const tag = Services.tags[
        Operations.operations[c.method as Operations.MethodName].service
      ] as typeof Services.ResourceService
      const methods = (yield* Effect.service(tag)) as unknown as ServiceMethods
      const made = methods[Behaviour.methodName(c.method, c.stream)]!(c.request, options)
      return c.stream
        ? yield* Stream.runCollect(made as Stream.Stream<unknown, unknown>)
        : yield* made as Effect.Effect<unknown, unknown>
    }
    const client = yield* DataAccessClient.DataAccessClient
    if (!c.stream) return yield* client.call(c.method as "GetResource", c.request as never, options)
    return yield* Stream.runCollect(
      client.stream(c.method as "ListLogQueries", c.request as never, options)
    )
  })

/** How a call ended, as the shared checks read it. */
export const resultOf = (exit: Exit.Exit<unknown, unknown>): Behaviour.Observed["result"] => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const found = Cause.findErrorOption(exit.cause)
  const error = found._tag === "Some" ? found.value : Cause.pretty(exit.cause)
  const known = ClientError.isClientError(error) ? error : undefined
  return {
    _tag: "Failure",
    error,
    isRetryable: known?.isRetryable,
    statusFallback:
      known !== undefined && known._tag === "ConnectError"
        ? ClientError.isStatusFallback(known)
        : undefined
  }
}

/**
 * Runs a case over a fake answering its replies, each of its runs to its end (the `TestClock`
 * moved in small steps, or the real clock for a `live` case) unless the caller gives up first,
 * and compares what happened with the case.
 */
export const runCase = (c: Behaviour.Case) =>
  Effect.gen(function* () {
    const fake = makeFake(c.replies)
    const options: Partial<DataAccessClient.Options> = {}
    if (c.call.baseUrl !== undefined) Object.assign(options, { baseUrl: c.call.baseUrl })
    if (c.call.layerRetry !== undefined)
      Object.assign(options, { retryPolicy: policyOf(c.call.layerRetry) })
    const program = Effect.provide(callOf(c.call), clientLayer(fake, options))
    const runs = c.runs ?? { times: 1, gapMillis: 0 }
    let result: Behaviour.Observed["result"] | undefined
    let endedAt = 0
    for (let n = 1; n <= runs.times; n++) {
      if (n > 1) yield* TestClock.adjust(Duration.millis(runs.gapMillis))
      const startedAt = yield* Clock.currentTimeMillis
      const fiber = yield* Effect.forkChild(Effect.exit(program))
      if (c.call.interruptAfter === undefined) {
        result = resultOf(c.live ? yield* Fiber.join(fiber) : yield* runWithClock(fiber))
      } else {
        yield* TestClock.adjust(Duration.millis(c.call.interruptAfter))
        yield* Fiber.interrupt(fiber)
        // `Effect.exit` never fails: a fiber that did not succeed was interrupted before the call ended.
        const exit = yield* Fiber.await(fiber)
        result = Exit.isSuccess(exit) ? resultOf(exit.value) : { _tag: "Interrupted" }
      }
      endedAt = (yield* Clock.currentTimeMillis) - startedAt
    }
    Behaviour.verify(
      c,
      { result: result!, seen: fake.seen, interrupted: fake.interrupted.count, endedAt },
      expect,
      DataAccessClient.USER_AGENT
    )
  })

/** Where a scenario's calls go, and what it may read of its servers. */
export interface Target {
  /** The client layer of one call (on its server, or over a fake) with the call's `transformClient`. */
  readonly layerFor: (
    c: Behaviour.ScenarioCall,
    transformClient: (client: HttpClient.HttpClient) => HttpClient.HttpClient
  ) => Layer.Layer<DataAccessClient.DataAccessClient | Services.Any, unknown>
  readonly servers?: Readonly<Record<string, Behaviour.ServerInfo>>
  /** The request log of the server of that name. */
  readonly requestsOf?: (name: string) => Effect.Effect<ReadonlyArray<Behaviour.RequestLine>>
}

/** A `transformClient` that sets the call's headers and body fields and records each request in `into`. */
const recording =
  (c: Behaviour.ScenarioCall, into: Array<Behaviour.SentRequest>) =>
  (client: HttpClient.HttpClient) => {
    const { extraFields, headers } = c
    const changed = HttpClient.mapRequest(client, (request) => {
      let out = headers === undefined ? request : HttpClientRequest.setHeaders(request, headers)
      if (extraFields !== undefined && out.body._tag === "Uint8Array") {
        out = HttpClientRequest.bodyText(
          out,
          Behaviour.withFields(out.body.body, extraFields),
          "application/json"
        )
      }
      return out
    })
    return HttpClient.tapRequest(changed, (request) =>
      Effect.sync(() => void into.push(Behaviour.sentOf(request)))
    )
  }

/** Runs a shared scenario on this line. */
export const runScenario = (scenario: Behaviour.Scenario, target: Target): Effect.Effect<void> => {
  const capture = makeCapture()
  const stepOf = (step: Behaviour.Step): Effect.Effect<unknown> => {
    if (step._tag === "Call") {
      return Effect.suspend(() => {
        const sent: Array<Behaviour.SentRequest> = []
        const startedAt = Date.now()
        const layer = target.layerFor(step.call, recording(step.call, sent))
        return Effect.map(
          Effect.exit(Effect.provide(callOf(step.call), layer)),
          (exit): Behaviour.Called => ({
            result: resultOf(exit),
            sent,
            millis: Date.now() - startedAt
          })
        )
      })
    }
    if (step._tag === "Requests")
      return target.requestsOf?.(step.server) ?? Effect.die(new Error("the scenario has no server"))
    if (step._tag === "Recorded")
      return Effect.sync(() => ({
        spans: capture.spans,
        lines: capture.lines,
        dump: capture.dump()
      }))
    return (step.level === "Error" ? Effect.logError : Effect.logDebug)(step.message, ...step.parts)
  }
  const program = Effect.gen(function* () {
    const steps = scenario.run({
      expect,
      servers: target.servers ?? {},
      operations: Operations.all,
      secret: Redacted.make,
      reveal: (u) => (Redacted.isRedacted(u) ? String(Redacted.value(u)) : undefined)
    })
    yield* Behaviour.drive(steps, stepOf)
  })
  if (scenario.capture !== true) return program
  return Effect.provide(Effect.withSpan(program, scenario.name), capture.layer)
}
