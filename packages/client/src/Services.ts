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
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"
import type { ClientError, CursorRepeatedError } from "./ClientError.js"
import type { CallOptions, ItemOf, StreamOptions } from "./internal/client.js"

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
export class ConnectorService extends Context.Tag("@data-access/client/ConnectorService")<
  ConnectorService,
  ServiceClient<"ConnectorService">
>() {}
/** @since 0.1.0 @category tags */
export class IntegrationBIService extends Context.Tag("@data-access/client/IntegrationBIService")<
  IntegrationBIService,
  ServiceClient<"IntegrationBIService">
>() {}
/** @since 0.1.0 @category tags */
export class IntegrationDataCatalogService extends Context.Tag(
  "@data-access/client/IntegrationDataCatalogService"
)<IntegrationDataCatalogService, ServiceClient<"IntegrationDataCatalogService">>() {}
/** @since 0.1.0 @category tags */
export class IntegrationMDMService extends Context.Tag("@data-access/client/IntegrationMDMService")<
  IntegrationMDMService,
  ServiceClient<"IntegrationMDMService">
>() {}
/** @since 0.1.0 @category tags */
export class LogsService extends Context.Tag("@data-access/client/LogsService")<
  LogsService,
  ServiceClient<"LogsService">
>() {}
/** @since 0.1.0 @category tags */
export class PermissionsService extends Context.Tag("@data-access/client/PermissionsService")<
  PermissionsService,
  ServiceClient<"PermissionsService">
>() {}
/** @since 0.1.0 @category tags */
export class PoliciesService extends Context.Tag("@data-access/client/PoliciesService")<
  PoliciesService,
  ServiceClient<"PoliciesService">
>() {}
/** @since 0.1.0 @category tags */
export class PolicyDataLoaderService extends Context.Tag(
  "@data-access/client/PolicyDataLoaderService"
)<PolicyDataLoaderService, ServiceClient<"PolicyDataLoaderService">>() {}
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
export class ResourceService extends Context.Tag("@data-access/client/ResourceService")<
  ResourceService,
  ServiceClient<"ResourceService">
>() {}
/** @since 0.1.0 @category tags */
export class SatelliteService extends Context.Tag("@data-access/client/SatelliteService")<
  SatelliteService,
  ServiceClient<"SatelliteService">
>() {}
/** @since 0.1.0 @category tags */
export class ScenarioMonitoringService extends Context.Tag(
  "@data-access/client/ScenarioMonitoringService"
)<ScenarioMonitoringService, ServiceClient<"ScenarioMonitoringService">>() {}
/** @since 0.1.0 @category tags */
export class SidecarService extends Context.Tag("@data-access/client/SidecarService")<
  SidecarService,
  ServiceClient<"SidecarService">
>() {}
/** @since 0.1.0 @category tags */
export class UserService extends Context.Tag("@data-access/client/UserService")<
  UserService,
  ServiceClient<"UserService">
>() {}

/**
 * The Tag of each service, keyed by service name. The type checks that every service of the
 * operation table has exactly one Tag with the computed shape.
 *
 * @since 0.1.0
 * @category tags
 */
export const tags = {
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
} as const satisfies { readonly [S in Operations.ServiceName]: Context.Tag<any, ServiceClient<S>> }

// A Tag for a service the table does not have is a compile error too.
type _Exact = Exclude<keyof typeof tags, Operations.ServiceName> extends never ? true : never
const _exact: _Exact = true
void _exact

/**
 * Every service Tag's identifier: what `DataAccessClient.layer` provides besides the combined
 * client.
 *
 * @since 0.1.0
 * @category tags
 */
export type Any = Context.Tag.Identifier<(typeof tags)[keyof typeof tags]>
