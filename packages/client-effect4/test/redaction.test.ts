// Under the machine's Node only (scripts/node-lines): the client's logic over a fake HttpClient, pure Effect code.
// The shared redaction check (@data-access/client-behaviour) run on Effect 4, in the worst case:
// every header recorded on the HttpClient's spans and the redacted header names replaced with none.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import { DataAccessClient } from "../src/index.js"
import { printed } from "./capture.js"
import { clientLayer, makeFake } from "./fake.js"
import { runScenario } from "./harness.js"

describe("redaction", () => {
  it.effect("the layer's options, a config error and the client never print the API key", () =>
    Effect.gen(function* () {
      const options = { baseUrl: "not a url", apiKey: Redacted.make(Behaviour.API_KEY) }
      const fake = makeFake([{ status: 200, body: {} }])
      const error = yield* Effect.flip(
        Layer.build(DataAccessClient.layer(options).pipe(Layer.provide(fake.layer))).pipe(
          Effect.scoped
        )
      )
      const client = yield* DataAccessClient.DataAccessClient.pipe(
        Effect.provide(clientLayer(fake))
      )
      for (const text of [printed(options), printed(error), printed(client)])
        expect(text).not.toContain(Behaviour.API_KEY)
    })
  )

  it.effect(Behaviour.redactionScenario.name, () => {
    const fake = makeFake(Behaviour.redactionReplies)
    const layerFor = (
      _: Behaviour.ScenarioCall,
      transformClient: (client: HttpClient.HttpClient) => HttpClient.HttpClient
    ) => clientLayer(fake, { retryPolicy: Schedule.recurs(1), transformClient })
    return runScenario(Behaviour.redactionScenario, { layerFor }).pipe(
      Effect.provideService(HttpClient.TracerHeaderFilter, () => true),
      Effect.provideService(Headers.CurrentRedactedNames, [])
    )
  })
})
