/**
 * The data-access client: one object with every operation (`DataAccessClient`) and one service
 * per API service (`Services`), built from the operation table over the abstract
 * `HttpClient.HttpClient`. The application provides the Node or fetch implementation.
 *
 * @example
 * ```ts
 * import { DataAccessClient, Services } from "@data-access/client"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const resources = yield* Services.ResourceService
 *   return yield* resources.getResource({ id: "resource_01h45ytscbebyvny4gc8cr8ma2" })
 * })
 * const Client = DataAccessClient.layer({ baseUrl: "https://api.example.com", apiKey: Redacted.make("key") })
 * program.pipe(Effect.provide(Client.pipe(Layer.provide(NodeHttpClient.layerUndici))))
 * ```
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as Operations from "@data-access/schema/Operations"
import * as Config from "effect/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Stream from "effect/Stream"
import type { ClientError, CursorRepeatedError } from "./ClientError.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as Services from "./Services.js"
import * as internal from "./internal/dataAccessClient.js"
import type { DataAccessClient } from "./internal/dataAccessClient.js"

/**
 * The environment variable `layerConfig` reads the base URL from.
 *
 * @since 0.1.0
 * @category config
 */
export const BASE_URL_ENV: "DATA_ACCESS_BASE_URL" = internal.BASE_URL_ENV

/**
 * The environment variable `layerConfig` reads the API key from (as a `Redacted` value).
 *
 * @since 0.1.0
 * @category config
 */
export const API_KEY_ENV: "DATA_ACCESS_API_KEY" = internal.API_KEY_ENV

/**
 * The `User-Agent` every call sends: `@data-access/client/<version>`.
 *
 * @since 0.1.0
 * @category constants
 */
export const USER_AGENT: string = internal.USER_AGENT

/**
 * Default overall budget of a call across all its attempts: 30 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_TIMEOUT: Duration.Duration = internal.DEFAULT_TIMEOUT

/**
 * Default timeout of one attempt: 10 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ATTEMPT_TIMEOUT: Duration.Duration = internal.DEFAULT_ATTEMPT_TIMEOUT

/**
 * Options of the client.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The service's base URL (`https://api.example.com`), without the `/core.v1...` path. */
  readonly baseUrl: string
  /** The API key sent as `X-API-KEY`. */
  readonly apiKey: Redacted.Redacted<string>
  /** Retry policy of every call (default `RetryPolicy.defaultPolicy`); a call may pass its own. */
  readonly retryPolicy?: RetryPolicy.RetryPolicy | undefined
  /** Overall budget of a call across retries (default 30 s); sent as `Connect-Timeout-Ms`. */
  readonly timeout?: Duration.DurationInput | undefined
  /** Timeout of one attempt (default 10 s). */
  readonly attemptTimeout?: Duration.DurationInput | undefined
  /** Transforms the `HttpClient` the client sends through (add a proxy, logging, tracing options...). */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * The combined client: every operation as a lowerCamelCase method (`getResource`), every List
 * operation also as a paging stream (`listNativeUsersStream`), each service's client under
 * `services`, and `call` / `stream` by method name.
 *
 * @since 0.1.0
 * @category models
 */
export type Service = Services.Methods<Operations.MethodName> & {
  /** The client of each API service. */
  readonly services: { readonly [S in Operations.ServiceName]: Services.ServiceClient<S> }
  /** Calls an operation by its method name. */
  readonly call: <M extends Operations.MethodName>(
    method: M,
    request: Operations.RequestOf<M>,
    options?: Services.CallOptions
  ) => Effect.Effect<Operations.ResponseOf<M>, ClientError>
  /** Streams every item of a List operation by its method name. */
  readonly stream: <M extends Operations.ListMethod>(
    method: M,
    request: Services.PageRequestOf<M>,
    options?: Services.StreamOptions
  ) => Stream.Stream<Services.ItemOf<M>, ClientError | CursorRepeatedError>
}

/**
 * The combined client.
 *
 * @since 0.1.0
 * @category tags
 */
export { DataAccessClient } from "./internal/dataAccessClient.js"

/**
 * Builds the combined client over the `HttpClient` in the context. Fails with a `ConfigError` when
 * `baseUrl` is not an absolute http(s) URL.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (
  options: Options
) => Effect.Effect<Service, ConfigError.ConfigError, HttpClient.HttpClient> = internal.make

/**
 * The client of one API service, taken from the combined client.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeService: <S extends Operations.ServiceName>(
  service: S
) => Effect.Effect<Services.ServiceClient<S>, never, DataAccessClient> = internal.makeService

/**
 * Builds the context of the combined client and every service Tag from a client.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toContext: (client: Service) => Context.Context<DataAccessClient | Services.Any> =
  internal.toContext

/**
 * A layer with the combined client and every service Tag (`Services.ResourceService`, ...).
 * Requires an `HttpClient.HttpClient` (e.g. `NodeHttpClient.layerUndici` or
 * `FetchHttpClient.layer`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: (
  options: Options
) => Layer.Layer<DataAccessClient | Services.Any, ConfigError.ConfigError, HttpClient.HttpClient> =
  internal.layer

/**
 * The options `layerConfig` reads through `Config`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ConfigOptions {
  /** Default `Config.string("DATA_ACCESS_BASE_URL")`. */
  readonly baseUrl?: Config.Config<string> | undefined
  /** Default `Config.redacted("DATA_ACCESS_API_KEY")`. */
  readonly apiKey?: Config.Config<Redacted.Redacted<string>> | undefined
  readonly timeout?: Config.Config<Duration.Duration> | undefined
  readonly attemptTimeout?: Config.Config<Duration.Duration> | undefined
  readonly retryPolicy?: RetryPolicy.RetryPolicy | undefined
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
}

/**
 * `layer` with its options read through `Config`: by default the base URL from
 * `DATA_ACCESS_BASE_URL` and the API key from `DATA_ACCESS_API_KEY` (kept `Redacted`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerConfig: (
  config?: ConfigOptions
) => Layer.Layer<DataAccessClient | Services.Any, ConfigError.ConfigError, HttpClient.HttpClient> =
  internal.layerConfig
