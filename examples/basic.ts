/**
 * The data-access client in one program: list a page, page through everything with a stream,
 * update an object, and handle a not_found.
 *
 * Runs against `DATA_ACCESS_BASE_URL` / `DATA_ACCESS_API_KEY` when they are set; otherwise it
 * starts the reference server on a loopback port and talks to it over HTTP.
 *
 *   pnpm --filter @data-access/examples start
 */
import { ClientError, DataAccessClient, Services } from "@data-access/client"
import { ReferenceServer } from "@data-access/reference-server"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"

const program = Effect.gen(function* () {
  const satellites = yield* Services.SatelliteService
  const resources = yield* Services.ResourceService

  // 1. One page.
  const page = yield* satellites.listSatellites({ limit: 5, order: "desc" })
  yield* Console.log(
    `First page: ${page.listMetadata.count} satellites (more: ${page.listMetadata.nextCursor !== ""})`
  )
  for (const s of page.satellites)
    yield* Console.log(`  ${s.id}  ${s.satelliteType.padEnd(18)} ${s.name}`)

  // 2. Every page, as a stream of items (the client follows nextCursor).
  const all = yield* satellites.listSatellitesStream({}, { pageSize: 25 }).pipe(Stream.runCollect)
  yield* Console.log(`All satellites, 25 per page: ${all.length}`)

  // 3. An update: only the fields sent change.
  const first = page.satellites[0]
  if (first !== undefined) {
    const { satellite } = yield* satellites.updateSatellite({
      id: first.id,
      name: `${first.name}-renamed`
    })
    yield* Console.log(
      `Renamed ${satellite.id} to ${satellite.name} (updatedAt ${satellite.updatedAt?.toString() ?? "unset"})`
    )
  }

  // 4. A typed not_found.
  const missing = yield* resources.getResource({ id: "resource_does_not_exist" }).pipe(
    Effect.map(({ resource }) => `found ${resource.name}`),
    Effect.catchIf(ClientError.hasCode("not_found"), (error) =>
      Effect.succeed(`not_found (HTTP ${error.httpStatus}): ${error.message}`)
    )
  )
  yield* Console.log(`GetResource of an unknown id: ${missing}`)
})

/** The client against the configured service, or against an embedded reference server. */
const ClientLive = Layer.unwrapScoped(
  Effect.gen(function* () {
    if (process.env[DataAccessClient.BASE_URL_ENV]) return DataAccessClient.layerConfig()
    const server = yield* ReferenceServer.start()
    yield* Console.log(`Embedded reference server at ${server.url}`)
    return DataAccessClient.layer({
      baseUrl: server.url,
      apiKey: Redacted.make(server.apiKeys[0]!)
    })
  })
).pipe(Layer.provide(NodeHttpClient.layerUndici))

program.pipe(Effect.provide(ClientLive), NodeRuntime.runMain)
