/** Starts the real reference server on an ephemeral loopback port and a client over real HTTP. */
import { ReferenceServer } from "@data-access/reference-server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import * as TestClock from "effect/TestClock"
import * as TestServices from "effect/TestServices"
import { DataAccessClient } from "../src/index.js"

/** Starts a server in the current scope and returns it with a client layer over NodeHttpClient (undici). */
export const startServer = (
  options: ReferenceServer.Options = {},
  client: Partial<DataAccessClient.Options> = {}
) =>
  Effect.gen(function* () {
    const server = yield* ReferenceServer.start(options)
    const layer = DataAccessClient.layer({
      baseUrl: server.url,
      apiKey: Redacted.make(server.apiKeys[0]!),
      ...client
    }).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.orDie)
    return { server, layer }
  }) satisfies Effect.Effect<unknown, unknown, Scope.Scope>

/**
 * Runs a forked call to completion under the TestClock: whenever the fiber waits for a retry
 * (a sleep shorter than `horizonMillis`), the clock jumps exactly to it; real I/O runs in real time.
 * Use an attempt timeout longer than the horizon so that it never fires.
 */
export const driveClock = <A, E>(fiber: Fiber.RuntimeFiber<A, E>, horizonMillis = 30 * 60_000) =>
  Effect.gen(function* () {
    while (true) {
      const done = yield* Fiber.poll(fiber)
      if (Option.isSome(done)) break
      const now = yield* TestClock.currentTimeMillis
      const sleeps = [...(yield* TestClock.sleeps())].filter((t) => t - now < horizonMillis)
      if (sleeps.length > 0) {
        yield* TestClock.adjust(`${Math.min(...sleeps) - now} millis`)
      } else {
        yield* TestServices.provideLive(Effect.sleep("2 millis"))
      }
    }
    return yield* Fiber.join(fiber)
  })
