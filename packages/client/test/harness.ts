/**
 * Effect 3's harness of `@data-access/client-behaviour`: a case's call through this line's client,
 * how it ended and the run of a case over the fake (behaviour.test.ts), and the interpreter of the
 * shared scenarios (each step an effect of this line, the scenario driven inside `Effect.gen`).
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as Operations from "@data-access/schema/Operations"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { expect } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import type * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { ClientError, DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { clientLayer, makeFake, runWithClock } from "./fake.js"

/** A described policy as this line's `Schedule`. */
export const policy = (retry: Behaviour.Retry): RetryPolicy.RetryPolicy =>
  retry === "none"
    ? RetryPolicy.none
    : retry._tag === "spaced"
      ? Schedule.spaced(retry.millis).pipe(Schedule.intersect(Schedule.recurs(retry.times)))
      : RetryPolicy.exponential({
          base: Duration.millis(retry.baseMillis),
          jitter: retry.jitter,
          retries: retry.retries
        })

const millis = (n: number) => (n === Infinity ? Duration.infinity : Duration.millis(n))

type Methods = Readonly<Record<string, (request: unknown, options: unknown) => unknown>>

const collect = (stream: Stream.Stream<unknown, unknown>) =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

/**
 * A case's call through the combined client (`call`, `stream`) or through its operation's service
 * client (`getResource`, `listNativeUsersStream`): its value (a stream's items in an array), or
 * how it failed.
 */
export const run = (
  call: Omit<Behaviour.ScenarioCall, "baseUrl">
): Effect.Effect<unknown, unknown, DataAccessClient.DataAccessClient | Services.Any> =>
  call.catchCodes === undefined
    ? made(call)
    : ClientError.catchCodes(
        made(call),
        Behaviour.codeHandlers(call.catchCodes, Effect.succeed) as ClientError.CodeHandlers
      )

const made = (
  call: Omit<Behaviour.ScenarioCall, "baseUrl">
): Effect.Effect<unknown, unknown, DataAccessClient.DataAccessClient | Services.Any> => {
  const options = Behaviour.optionsOf(call, millis, policy)
  if (call.viaService === true) {
    const service =
      Services.tags[Operations.operations[call.method as Operations.MethodName].service]
    return Effect.flatMap(
      service as unknown as Effect.Effect<Methods, never, Services.Any>,
      (methods) => {
        const method = methods[Behaviour.methodName(call.method, call.stream)]!
        return call.stream
          ? collect(method(call.request, options) as Stream.Stream<unknown, unknown>)
          : (method(call.request, options) as Effect.Effect<unknown, unknown>)
      }
    )
  }
  return Effect.flatMap(
    DataAccessClient.DataAccessClient,
    (client): Effect.Effect<unknown, unknown> =>
      call.stream
        ? collect(client.stream(call.method as "ListLogQueries", call.request as never, options))
        : client.call(call.method as "GetResource", call.request as never, options)
  )
}

/** How a call ended, as the shared checks read it. */
export const observe = (exit: Exit.Exit<unknown, unknown>): Behaviour.Observed["result"] => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const error = Option.getOrElse(Cause.failureOption(exit.cause), () => Cause.pretty(exit.cause))
  const clientError = ClientError.isClientError(error) ? error : undefined
  return {
    _tag: "Failure",
    error,
    statusFallback:
      clientError?._tag === "ConnectError" ? ClientError.isStatusFallback(clientError) : undefined,
    isRetryable: clientError?.isRetryable
  }
}

/**
 * Runs a case: its call over a fake answering its replies, as many times as it says, the
 * `TestClock` moved in small steps until each run ends (or the real clock for a `live` case), the
 * caller giving up when it says; then compares what happened with the case.
 */
