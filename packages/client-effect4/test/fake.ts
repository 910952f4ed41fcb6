/**
 * A fake `HttpClient` for unit tests of one policy (retry counts, waits, headers, error mapping):
 * `@data-access/client-behaviour`'s fake server, answered through Effect 4's `HttpClient`.
 * Tests against the real reference server are in integration.test.ts.
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as TestClock from "effect/testing/TestClock"
import { DataAccessClient } from "../src/index.js"

/** A fake HttpClient answering from `replies` in order (the last one repeats). */
export const makeFake = Behaviour.fakeHttpClient<Layer.Layer<HttpClient.HttpClient>>(
  { Clock, Effect, HttpClient, HttpClientResponse, Layer },
  (request, cause) =>
    new HttpClientError.HttpClientError({
      reason: new HttpClientError.TransportError({ request, cause })
    })
)

/** The client layer over a fake. */
export const clientLayer = (
  fake: ReturnType<typeof makeFake>,
  options: Partial<DataAccessClient.Options> = {}
) =>
  Layer.provide(
    DataAccessClient.layer({
      baseUrl: Behaviour.FAKE_BASE_URL,
      apiKey: Redacted.make(Behaviour.API_KEY),
      ...options
    }),
    fake.layer
  )

/** Moves the TestClock forward in small steps until the fiber is done (at most `limitMillis`). */
export const runWithClock = <A, E>(
  fiber: Fiber.Fiber<A, E>,
  limitMillis = 60_000,
  stepMillis = 10
) =>
  Effect.gen(function* () {
    for (let t = 0; t <= limitMillis; t += stepMillis) {
      // Let the fiber run as far as it can at this time before the clock moves.
      for (let i = 0; i < 20 && fiber.pollUnsafe() === undefined; i++) yield* Effect.yieldNow
      if (fiber.pollUnsafe() !== undefined) break
      yield* TestClock.adjust(`${stepMillis} millis`)
    }
    return yield* Fiber.join(fiber)
  })
