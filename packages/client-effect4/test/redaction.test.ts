// The shared redaction check (@data-access/client-behaviour) run on Effect 4, in the worst case:
// every header recorded on the HttpClient's spans and the redacted header names replaced with none.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import { DataAccessClient } from "../src/index.js"
import { makeCapture, printed } from "./capture.js"
import { API_KEY, clientLayer, makeFake } from "./fake.js"

describe("redaction", () => {
  it.effect("the layer's options, a config error and the client never print the API key", () =>
    Effect.gen(function*() {
      const options = { baseUrl: "not a url", apiKey: Redacted.make(API_KEY) }
      const fake = makeFake([{ status: 200, body: {} }])
      const error = yield* Effect.flip(Layer.build(DataAccessClient.layer(options).pipe(Layer.provide(fake.layer))).pipe(Effect.scoped))
      const client = yield* DataAccessClient.DataAccessClient.pipe(Effect.provide(clientLayer(fake)))
      for (const text of [printed(options), printed(error), printed(client)]) expect(text).not.toContain(API_KEY)
    }))

  it.effect("no secret appears in logs, spans, errors or printed values, with tracing and logging at the most verbose level", () =>
    Effect.gen(function*() {
      const capture = makeCapture()
      const fake = makeFake(Behaviour.redactionReplies)
      const values: Array<unknown> = []
      const errors: Array<unknown> = []
      const unexpected: Array<unknown> = []
      const program = Effect.gen(function*() {
        const client = yield* DataAccessClient.DataAccessClient
        const calls = Behaviour.redactionCalls(Redacted.make)
        const exits = yield* Effect.forEach(calls, (c) =>
          Effect.exit<unknown, unknown, never>(
            c.stream
              ? Stream.runCollect(client.stream(c.method as "ListNativeUsers", c.request as never))
              : client.call(c.method as "GetResource", c.request as never)
          ))
        exits.forEach((exit, i) => {
          const fails = calls[i]!.fails === true
          if (Exit.isSuccess(exit) && !fails) values.push(exit.value)
          else if (Exit.isFailure(exit) && fails) errors.push(Cause.squash(exit.cause))
          else unexpected.push({ call: calls[i]!.method, exit })
        })
        yield* Effect.logDebug("values", ...values)
        yield* Effect.logError("errors", ...errors)
      })
      yield* program.pipe(
        Effect.withSpan("test"),
        Effect.provide(Layer.merge(clientLayer(fake, { retryPolicy: Schedule.recurs(1) }), capture.layer)),
        Effect.provideService(HttpClient.TracerHeaderFilter, () => true),
        Effect.provideService(Headers.CurrentRedactedNames, [])
      )
      expect(unexpected).toEqual([])
      const observed = { values, errors, seen: fake.seen, spans: capture.spans, lines: capture.lines, dump: capture.dump() }
      Behaviour.verifyRedaction({ ...observed, reveal: (u) => Redacted.value(u as Redacted.Redacted<string>) }, expect)
    }))
})
