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
import * as CoreDeadline from "@data-access/core/Deadline"
import * as Operation from "@data-access/core/Operation"
import * as Request from "@data-access/core/Request"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Operations from "@data-access/schema/Operations"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Stream from "effect/Stream"
import type { ClientError, CursorRepeatedError } from "./ClientError.js"
import * as internal from "./internal/client.js"
import * as RetryPolicy from "./RetryPolicy.js"
import * as Services from "./Services.js"

/**
 * The environment variable `layerConfig` reads the base URL from.
 *
 * @since 0.1.0
 * @category config
 */
export const BASE_URL_ENV = "DATA_ACCESS_BASE_URL"

/**
 * The environment variable `layerConfig` reads the API key from (as a `Redacted` value).
 *
 * @since 0.1.0
 * @category config
 */
export const API_KEY_ENV = "DATA_ACCESS_API_KEY"

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
export const DEFAULT_TIMEOUT: Duration.Duration = Duration.millis(
  CoreDeadline.DEFAULT_TIMEOUT_MILLIS
)

/**
 * Default timeout of one attempt: 10 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ATTEMPT_TIMEOUT: Duration.Duration = Duration.millis(
  CoreDeadline.DEFAULT_ATTEMPT_TIMEOUT_MILLIS
)

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
export class DataAccessClient extends Context.Tag("@data-access/client/DataAccessClient")<
  DataAccessClient,
  Service
>() {}

const validateBaseUrl = (baseUrl: string): Effect.Effect<string, ConfigError.ConfigError> => {
  const normalized = Request.normalizeBaseUrl(baseUrl)
  return normalized !== undefined
    ? Effect.succeed(normalized)
    : Effect.fail(ConfigError.InvalidData(["baseUrl"], Request.INVALID_BASE_URL))
}

/**
 * Builds the combined client over the `HttpClient` in the context. Fails with a `ConfigError` when
 * `baseUrl` is not an absolute http(s) URL.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<Service, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const baseUrl = yield* validateBaseUrl(options.baseUrl)
    const base = yield* HttpClient.HttpClient
    const httpClient = options.transformClient ? options.transformClient(base) : base
    const config: internal.ResolvedConfig = {
      baseUrl,
      apiKey: options.apiKey,
      retryPolicy: options.retryPolicy ?? RetryPolicy.defaultPolicy,
      timeout: options.timeout !== undefined ? Duration.decode(options.timeout) : DEFAULT_TIMEOUT,
      attemptTimeout:
        options.attemptTimeout !== undefined
          ? Duration.decode(options.attemptTimeout)
          : DEFAULT_ATTEMPT_TIMEOUT,
      userAgent: internal.USER_AGENT
    }
    const client = Operation.assemble(
      Operations.all,
      (op) => internal.makeCall(httpClient, config, op),
      internal.makePageStream
    )
    return {
      ...client.flat,
      services: client.services,
      call: (method: string, request: unknown, callOptions?: Services.CallOptions) =>
        client.call(method)(request, callOptions),
      stream: (method: string, request: unknown, streamOptions?: Services.StreamOptions) =>
        client.stream(method)(request, streamOptions)
    } as unknown as Service
  })

/**
 * The client of one API service, taken from the combined client.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeService = <S extends Operations.ServiceName>(
  service: S
): Effect.Effect<Services.ServiceClient<S>, never, DataAccessClient> =>
  Effect.map(DataAccessClient, (client) => client.services[service])

/**
 * Builds the context of the combined client and every service Tag from a client.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toContext = (client: Service): Context.Context<DataAccessClient | Services.Any> => {
  let context: Context.Context<DataAccessClient | Services.Any> = Context.make(
    DataAccessClient,
    client
  ) as Context.Context<DataAccessClient | Services.Any>
  for (const name of Object.keys(Services.tags) as Array<Operations.ServiceName>) {
    context = Context.add(
      context,
      Services.tags[name] as Context.Tag<Services.Any, unknown>,
      client.services[name]
    )
  }
  return context
}

/**
 * A layer with the combined client and every service Tag (`Services.ResourceService`, ...).
 * Requires an `HttpClient.HttpClient` (e.g. `NodeHttpClient.layerUndici` or
 * `FetchHttpClient.layer`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: Options
): Layer.Layer<DataAccessClient | Services.Any, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effectContext(Effect.map(make(options), toContext))

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
export const layerConfig = (
  config: ConfigOptions = {}
): Layer.Layer<DataAccessClient | Services.Any, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const baseUrl = yield* config.baseUrl ?? Config.string(BASE_URL_ENV)
      const apiKey = yield* config.apiKey ?? Config.redacted(API_KEY_ENV)
      const timeout = config.timeout ? yield* config.timeout : undefined
      const attemptTimeout = config.attemptTimeout ? yield* config.attemptTimeout : undefined
      return toContext(
        yield* make({
          baseUrl,
          apiKey,
          timeout,
          attemptTimeout,
          retryPolicy: config.retryPolicy,
          transformClient: config.transformClient
        })
      )
    })
  )
