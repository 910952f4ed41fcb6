import * as Behaviour from "@data-access/client-behaviour"
import { ClientError, DataAccessClient, RetryPolicy, Services } from "@data-access/client"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { DataAccessTest } from "../src/index.js"

/** What the shared checks of a test layer (@data-access/client-behaviour) use of this line. */
const line: Behaviour.TestLayerLine = { DataAccessClient, Effect, Services, Stream }

/** A shared check as an effect of this line, which needs what the test layer provides. */
const check = (steps: () => Generator<any, void, any>) =>
  Effect.gen(steps) as Effect.Effect<
    void,
    unknown,
    DataAccessTest.InProcess | DataAccessClient.DataAccessClient | Services.Any
  >

layer(DataAccessTest.layer())("DataAccessTest.layer", (it) => {
  it.effect("serves the client from the seeded in-process server", () =>
    Effect.gen(function* () {
      const server = yield* DataAccessTest.InProcess
      expect(server.url).toBe("http://reference.invalid")
      yield* check(() => Behaviour.servesTheClient(line, server, expect))
    })
  )

  it.effect("a missing object is a typed not_found", () =>
    check(() => Behaviour.missingIsNotFound(line, expect))
  )

  it.effect("faults switched on through the handle are retried without waiting", () =>
    Effect.gen(function* () {
      const server = yield* DataAccessTest.InProcess
      yield* server.setFaults({
        rules: [{ methods: ["ListSatellites"], fault: { _tag: "Unavailable" }, times: 2 }]
      })
      yield* check(() => Behaviour.retriesTwoUnavailable(line, server, expect))
      yield* server.setFaults({ rules: [] })
    })
  )

  it.effect("the client's headers reach the server, without the API key in its log", () =>
    Effect.gen(function* () {
      const server = yield* DataAccessTest.InProcess
      const users = yield* Services.UserService
      const created = yield* users.createHumanUserPassword({
        email: server.knownIds.users[0]!.email
      })
      expect(created.username.length).toBeGreaterThan(0)
      const [last] = (yield* server.requests).slice(-1)
      expect(last?.headers["user-agent"]).toBe(DataAccessClient.USER_AGENT)
      expect(last?.headers["connect-protocol-version"]).toBe("1")
      expect(last?.headers["x-api-key"]).toBeUndefined()
    })
  )
})

describe("options", () => {
  it.effect("client options apply and fixtures seed the server", () =>
    Effect.gen(function* () {
      const error = yield* Effect.gen(function* () {
        const server = yield* DataAccessTest.InProcess
        yield* server.setFaults({ rules: [{ fault: { _tag: "Unavailable" }, times: 1 }] })
        const client = yield* DataAccessClient.DataAccessClient
        return yield* Effect.flip(client.listLogQueries({ limit: 1 }))
      }).pipe(Effect.provide(DataAccessTest.layer({ client: { retryPolicy: RetryPolicy.none } })))
      expect(error._tag === "ConnectError" && error.code).toBe("unavailable")
      expect(ClientError.isRetryableRead(error)).toBe(true)
    })
  )

  it.effect("an empty server has nothing to list", () =>
    Effect.gen(function* () {
      const client = yield* DataAccessClient.DataAccessClient
      const page = yield* client.listSatellites({ limit: 10 })
      expect(page.satellites).toEqual([])
    }).pipe(Effect.provide(DataAccessTest.layer({ server: { data: "empty" } })))
  )

  it.effect("latitude switches make the server's other faithful choices", () =>
    Effect.gen(function* () {
      const read = Effect.gen(function* () {
        const client = yield* DataAccessClient.DataAccessClient
        const server = yield* DataAccessTest.InProcess
        const unknownKey = yield* Effect.either(
          client.getEncryptionKeysByKeyId({ keyId: "arn:aws:kms:none" })
        )
        const { integration } = yield* client.getDataCatalogIntegration({
          id: server.knownIds.dataCatalogIntegrations[0]!
        })
        return {
          switches: server.latitude,
          unknownKey:
            unknownKey._tag === "Right"
              ? unknownKey.right.encryptionKeys.length
              : unknownKey.left._tag === "ConnectError" && unknownKey.left.code,
          webhookSecret:
            integration.catalogVendorA === undefined
              ? undefined
              : Redacted.value(integration.catalogVendorA.webhookSecret)
        }
      })
      const byDefault = yield* read.pipe(Effect.provide(DataAccessTest.layer()))
      expect(byDefault).toEqual({ switches: [], unknownKey: 0, webhookSecret: "" })
      const switched = yield* read.pipe(
        Effect.provide(
          DataAccessTest.layer({ server: { latitude: ["parent-not-found", "return-secrets"] } })
        )
      )
      expect(switched).toEqual({
        switches: ["parent-not-found", "return-secrets"],
        unknownKey: "not_found",
        webhookSecret: expect.stringMatching(/^demo-whsec-/)
      })
    })
  )
})
