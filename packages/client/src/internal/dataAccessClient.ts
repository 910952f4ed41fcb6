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
import * as internal from "./client.js"
import * as RetryPolicy from "./retryPolicy.js"
import type * as Services from "../Services.js"
import { tags } from "./services.js"
import type { Options, Service, ConfigOptions } from "../DataAccessClient.js"

export class DataAccessClient extends Context.Tag("@data-access/client/DataAccessClient")<
  DataAccessClient,
  Service
>() {}

export const BASE_URL_ENV = "DATA_ACCESS_BASE_URL"

export const API_KEY_ENV = "DATA_ACCESS_API_KEY"

export const USER_AGENT: string = internal.USER_AGENT

export const DEFAULT_TIMEOUT: Duration.Duration = Duration.millis(
  CoreDeadline.DEFAULT_TIMEOUT_MILLIS
)

export const DEFAULT_ATTEMPT_TIMEOUT: Duration.Duration = Duration.millis(
  CoreDeadline.DEFAULT_ATTEMPT_TIMEOUT_MILLIS
)

const validateBaseUrl = (baseUrl: string): Effect.Effect<string, ConfigError.ConfigError> => {
  const normalized = Request.normalizeBaseUrl(baseUrl)
  return normalized !== undefined
    ? Effect.succeed(normalized)
    : Effect.fail(ConfigError.InvalidData(["baseUrl"], Request.INVALID_BASE_URL))
}

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

export const makeService = <S extends Operations.ServiceName>(
  service: S
): Effect.Effect<Services.ServiceClient<S>, never, DataAccessClient> =>
  Effect.map(DataAccessClient, (client) => client.services[service])

export const toContext = (client: Service): Context.Context<DataAccessClient | Services.Any> => {
  let context: Context.Context<DataAccessClient | Services.Any> = Context.make(
    DataAccessClient,
    client
  ) as Context.Context<DataAccessClient | Services.Any>
  for (const name of Object.keys(tags) as Array<Operations.ServiceName>) {
    context = Context.add(
      context,
      tags[name] as Context.Tag<Services.Any, unknown>,
      client.services[name]
    )
  }
  return context
}

export const layer = (
  options: Options
): Layer.Layer<DataAccessClient | Services.Any, ConfigError.ConfigError, HttpClient.HttpClient> =>
  Layer.effectContext(Effect.map(make(options), toContext))

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
