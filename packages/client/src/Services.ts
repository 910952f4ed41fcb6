/**
 * One service per API service, each a `Context.Tag` whose methods are computed from the operation
 * table: every operation of the service becomes a lowerCamelCase method (`getResource`), and every
 * List operation also gets a paging stream (`listNativeUsersStream`).
 *
 * @since 0.1.0
 */
import type * as Operation from "@data-access/core/Operation"
import type * as Paging from "@data-access/core/Paging"
import type * as Operations from "@data-access/schema/Operations"
import type * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { ClientError, CursorRepeatedError } from "./ClientError.js"
import type { CallOptions, ItemOf, StreamOptions } from "./internal/client.js"
import * as internal from "./internal/services.js"
import type {
  ConnectorService,
  IntegrationBIService,
  IntegrationDataCatalogService,
  IntegrationMDMService,
  LogsService,
  PermissionsService,
  PoliciesService,
  PolicyDataLoaderService,
  ResourceService,
  SatelliteService,
  ScenarioMonitoringService,
  SidecarService,
  UserService
} from "./internal/services.js"

export type {
  /**
   * Options every call accepts: `retryPolicy`, `timeout` (overall budget across retries) and
   * `attemptTimeout` (one attempt).
   *
   * @since 0.1.0
   * @category models
   */
  CallOptions,
  /**
   * The element type of a List operation's page.
   *
   * @since 0.1.0
   * @category models
   */
  ItemOf,
  /**
   * `CallOptions` plus `pageSize` (default `Requests.DEFAULT_PAGE_SIZE`, 100).
   *
   * @since 0.1.0
   * @category models
   */
  StreamOptions
}

/**
 * The request of a paging stream: the List request without `limit` and `cursor`, which the stream
 * sets.
 *
 * @since 0.1.0
 * @category models
 */
export type PageRequestOf<M extends Operations.ListMethod> = Paging.PageRequest<
  Operations.RequestOf<M>
>

/**
 * The method of one operation: takes the decoded request, returns the decoded response.
 *
 * @since 0.1.0
 * @category models
 */
export type Method<M extends Operations.MethodName> = (
  request: Operations.RequestOf<M>,
  options?: CallOptions
) => Effect.Effect<Operations.ResponseOf<M>, ClientError>

/**
 * The paging stream of one List operation: every item of every page.
 *
 * @since 0.1.0
 * @category models
 */
export type PageStream<M extends Operations.ListMethod> = (
  request: PageRequestOf<M>,
  options?: StreamOptions
) => Stream.Stream<ItemOf<M>, ClientError | CursorRepeatedError>

/**
 * The methods of a set of operations, named in lowerCamelCase, plus a `<method>Stream` for each
 * List operation.
 *
 * @since 0.1.0
 * @category models
 */
export type Methods<M extends Operations.MethodName> = Operation.Methods<
  M,
  Operations.ListMethod,
  { readonly [K in Operations.MethodName]: Method<K> },
  { readonly [K in Operations.ListMethod]: PageStream<K> }
>

/**
 * The client of one API service.
 *
 * @since 0.1.0
 * @category models
 */
export type ServiceClient<S extends Operations.ServiceName> = Methods<Operations.MethodsOf<S>>

/** @since 0.1.0 @category tags */
export { ConnectorService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { IntegrationBIService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { IntegrationDataCatalogService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { IntegrationMDMService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { LogsService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { PermissionsService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { PoliciesService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { PolicyDataLoaderService } from "./internal/services.js"

/**
 * The client of the API's `ResourceService`, provided by `DataAccessClient.layer`.
 *
 * @example
 * ```ts
 * import { Services } from "@data-access/client"
 * import { Effect, Stream } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const resources = yield* Services.ResourceService
 *   const { resource } = yield* resources.getResource({ id: "resource_01h45ytscbebyvny4gc8cr8ma2" })
 *   yield* resources.listNativeUsersStream({ resourceId: resource.id }, { pageSize: 50 }).pipe(
 *     Stream.runForEach((user) => Effect.log(user.username))
 *   )
 * })
 * ```
 *
 * @since 0.1.0
 * @category tags
 */
export { ResourceService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { SatelliteService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { ScenarioMonitoringService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { SidecarService } from "./internal/services.js"

/** @since 0.1.0 @category tags */
export { UserService } from "./internal/services.js"

/**
 * The Tag of each service, keyed by service name. The type checks that every service of the
 * operation table has exactly one Tag with the computed shape.
 *
 * @since 0.1.0
 * @category tags
 */
export const tags: {
  readonly ConnectorService: typeof ConnectorService
  readonly IntegrationBIService: typeof IntegrationBIService
  readonly IntegrationDataCatalogService: typeof IntegrationDataCatalogService
  readonly IntegrationMDMService: typeof IntegrationMDMService
  readonly LogsService: typeof LogsService
  readonly PermissionsService: typeof PermissionsService
  readonly PoliciesService: typeof PoliciesService
  readonly PolicyDataLoaderService: typeof PolicyDataLoaderService
  readonly ResourceService: typeof ResourceService
  readonly SatelliteService: typeof SatelliteService
  readonly ScenarioMonitoringService: typeof ScenarioMonitoringService
  readonly SidecarService: typeof SidecarService
  readonly UserService: typeof UserService
} = internal.tags

/**
 * Every service Tag's identifier: what `DataAccessClient.layer` provides besides the combined
 * client.
 *
 * @since 0.1.0
 * @category tags
 */
export type Any = Context.Tag.Identifier<(typeof tags)[keyof typeof tags]>
