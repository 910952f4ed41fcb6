/**
 * The shared scenarios against the real reference server (@data-access/client-behaviour) run on
 * Effect 4: each server in its own process on a loopback port, the client over undici. Besides
 * them, what only this line's types show: a typed error caught by its code.
 */
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, expectTypeOf, it } from "@effect/vitest"
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

  it("ConnectError's code is the union of the 16 codes", () => {
    type Codes = (typeof ClientError.codes)[number]
    expectTypeOf<ClientError.ConnectError["code"]>().toEqualTypeOf<ClientError.Code>()
    expectTypeOf<ClientError.Code>().toEqualTypeOf<Codes>()
    expectTypeOf<"not_found">().toExtend<ClientError.Code>()
    expectTypeOf<"NOT_FOUND">().not.toExtend<ClientError.Code>()
    expect([...ClientError.codes].sort()).toEqual([
      "aborted",
      "already_exists",
      "canceled",
      "data_loss",
      "deadline_exceeded",
      "failed_precondition",
      "internal",
      "invalid_argument",
      "not_found",
      "out_of_range",
      "permission_denied",
      "resource_exhausted",
      "unauthenticated",
      "unavailable",
      "unimplemented",
      "unknown"
    ])
  })

  it.live("are caught by code with catchCodes, whose handlers see their code only", () =>
    Effect.gen(function* () {
      const { layer } = yield* startWithClient()
      const missing = Effect.flatMap(Services.ResourceService, (s) =>
        s.getResource({ id: "resource_does_not_exist" }, { retryPolicy: RetryPolicy.none })
      )
      const onNotFound = (error: ClientError.ConnectErrorOf<"not_found">) =>
        Effect.succeed(error.operation ?? "")
      const recovered = ClientError.catchCodes(missing, {
        not_found: onNotFound,
        already_exists: (error) => {
          expectTypeOf(error).toEqualTypeOf<ClientError.ConnectErrorOf<"already_exists">>()
          return Effect.fail("exists" as const)
        }
      })
      type Remaining = Effect.Error<typeof recovered>
      expectTypeOf<Extract<Remaining, { readonly _tag: "ConnectError" }>["code"]>().toEqualTypeOf<
        Exclude<ClientError.Code, "not_found" | "already_exists">
      >()
      expectTypeOf<"exists">().toExtend<Remaining>()
      const [operation] = yield* Effect.provide(Effect.all([recovered]), layer)
      expect(operation).toBe("ResourceService/GetResource")
      // The remaining codes reach a second catchCodes; a handled code is gone from the channel.
      const twice = recovered.pipe(
        ClientError.catchCodes({ unauthenticated: () => Effect.succeed("no key") })
      )
      expectTypeOf<
        Extract<Effect.Error<typeof twice>, { readonly _tag: "ConnectError" }>["code"]
      >().toEqualTypeOf<
        Exclude<ClientError.Code, "not_found" | "already_exists" | "unauthenticated">
      >()
      expect(yield* Effect.provide(twice, layer)).toBe("ResourceService/GetResource")
      // @ts-expect-error a key that is no code is refused
      ClientError.catchCodes({ notFound: () => Effect.void })
    }).pipe(Effect.scoped)
  )
})
