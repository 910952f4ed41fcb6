/**
 * A fake `HttpClient` for unit tests of one policy (retry counts, waits, headers, error mapping).
 * Tests against the real reference server are in integration.test.ts.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientError from "effect/http/HttpClientError"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as TestClock from "effect/testing/TestClock"
import { DataAccessClient } from "../src/index.js"

export interface Seen {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  /** The (Test)Clock time of the request, in milliseconds. */
  readonly at: number
}

export type Reply =
  | { readonly status: number; readonly body?: unknown; readonly text?: string; readonly headers?: Record<string, string> }
  | { readonly transport: string }
  | { readonly hang: true }

export const API_KEY = "test-api-key-5f0c1e9a"

/** A fake HttpClient answering from `replies` in order (the last one repeats). */
export const makeFake = (replies: ReadonlyArray<Reply>) => {
  const seen: Array<Seen> = []
  /** How many hanging requests were interrupted (a timeout or the caller gave up). */
  const interrupted = { count: 0 }
  const client = HttpClient.make((request: HttpClientRequest.HttpClientRequest, url) =>
    Effect.flatMap(Clock.currentTimeMillis, (at) => {
      const body = request.body._tag === "Uint8Array" ? JSON.parse(new TextDecoder().decode(request.body.body)) : undefined
      seen.push({ url: url.toString(), headers: { ...request.headers }, body, at })
      const reply = replies[Math.min(seen.length - 1, replies.length - 1)]!
      if ("hang" in reply) return Effect.onInterrupt(Effect.never, () => Effect.sync(() => interrupted.count++))
      if ("transport" in reply) {
        const cause = Object.assign(new Error(`connect ${reply.transport} 127.0.0.1:9`), { code: reply.transport })
        return Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request, cause }) }))
      }
      const text = reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body))
      return Effect.succeed(
        HttpClientResponse.fromWeb(
          request,
          new Response(text, {
            status: reply.status,
            headers: { "content-type": reply.text !== undefined ? "text/plain" : "application/json", ...reply.headers }
          })
        )
      )
    })
  )
  return { seen, interrupted, layer: Layer.succeed(HttpClient.HttpClient, client) }
}

/** The client layer over a fake. */
export const clientLayer = (fake: ReturnType<typeof makeFake>, options: Partial<DataAccessClient.Options> = {}) =>
  DataAccessClient.layer({ baseUrl: "http://fake.invalid", apiKey: Redacted.make(API_KEY), ...options }).pipe(Layer.provide(fake.layer))

export const resource = { resource: { id: "resource_1", name: "db", port: 5432 } }
export const unavailable = { status: 503, body: { code: "unavailable", message: "overloaded" } } as const

/** Moves the TestClock forward in small steps until the fiber is done (at most `limitMillis`). */
export const runWithClock = <A, E>(fiber: Fiber.Fiber<A, E>, limitMillis = 60_000, stepMillis = 10) =>
  Effect.gen(function*() {
    for (let t = 0; t <= limitMillis; t += stepMillis) {
      // Let the fiber run as far as it can at this time before the clock moves.
      for (let i = 0; i < 20 && fiber.pollUnsafe() === undefined; i++) yield* Effect.yieldNow
      if (fiber.pollUnsafe() !== undefined) break
      yield* TestClock.adjust(`${stepMillis} millis`)
    }
    return yield* Fiber.join(fiber)
  })
