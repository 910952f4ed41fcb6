/**
 * Test layers for Effect 4 code that uses `@data-access/client-effect4`: the client served by the
 * reference server, which runs in a child process on a loopback port (see
 * `ReferenceServerProcess`), seeded with demo data or your own fixtures, with fault plans.
 *
 * @example
 * ```ts
 * import { Services } from "@data-access/client-effect4"
 * import { DataAccessTest } from "@data-access/testing-effect4"
 * import { expect, layer } from "@effect/vitest"
 * import { Effect } from "effect"
 *
 * layer(DataAccessTest.layer(), { timeout: 60_000 })((it) => {
 *   it.effect("reads a resource", () =>
 *     Effect.gen(function*() {
 *       const server = yield* DataAccessTest.Server
 *       const resources = yield* Services.ResourceService
 *       const { resource } = yield* resources.getResource({ id: server.knownIds.resources[0]! })
 *       expect(resource.id).toBe(server.knownIds.resources[0])
 *     }))
 * })
 * ```
 *
 * @since 0.1.0
 */
import { DataAccessClient, type RetryPolicy, type Services } from "@data-access/client-effect4"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as ReferenceServerProcess from "./ReferenceServerProcess.js"

/**
 * The running server: `url`, `apiKey`, `knownIds`, `requests`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Server extends Context.Service<Server, ReferenceServerProcess.Running>()(
  "@data-access/testing-effect4/Server"
) {}

/**
 * Options of the test layer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Options of the server process (`data`, `fixtures`, `faults`, `latitude`, `emitDefaults`...). */
  readonly server?: ReferenceServerProcess.Options | undefined
  /**
   * Client options. The retry policy defaults to `testRetryPolicy` (2 retries without waiting), so
   * that fault-injection tests run fast; pass `RetryPolicy.none` to see every first error.
   */
  readonly client?: Partial<Omit<DataAccessClient.Options, "baseUrl" | "apiKey">> | undefined
}

/**
 * The retry policy of the test layer: 2 retries without waiting (a `Retry-After` from the server
 * still waits).
 *
 * @since 0.1.0
 * @category constants
 */
export const testRetryPolicy: RetryPolicy.RetryPolicy = Schedule.recurs(
  2
) as RetryPolicy.RetryPolicy

/**
 * The server alone, for the scope of the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerServer = (
  options: ReferenceServerProcess.Options = {}
): Layer.Layer<Server, ReferenceServerProcess.StartError> =>
  Layer.effect(Server, ReferenceServerProcess.start(options))

/**
 * The client (`DataAccessClient` and every service) over Node's HttpClient (undici), served by a
 * fresh reference server process, plus the `Server` handle. The server stops with the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<DataAccessClient.DataAccessClient | Services.Any | Server> => {
  const server = layerServer(options.server)
  const client = Layer.unwrap(
    Effect.map(Effect.service(Server), (running) =>
      DataAccessClient.layer({
        retryPolicy: testRetryPolicy,
        ...options.client,
        baseUrl: running.url,
        apiKey: Redacted.make(running.apiKey)
      })
    )
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))
  return Layer.provideMerge(client, server).pipe(Layer.orDie)
}
