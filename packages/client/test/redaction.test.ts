// The shared redaction check (@data-access/client-behaviour) run on Effect 3.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import { DataAccessClient } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { clientLayer, makeFake } from "./fake.js"

describe("redaction", () => {
  it.effect("no secret appears in logs, spans, errors or printed values, with tracing and logging at the most verbose level", () =>
    Effect.gen(function*() {
      const capture = makeCapture()
      const fake = makeFake(Behaviour.redactionReplies)
      const values: Array<unknown> = []
      const errors: Array<unknown> = []
      yield* Effect.gen(function*() {
        const client = yield* DataAccessClient.DataAccessClient
        for (const c of Behaviour.redactionCalls(Redacted.make)) {
          const call: Effect.Effect<unknown, unknown> = c.stream
            ? Stream.runCollect(client.stream(c.method as "ListNativeUsers", c.request as never))
            : client.call(c.method as "GetResource", c.request as never)
          if (c.fails) errors.push(yield* Effect.flip(call))
          else values.push(yield* call)
        }
        yield* Effect.logDebug("values", ...values)
        yield* Effect.logError("errors", ...errors)
      }).pipe(Effect.withSpan("test"), Effect.provide(Layer.merge(clientLayer(fake, { retryPolicy: Schedule.recurs(1) }), capture.layer)))
      const reveal = (u: unknown) => Redacted.value(u as Redacted.Redacted<string>)
      Behaviour.verifyRedaction({ values, errors, seen: fake.seen, spans: capture.spans, lines: capture.lines, dump: capture.dump(), reveal }, expect)
    }))
})
