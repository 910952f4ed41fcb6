// The shared scenarios against the real reference server (@data-access/client-behaviour) run on
// Effect 3: each server in process on a loopback port, the client over undici.
import * as Behaviour from "@data-access/client-behaviour"
import { ReferenceServer } from "@data-access/reference-server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Record from "effect/Record"
import * as Redacted from "effect/Redacted"
import { DataAccessClient } from "../src/index.js"
import { policy, runScenario } from "./harness.js"

const againstServers = (scenario: Behaviour.Scenario) =>
  Effect.gen(function* () {
    const options = scenario.servers ?? { main: {} }
    const servers = yield* Effect.all(
      Record.map(options, (o) => ReferenceServer.start(o as ReferenceServer.Options))
    )
    const serverOf = (name: string) => {
      const server = servers[name]
      if (server === undefined) throw new Error(`${scenario.name}: no server ${name}`)
      return server
    }
    yield* runScenario(scenario, {
      servers: Record.map(servers, (s) => ({
        url: s.url,
        apiKey: s.apiKeys[0]!,
        knownIds: s.knownIds
      })),
      requests: (name) => serverOf(name).requests,
      layerOf: (call, transformClient) => {
        const server = serverOf(call.server ?? "main")
        return DataAccessClient.layer({
          baseUrl: call.baseUrl?.(server.url) ?? server.url,
          apiKey: Redacted.make(call.apiKey ?? server.apiKeys[0]!),
          transformClient,
          ...(call.layerRetry !== undefined ? { retryPolicy: policy(call.layerRetry) } : {})
        }).pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.orDie)
      }
    })
  }).pipe(Effect.scoped)

Behaviour.testScenarios(
  { describe, effect: it.effect, live: it.live },
  Behaviour.serverScenarios,
  againstServers
)
