/**
 * A fake `HttpClient` for unit tests of one policy (retry counts, waits, headers, error mapping):
 * `@data-access/client-behaviour`'s fake server, answered through Effect 3's `HttpClient`.
 * Tests against the real reference server live in the *.integration tests.
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { DataAccessClient } from "../src/index.js"

/** A fake HttpClient answering from `replies` in order (the last one repeats). */
export const makeFake = Behaviour.fakeHttpClient<Layer.Layer<HttpClient.HttpClient>>(
  { Clock, Effect, HttpClient, HttpClientResponse, Layer },
  (request, cause) => new HttpClientError.RequestError({ request, reason: "Transport", cause })
)

/** The client layer over a fake. */
export const clientLayer = (
  fake: ReturnType<typeof makeFake>,
  options: Partial<DataAccessClient.Options> = {}
) =>
  DataAccessClient.layer({
    baseUrl: Behaviour.FAKE_BASE_URL,
    apiKey: Redacted.make(Behaviour.API_KEY),
    ...options
  }).pipe(Layer.provide(fake.layer))

/** Moves the TestClock forward in small steps until the fiber is done (at most `limitMillis`). */
export const runWithClock = <A, E>(
  fiber: import("effect/Fiber").RuntimeFiber<A, E>,
  limitMillis = 60_000,
  stepMillis = 10
) =>
  Effect.gen(function* () {
    const { TestClock, Fiber, Option } = yield* Effect.promise(() => import("effect"))
    for (let t = 0; t <= limitMillis; t += stepMillis) {
      const done = yield* Fiber.poll(fiber)
      if (Option.isSome(done)) break
      yield* TestClock.adjust(`${stepMillis} millis`)
    }
    return yield* Fiber.join(fiber)
  })
