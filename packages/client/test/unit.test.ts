// Under the machine's Node only (scripts/node-lines): the client's logic over a fake HttpClient, pure Effect code.
// What only Effect 3's adapter has: its layers and Config. The deadlines, retries, answers and
// paging are the shared cases of behaviour.test.ts.
import * as Behaviour from "@data-access/client-behaviour"
import * as Operations from "@data-access/schema/Operations"
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DataAccessClient, Services } from "../src/index.js"
import { clientLayer, makeFake } from "./fake.js"

const getResource = Effect.flatMap(Services.ResourceService, (s) =>
  s.getResource({ id: "resource_1" })
)

describe("layers", () => {
  it.effect("layerConfig reads DATA_ACCESS_BASE_URL and DATA_ACCESS_API_KEY", () =>
    Effect.gen(function* () {
      const fake = makeFake([{ status: 200, body: Behaviour.resource }])
      const env = new Map([
        [DataAccessClient.BASE_URL_ENV, "http://config.invalid"],
        [DataAccessClient.API_KEY_ENV, Behaviour.API_KEY]
      ])
      const config = Layer.setConfigProvider(ConfigProvider.fromMap(env))
      yield* Effect.provide(
        getResource,
        DataAccessClient.layerConfig().pipe(Layer.provide(fake.layer), Layer.provide(config))
      )
      expect([fake.seen[0]!.url, fake.seen[0]!.headers["x-api-key"]]).toEqual([
        "http://config.invalid/core.v1.ResourceService/GetResource",
        Behaviour.API_KEY
      ])
    })
  )

  it.effect("transformClient sees every request", () =>
    Effect.gen(function* () {
      const urls: Array<string> = []
      const transformClient = HttpClient.tapRequest((req) => Effect.sync(() => urls.push(req.url)))
      yield* Effect.provide(
        getResource,
        clientLayer(makeFake([{ status: 200, body: Behaviour.resource }]), { transformClient })
      )
      expect(urls).toEqual(["http://fake.invalid/core.v1.ResourceService/GetResource"])
    })
  )

  it.effect(
    "every service of the table is provided by its Tag, with one method per operation",
    () =>
      Effect.gen(function* () {
        const layer = clientLayer(makeFake([{ status: 200, body: Behaviour.resource }]))
        const client = yield* Effect.provide(DataAccessClient.DataAccessClient, layer)
        const fromTags: Record<string, object> = {}
        for (const [service, tag] of Object.entries(Services.tags)) {
          fromTags[service] = yield* Effect.provide(
            tag as unknown as Effect.Effect<object, never, Services.Any>,
            layer
          )
        }
        Behaviour.verifyServices(Operations.services, client, fromTags, expect)
        expect(Duration.toMillis(DataAccessClient.DEFAULT_TIMEOUT)).toBe(30000)
      })
  )
})
