import * as Behaviour from "@data-access/client-behaviour"
import { DataAccessClient, RetryPolicy, Services } from "@data-access/client-effect4"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { DataAccessTest, ReferenceServerProcess } from "../src/index.js"

/** What the shared checks of a test layer (@data-access/client-behaviour) use of this line. */
const line: Behaviour.TestLayerLine = { DataAccessClient, Effect, Services, Stream }

layer(DataAccessTest.layer(), { timeout: 60_000 })("DataAccessTest.layer", (it) => {
  it.effect("serves the client from the seeded reference server in its own process", () =>
    Effect.gen(function* () {
      const server = yield* DataAccessTest.Server
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      yield* Behaviour.servesTheClient(line, server, expect)
    })
  )

  it.effect("a missing object is a typed not_found", () =>
    Effect.gen(() => Behaviour.missingIsNotFound(line, expect))
  )
})

layer(
  DataAccessTest.layer({
    server: {
      faults: { rules: [{ methods: ["ListSatellites"], fault: { _tag: "Unavailable" }, times: 2 }] }
    }
  }),
  { timeout: 60_000 }
)("a fault plan", (it) => {
  it.effect("is retried by the test retry policy without waiting", () =>
    Effect.gen(function* () {
      yield* Behaviour.retriesTwoUnavailable(line, yield* DataAccessTest.Server, expect)
    })
  )
})

layer(
  DataAccessTest.layer({
    server: {
      data: "empty",
      fixtures: {
        spaces: [
          {
            id: "space_prod",
            name: "production",
            createdAt: "2025-01-06T09:00:00Z",
            updatedAt: "2025-01-06T09:00:00Z"
          }
        ],
        resources: [
          {
            id: "resource_orders",
            name: "orders-db",
            technology: "postgres",
            hostname: "orders.internal",
            port: 5432,
            spaceId: "space_prod"
          }
        ]
      }
    },
    client: { retryPolicy: RetryPolicy.none }
  }),
  { timeout: 60_000 }
)("fixtures on an empty store", (it) => {
  it.effect("are what the server holds", () =>
    Effect.gen(function* () {
      const server = yield* DataAccessTest.Server
      expect(server.knownIds.resources).toEqual(["resource_orders"])
      const { resource } = yield* Effect.flatMap(Services.ResourceService, (s) =>
        s.getResource({ id: "resource_orders" })
      )
      expect(resource.name).toBe("orders-db")
      expect(resource.port).toBe(5432)
      const satellites = yield* Effect.flatMap(Services.SatelliteService, (s) =>
        s.listSatellites({ limit: 5 })
      )
      expect(satellites.satellites).toEqual([])
    })
  )
})

describe("ReferenceServerProcess", () => {
  it("runs the installed server when the effect next to it is on the 3 line", () => {
    const command = ReferenceServerProcess.defaultCommand()
    expect(command[0]).toBe(process.execPath)
    expect(command[1]).toMatch(/reference-server[/\\]bin[/\\]reference-server\.js$/)
  })

  it.live("a command that does not start a server is a StartError", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        Effect.scoped(
          ReferenceServerProcess.start({
            command: [process.execPath, "-e", "process.exit(3)", "--"]
          })
        )
      )
      expect(error._tag).toBe("StartError")
      expect(error.message).toContain("exited (3)")
    })
  )
})

describe("SERVER_RANGE", () => {
  it("is the released range of the server, or latest in the workspace", () => {
    expect(ReferenceServerProcess.SERVER_RANGE).toBe("latest")
    expect(ReferenceServerProcess.defaultCommand()[0]).not.toBe("npx")
  })
})
