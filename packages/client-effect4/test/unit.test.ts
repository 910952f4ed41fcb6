// Under the machine's Node only (scripts/node-lines): the client's logic over a fake HttpClient, pure Effect code.
// What only Effect 4's adapter has: its layers, Config and spans. The deadlines, retries, answers
// and paging are the shared cases of behaviour.test.ts.
import * as Behaviour from "@data-access/client-behaviour"
import * as Operations from "@data-access/schema-effect4/Operations"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpClient from "effect/http/HttpClient"
import { DataAccessClient, RetryPolicy, Services } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { clientLayer, makeFake, runWithClock } from "./fake.js"

const getResource = (options?: Services.CallOptions) =>
  Effect.flatMap(Services.ResourceService, (s) => s.getResource({ id: "resource_1" }, options))

describe("layers", () => {
  it.effect(
    "layerConfig reads DATA_ACCESS_BASE_URL and DATA_ACCESS_API_KEY from the ConfigProvider",
    () =>
      Effect.gen(function* () {
        const fake = makeFake([{ status: 200, body: Behaviour.resource }])
        const env = {
          [DataAccessClient.BASE_URL_ENV]: "http://config.invalid",
          [DataAccessClient.API_KEY_ENV]: Behaviour.API_KEY
        }
        const layer = Layer.provide(DataAccessClient.layerConfig(), [
          fake.layer,
          ConfigProvider.layer(ConfigProvider.fromEnv({ env }))
        ])
        yield* Effect.provide(getResource(), layer)
        const [first] = fake.seen
        expect({ url: first?.url, key: first?.headers["x-api-key"] }).toEqual({
          url: "http://config.invalid/core.v1.ResourceService/GetResource",
          key: Behaviour.API_KEY
        })
      })
  )

  it.effect("the transformClient option wraps the HttpClient every request goes through", () =>
    Effect.gen(function* () {
      const urls: Array<string> = []
      const layer = clientLayer(makeFake([{ status: 200, body: Behaviour.resource }]), {
        transformClient: HttpClient.tapRequest((request) =>
          Effect.sync(() => void urls.push(request.url))
        )
      })
      yield* Effect.provide(getResource(), layer)
      expect(urls).toEqual(["http://fake.invalid/core.v1.ResourceService/GetResource"])
    })
  )

  it.effect("each service Tag of the table is in the layer, with a method per operation", () =>
    Effect.gen(function* () {
      const layer = clientLayer(makeFake([{ status: 200, body: Behaviour.resource }]))
      const client = yield* Effect.provide(Effect.service(DataAccessClient.DataAccessClient), layer)
      const fromTags: Record<string, object> = {}
      for (const [service, tag] of Object.entries(Services.tags)) {
        fromTags[service] = yield* Effect.provide(
          Effect.service(tag as typeof Services.ResourceService),
          layer
        )
      }
      Behaviour.verifyServices(Operations.services, client, fromTags, expect)
      expect(Duration.toMillis(DataAccessClient.DEFAULT_TIMEOUT)).toBe(30000)
    })
  )
})

describe("spans", () => {
  it.effect(
    "one client span per call named <Service>/<Method>, with rpc attributes, attempt and retry events",
    () =>
      Effect.gen(function* () {
        const capture = makeCapture()
        const fake = makeFake([Behaviour.unavailable, { status: 200, body: Behaviour.resource }])
        const fiber = yield* Effect.forkChild(
          getResource({
            retryPolicy: RetryPolicy.exponential({ base: "100 millis", jitter: false })
          }).pipe(Effect.provide(Layer.merge(clientLayer(fake), capture.layer)))
        )
        yield* runWithClock(fiber, 5_000, 10)
        const span = capture.spans.find((s) => s.name === "ResourceService/GetResource")
        expect(span).toBeDefined()
        expect(span!.attributes.get("rpc.system")).toBe("connect_rpc")
        expect(span!.attributes.get("rpc.service")).toBe("core.v1.ResourceService")
        expect(span!.attributes.get("rpc.method")).toBe("GetResource")
        expect(span!.attributes.get("rpc.response.code")).toBe("ok")
        expect(span!.attributes.get("rpc.attempts")).toBe(2)
        expect(span!.events.map((e) => e.name)).toEqual(["attempt", "retry", "attempt"])
        expect(span!.events[1]!.attributes?.["retry.reason"]).toBe("unavailable")
        expect(capture.dump()).not.toContain(Behaviour.API_KEY)
      })
  )
})