export const runCase = (c: Behaviour.Case) =>
  Effect.gen(function* () {
    const fake = makeFake(c.replies)
    const layer = clientLayer(fake, {
      ...(c.call.baseUrl !== undefined ? { baseUrl: c.call.baseUrl } : {}),
      ...(c.call.layerRetry !== undefined ? { retryPolicy: policy(c.call.layerRetry) } : {})
    })
    const call = Effect.provide(run(c.call), layer)
    let result: Behaviour.Observed["result"] | undefined
    let endedAt = 0
    for (let i = 0; i < (c.runs?.times ?? 1); i++) {
      if (i > 0) yield* TestClock.adjust(Duration.millis(c.runs!.gapMillis))
      const started = yield* Clock.currentTimeMillis
      const fiber = yield* Effect.fork(Effect.exit(call))
      if (c.call.interruptAfter !== undefined) {
        yield* TestClock.adjust(Duration.millis(c.call.interruptAfter))
        // `Effect.exit` never fails: a failed fiber was interrupted before the call ended.
        const exit = yield* Fiber.interrupt(fiber)
        result = Exit.isSuccess(exit) ? observe(exit.value) : { _tag: "Interrupted" }
      } else {
        result = observe(c.live ? yield* Fiber.join(fiber) : yield* runWithClock(fiber))
      }
      endedAt = (yield* Clock.currentTimeMillis) - started
    }
    const observed = {
      result: result!,
      seen: fake.seen,
      interrupted: fake.interrupted.count,
      endedAt
    }
    Behaviour.verify(c, observed, expect, DataAccessClient.USER_AGENT)
  })

/** What a scenario runs against. */
export interface ScenarioEnv {
  /** The layer of a call: its server's (or the fake's), with the call's options and `transformClient`. */
  readonly layerOf: (
    call: Behaviour.ScenarioCall,
    transformClient: (client: HttpClient.HttpClient) => HttpClient.HttpClient
  ) => Layer.Layer<DataAccessClient.DataAccessClient | Services.Any, unknown>
  readonly servers?: Readonly<Record<string, Behaviour.ServerInfo>>
  /** A server's request log. */
  readonly requests?: (server: string) => Effect.Effect<ReadonlyArray<Behaviour.RequestLine>>
}

/** The call's changes to each request (headers, body fields), and the record of each request sent. */
const transformOf =
  (call: Behaviour.ScenarioCall, sent: Array<Behaviour.SentRequest>) =>
  (client: HttpClient.HttpClient) =>
    client.pipe(
      HttpClient.mapRequest((request) => {
        const headed =
          call.headers === undefined ? request : HttpClientRequest.setHeaders(request, call.headers)
        return call.extraFields === undefined || headed.body._tag !== "Uint8Array"
          ? headed
          : HttpClientRequest.bodyText(
              headed,
              Behaviour.withFields(headed.body.body, call.extraFields),
              "application/json"
            )
      }),
      HttpClient.tapRequest((request) => Effect.sync(() => sent.push(Behaviour.sentOf(request))))
    )

/** Runs a shared scenario on this line. */
export const runScenario = (
  scenario: Behaviour.Scenario,
  env: ScenarioEnv
): Effect.Effect<void> => {
  const capture = makeCapture()
  const perform = (step: Behaviour.Step): Effect.Effect<unknown> => {
    switch (step._tag) {
      case "Call":
        return Effect.suspend(() => {
          const sent: Array<Behaviour.SentRequest> = []
          const started = Date.now()
          return Effect.exit(
            Effect.provide(run(step.call), env.layerOf(step.call, transformOf(step.call, sent)))
          ).pipe(
            Effect.map((exit): Behaviour.Called => ({
              result: observe(exit),
              sent,
              millis: Date.now() - started
            }))
          )
        })
      case "Requests":
        return env.requests === undefined
          ? Effect.dieMessage("no server")
          : env.requests(step.server)
      case "Log":
        return step.level === "Debug"
          ? Effect.logDebug(step.message, ...step.parts)
          : Effect.logError(step.message, ...step.parts)
      case "Recorded":
        return Effect.sync((): Behaviour.Recorded => ({
          spans: capture.spans,
          lines: capture.lines,
          dump: capture.dump()
        }))
    }
  }
  const reveal = (u: unknown) => (Redacted.isRedacted(u) ? String(Redacted.value(u)) : undefined)
  const context = {
    expect,
    servers: env.servers ?? {},
    operations: Operations.all,
    secret: Redacted.make,
    reveal
  }
  const program = Effect.gen(function* () {
    yield* Behaviour.drive(scenario.run(context), perform)
  })
  return scenario.capture === true
    ? program.pipe(Effect.withSpan(scenario.name), Effect.provide(capture.layer))
    : program
}
