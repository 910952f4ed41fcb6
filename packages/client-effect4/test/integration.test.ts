/**
 * The shared scenarios against the real reference server (@data-access/client-behaviour) run on
 * Effect 4: each server in its own process on a loopback port, the client over undici. Besides
 * them, what only this line's types show: a typed error caught by its code.
 */
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Record from "effect/Record"
import { ClientError, RetryPolicy, Services } from "../src/index.js"
import { policyOf, runScenario } from "./harness.js"
import { clientLayer, type RunningServer, startServer, startWithClient } from "./server.js"

const onServers = (scenario: Behaviour.Scenario) =>
  Effect.gen(function* () {
    const started = yield* Effect.all(Record.map(scenario.servers ?? { main: {} }, startServer), {
      concurrency: "unbounded"
    })
    const named = (name: string): RunningServer => {
      const found = started[name]
      if (found === undefined) throw new Error(`${scenario.name}: no server ${name}`)
      return found
    }
    yield* runScenario(scenario, {
      servers: started,
      requestsOf: (name) => named(name).requests,
      layerFor: (c, transformClient) => {
        const running = named(c.server ?? "main")
        return clientLayer(
          {
            ...running,
            url: c.baseUrl === undefined ? running.url : c.baseUrl(running.url),
            apiKey: c.apiKey ?? running.apiKey
          },
          c.layerRetry === undefined
            ? { transformClient }
            : { transformClient, retryPolicy: policyOf(c.layerRetry) }
        )
      }
    })
  }).pipe(Effect.scoped)

Behaviour.testScenarios(
  { describe, effect: it.effect, live: it.live },
  Behaviour.serverScenarios,
  onServers
)

describe("typed errors", () => {
  it.live("are caught by tag and by code", () =>
    Effect.gen(function* () {
      const { layer } = yield* startWithClient()
      const caught = yield* Effect.flatMap(Services.ResourceService, (s) =>
        s.getResource({ id: "resource_does_not_exist" }, { retryPolicy: RetryPolicy.none })
      ).pipe(
        Effect.map(() => "found"),
        Effect.catchIf(ClientError.hasCode("not_found"), () => Effect.succeed("not found")),
        Effect.provide(layer)
      )
      expect(caught).toBe("not found")
    }).pipe(Effect.scoped)
  )
})
