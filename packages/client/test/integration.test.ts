// The shared scenarios against the real reference server (@data-access/client-behaviour) run on
// Effect 3: each server in process on a loopback port, the client over undici.
import * as Behaviour from "@data-access/client-behaviour"
import { ReferenceServer } from "@data-access/reference-server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Record from "effect/Record"
import * as Redacted from "effect/Redacted"
import { ClientError, DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { policy, runScenario } from "./harness.js"
import { startServer } from "./server.js"

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

describe("catchCodes", () => {
  it("ConnectError's code is typed as the 16 Connect codes", () => {
    expectTypeOf<ClientError.ConnectError["code"]>().toEqualTypeOf<
      | "canceled"
      | "unknown"
      | "invalid_argument"
      | "deadline_exceeded"
      | "not_found"
      | "already_exists"
      | "permission_denied"
      | "resource_exhausted"
      | "failed_precondition"
      | "aborted"
      | "out_of_range"
      | "unimplemented"
      | "internal"
      | "unavailable"
      | "data_loss"
      | "unauthenticated"
    >()
    expect(ClientError.codes).toHaveLength(16)
  })

  it.live(
    "narrows each handler's error to its code and takes the handled codes out of the error channel",
    () =>
      Effect.gen(function* () {
        const { layer } = yield* startServer()
        const read = (id: string) =>
          Effect.flatMap(Services.ResourceService, (s) =>
            s.getResource({ id }, { retryPolicy: RetryPolicy.none })
          )
        const handled = read("resource_does_not_exist").pipe(
          Effect.map((answer) => answer.resource.id),
          ClientError.catchCodes({
            not_found: (error) => {
              expectTypeOf(error.code).toEqualTypeOf<"not_found">()
              return Effect.succeed(`none: ${error.operation}`)
            },
            unauthenticated: (error) => Effect.fail(new Error(error.message))
          })
        )
        type Left = Effect.Effect.Error<typeof handled>
        expectTypeOf<Extract<Left, ClientError.ConnectError>["code"]>().toEqualTypeOf<
          Exclude<ClientError.Code, "not_found" | "unauthenticated">
        >()
        expectTypeOf<Exclude<Left, ClientError.ConnectError>>().toEqualTypeOf<
          | ClientError.TransportError
          | ClientError.TimeoutError
          | ClientError.DecodeError
          | ClientError.InvalidRequestError
          | Error
        >()
        expect(yield* Effect.provide(handled, layer)).toBe("none: ResourceService/GetResource")
        // Data-first, every code handled: no ConnectError is left.
        const all = ClientError.catchCodes(
          read("resource_does_not_exist"),
          Object.fromEntries(
            ClientError.codes.map((code) => [code, () => Effect.succeed(code)])
          ) as { readonly [C in ClientError.Code]: () => Effect.Effect<C> }
        )
        expectTypeOf<
          Extract<Effect.Effect.Error<typeof all>, ClientError.ConnectError>
        >().toBeNever()
        expect(yield* Effect.provide(all, layer)).toBe("not_found")
        // @ts-expect-error a misspelt code is refused
        ClientError.catchCodes({ not_foud: () => Effect.void })
      }).pipe(Effect.scoped)
  )
})
