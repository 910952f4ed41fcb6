// Under the machine's Node only (scripts/node-lines): the client's logic over a fake HttpClient, pure Effect code.
// The shared redaction check (@data-access/client-behaviour) run on Effect 3.
import * as Behaviour from "@data-access/client-behaviour"
import { describe, it } from "@effect/vitest"
import * as Schedule from "effect/Schedule"
import { clientLayer, makeFake } from "./fake.js"
import { runScenario } from "./harness.js"

describe("redaction", () => {
  it.effect(Behaviour.redactionScenario.name, () => {
    const fake = makeFake(Behaviour.redactionReplies)
    return runScenario(Behaviour.redactionScenario, {
      layerOf: (_, transformClient) =>
        clientLayer(fake, { retryPolicy: Schedule.recurs(1), transformClient })
    })
  })
})
