/**
 * Test layers for code that uses `@data-access/client`: the client served by the reference server
 * in process (no socket, no network), seeded with demo data or your own fixtures, with the
 * server's handle (`InProcess`) to read the seeded ids, switch faults on and see the requests.
 *
 * @example
 * ```ts
 * import { DataAccessTest } from "@data-access/testing"
 * import { Services } from "@data-access/client"
 * import { expect, layer } from "@effect/vitest"
 * import { Effect } from "effect"
 *
 * layer(DataAccessTest.layer())((it) => {
 *   it.effect("reads a resource", () =>
 *     Effect.gen(function*() {
 *       const server = yield* DataAccessTest.InProcess
 *       const resources = yield* Services.ResourceService
 *       const { resource } = yield* resources.getResource({ id: server.knownIds.resources[0]! })
 *       expect(resource.id).toBe(server.knownIds.resources[0])
 *     }))
 * })
 * ```
 *
 * @since 0.1.0
 */
import { DataAccessClient, RetryPolicy, type Services } from "@data-access/client"
import { ReferenceServer } from "@data-access/reference-server"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"

/**
 * The in-process server: `knownIds`, `setFaults`, `requests`, `seed`, `currentKnownIds`.
 *
 * @since 0.1.0
 * @category tags
 */
export const InProcess = ReferenceServer.InProcess

/**
 * @since 0.1.0
 * @category tags
 */
export type InProcess = ReferenceServer.InProcess

/**
 * Options of the test layer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * Options of the in-process reference server (`data`, `fixtures`, `faults`, `emitDefaults`...);
   * `latitude` turns on the server's other faithful choices (`ReferenceServer.latitude`), to test
   * code against a server that makes them.
   */
  readonly server?: ReferenceServer.Options | undefined
  /**
   * Client options. The retry policy defaults to `testRetryPolicy` (2 retries without waiting), so
   * that fault-injection tests run fast and never wait for a `TestClock`; pass `RetryPolicy.none`
   * to see every first error, or `RetryPolicy.defaultPolicy` to test the real waits.
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
export const testRetryPolicy: RetryPolicy.RetryPolicy = Schedule.recurs(2)

/**
 * The client (`DataAccessClient` and every service Tag) served in process by the reference
 * server, plus the server's `InProcess` handle. Each build of the layer gets a fresh server.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options = {}
): Layer.Layer<DataAccessClient.DataAccessClient | Services.Any | InProcess> => {
  const server = ReferenceServer.layerHttpClient(options.server ?? {})
  const client = Layer.unwrapEffect(
    Effect.map(InProcess, (running) =>
      DataAccessClient.layer({
        retryPolicy: testRetryPolicy,
        ...options.client,
        baseUrl: running.url,
        apiKey: Redacted.make(running.apiKeys[0] ?? ReferenceServer.DEFAULT_API_KEY)
      })
    )
  ).pipe(Layer.orDie)
  // `server` is one layer value, so it is built once and shared by the client and the handle.
  return Layer.provide(Layer.merge(client, Layer.effect(InProcess, InProcess)), server)
}
