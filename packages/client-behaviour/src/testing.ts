/**
 * What both lines' test layers (`DataAccessTest.layer` of `@data-access/testing` and
 * `@data-access/testing-effect4`) must do for the client they serve, written once as generators
 * over a line's modules: each `yield*` is an effect of the line, and the line's test runs the
 * generator inside its own `Effect.gen` (`yield* Behaviour.servesTheClient(line, server, expect)`).
 */
import type { Expect } from "./verify.js"
import type { RequestLine } from "./scenario.js"

/**
 * The parts of a line's modules the checks use: its client's `DataAccessClient` and `Services`,
 * and `effect`'s `Effect` and `Stream`. They are typed loosely here, as each line's are its own.
 */
export interface TestLayerLine {
  readonly DataAccessClient: { readonly DataAccessClient: any }
  readonly Services: { readonly ResourceService: any; readonly SatelliteService: any }
  readonly Effect: { readonly flip: (self: any) => any }
  readonly Stream: { readonly runCollect: (self: any) => any }
}

/** The test layer's server, as the checks read it. */
export interface TestLayerServer {
  readonly knownIds: { readonly resources: ReadonlyArray<string> }
  /** The line's effect of the server's request log so far. */
  readonly requests: any
}

const lines = function* (
  server: TestLayerServer,
  method: string
): Generator<any, ReadonlyArray<RequestLine>, any> {
  const all: ReadonlyArray<RequestLine> = yield* server.requests
  return all.filter((r) => r.method === method)
}

/**
 * The layer serves the client from the seeded server: a resource read by its id through its
 * service, and a paging stream of 40 items a page over more than 80 native users, one request per
 * page.
 */
export function* servesTheClient(
  line: TestLayerLine,
  server: TestLayerServer,
  expect: Expect
): Generator<any, void, any> {
  const resources = yield* line.Services.ResourceService
  const id = server.knownIds.resources[0]!
  const { resource } = yield* resources.getResource({ id })
  expect(resource.id).toBe(id)
  const users = Array.from(
    yield* line.Stream.runCollect(
      resources.listNativeUsersStream({ resourceId: id }, { pageSize: 40 })
    )
  )
  expect(users.length).toBeGreaterThan(80)
  expect((yield* lines(server, "ListNativeUsers")).length).toBe(Math.ceil(users.length / 40))
}

/** A missing object is a typed `not_found`. */
export function* missingIsNotFound(line: TestLayerLine, expect: Expect): Generator<any, void, any> {
  const client = yield* line.DataAccessClient.DataAccessClient
  const error = yield* line.Effect.flip(client.getResource({ id: "resource_missing" }))
  expect(error._tag).toBe("ConnectError")
  expect(error._tag === "ConnectError" && error.code).toBe("not_found")
}

/**
 * A read that the server's fault plan answers `unavailable` twice (`ListSatellites`) is retried by
 * the layer's test retry policy without waiting, and succeeds.
 */
export function* retriesTwoUnavailable(
  line: TestLayerLine,
  server: TestLayerServer,
  expect: Expect
): Generator<any, void, any> {
  const satellites = yield* line.Services.SatelliteService
  const page = yield* satellites.listSatellites({ limit: 5 })
  expect(page.satellites).toHaveLength(5)
  expect((yield* lines(server, "ListSatellites")).map((r) => r.code)).toEqual([
    "unavailable",
    "unavailable",
    "ok"
  ])
}
