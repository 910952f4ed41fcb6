/**
 * A fake `HttpClient` for unit tests of one policy (retry counts, waits, headers, error mapping):
 * `@data-access/client-behaviour`'s fake server, answered through Effect 3's `HttpClient`.
 * Tests against the real reference server live in the *.integration tests.
 */
import * as Behaviour from "@data-access/client-behaviour"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { DataAccessClient } from "../src/index.js"

/** A fake HttpClient answering from `replies` in order (the last one repeats). */
export const makeFake = (replies: ReadonlyArray<Behaviour.Reply>) => {
  const server = Behaviour.fakeServer(replies)
  const client = HttpClient.make((request: HttpClientRequest.HttpClientRequest, url) =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      const answer = server.receive(request, url, at)
      switch (answer._tag) {
        case "Hang":
          return Effect.onInterrupt(Effect.never, () => Effect.sync(() => server.interrupted.count++))
        case "Transport":
          return Effect.fail(new HttpClientError.RequestError({ request, reason: "Transport", cause: answer.cause }))
        case "Response":
          return Effect.succeed(HttpClientResponse.fromWeb(request, answer.response))
      }
    })
  )
  return { seen: server.seen, interrupted: server.interrupted, layer: Layer.succeed(HttpClient.HttpClient, client) }
}

/** The client layer over a fake. */
export const clientLayer = (fake: ReturnType<typeof makeFake>, options: Partial<DataAccessClient.Options> = {}) =>
  DataAccessClient.layer({ baseUrl: "http://fake.invalid", apiKey: Redacted.make(Behaviour.API_KEY), ...options }).pipe(
    Layer.provide(fake.layer)
  )

/** Moves the TestClock forward in small steps until the fiber is done (at most `limitMillis`). */
export const runWithClock = <A, E>(fiber: import("effect/Fiber").RuntimeFiber<A, E>, limitMillis = 60_000, stepMillis = 10) =>
  Effect.gen(function*() {
    const { TestClock, Fiber, Option } = yield* Effect.promise(() => import("effect"))
    for (let t = 0; t <= limitMillis; t += stepMillis) {
      const done = yield* Fiber.poll(fiber)
      if (Option.isSome(done)) break
      yield* TestClock.adjust(`${stepMillis} millis`)
    }
    return yield* Fiber.join(fiber)
  })
