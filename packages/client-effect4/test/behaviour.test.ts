// The clients' behaviour, written once as data in @data-access/client-behaviour, run on Effect 4:
// a fake HttpClient answers each case's replies and the TestClock moves until the call ends.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/testing/TestClock"
import { ClientError, DataAccessClient, RetryPolicy } from "../src/index.js"
import { clientLayer, makeFake, runWithClock } from "./fake.js"

const policyOf = (retry: Behaviour.Retry): RetryPolicy.RetryPolicy => {
  if (retry === "none") return RetryPolicy.none
  if (retry._tag === "exponential") {
    return RetryPolicy.exponential({ base: Duration.millis(retry.baseMillis), jitter: retry.jitter, retries: retry.retries })
  }
  return Schedule.spaced(Duration.millis(retry.millis)).pipe(Schedule.upTo({ times: retry.times })) as RetryPolicy.RetryPolicy
}

const durationOf = (n: number | undefined): Duration.Input | undefined =>
  n === undefined ? undefined : n === Infinity ? Duration.infinity : Duration.millis(n)

const callOf = (c: Behaviour.Call) =>
  Effect.gen(function*() {
    const client = yield* DataAccessClient.DataAccessClient
    const options = {
      timeout: durationOf(c.timeout),
      attemptTimeout: durationOf(c.attemptTimeout),
      retryPolicy: c.retry === undefined ? undefined : policyOf(c.retry),
      pageSize: c.pageSize
    }
    if (!c.stream) return yield* client.call(c.method as "GetResource", c.request as never, options)
    return yield* Stream.runCollect(client.stream(c.method as "ListLogQueries", c.request as never, options))
  })

const resultOf = (exit: Exit.Exit<unknown, unknown>): Behaviour.Observed["result"] => {
  if (Exit.isSuccess(exit)) return { _tag: "Success", value: exit.value }
  const found = Cause.findErrorOption(exit.cause)
  const error = found._tag === "Some" ? found.value : Cause.pretty(exit.cause)
  const known = ClientError.isClientError(error) ? error : undefined
  return {
    _tag: "Failure",
    error,
    isRetryable: known?.isRetryable,
    statusFallback: known !== undefined && known._tag === "ConnectError" ? ClientError.isStatusFallback(known) : undefined
  }
}

describe("behaviour (the shared cases)", () => {
  for (const c of Behaviour.cases) {
    const test = c.live ? it.live : it.effect
    test(c.name, () =>
      Effect.gen(function*() {
        const fake = makeFake(c.replies)
        const options: Partial<DataAccessClient.Options> = {}
        if (c.call.baseUrl !== undefined) Object.assign(options, { baseUrl: c.call.baseUrl })
        if (c.call.layerRetry !== undefined) Object.assign(options, { retryPolicy: policyOf(c.call.layerRetry) })
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
        Behaviour.verify(c, { result: result!, seen: fake.seen, interrupted: fake.interrupted.count, endedAt }, expect, DataAccessClient.USER_AGENT)
      }))
  }
})
