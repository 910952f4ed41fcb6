// The clients' behaviour, written once as data in @data-access/client-behaviour, run on Effect 3:
// a fake HttpClient answers each case's replies and the TestClock moves until the call ends.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import { ClientError, DataAccessClient, RetryPolicy } from "../src/index.js"
import { clientLayer, makeFake, runWithClock } from "./fake.js"

const policy = (retry: Behaviour.Retry): RetryPolicy.RetryPolicy =>
  retry === "none"
    ? RetryPolicy.none
    : retry._tag === "spaced"
      ? Schedule.spaced(retry.millis).pipe(Schedule.intersect(Schedule.recurs(retry.times)))
      : RetryPolicy.exponential({ base: Duration.millis(retry.baseMillis), jitter: retry.jitter, retries: retry.retries })

const millis = (n: number | undefined) => (n === undefined ? undefined : n === Infinity ? Duration.infinity : Duration.millis(n))

const run = (call: Behaviour.Call) =>
  Effect.flatMap(DataAccessClient.DataAccessClient, (client): Effect.Effect<unknown, unknown> => {
    const options = {
      timeout: millis(call.timeout),
      attemptTimeout: millis(call.attemptTimeout),
      retryPolicy: call.retry === undefined ? undefined : policy(call.retry),
      pageSize: call.pageSize
    }
    return call.stream
      ? Stream.runCollect(client.stream(call.method as "ListLogQueries", call.request as never, options))
      : client.call(call.method as "GetResource", call.request as never, options)
  })

const observe = (exit: Exit.Exit<unknown, unknown>): Behaviour.Observed["result"] => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const error = Option.getOrElse(Cause.failureOption(exit.cause), () => Cause.pretty(exit.cause))
  const clientError = ClientError.isClientError(error) ? error : undefined
  return {
    _tag: "Failure",
    error,
    statusFallback: clientError?._tag === "ConnectError" ? ClientError.isStatusFallback(clientError) : undefined,
    isRetryable: clientError?.isRetryable
  }
}

describe("behaviour (the shared cases)", () => {
  for (const c of Behaviour.cases) {
    ;(c.live ? it.live : it.effect)(c.name, () =>
      Effect.gen(function*() {
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
        const observed = { result: result!, seen: fake.seen, interrupted: fake.interrupted.count, endedAt }
        Behaviour.verify(c, observed, expect, DataAccessClient.USER_AGENT)
      }))
  }
})
