import type * as Operations from "@data-access/schema/Operations"
import * as Context from "effect/Context"
import type { ServiceClient } from "../Services.js"

export class ConnectorService extends Context.Tag("@data-access/client/ConnectorService")<
  ConnectorService,
  ServiceClient<"ConnectorService">
>() {}

export class IntegrationBIService extends Context.Tag("@data-access/client/IntegrationBIService")<
  IntegrationBIService,
  ServiceClient<"IntegrationBIService">
>() {}

export class IntegrationDataCatalogService extends Context.Tag(
  "@data-access/client/IntegrationDataCatalogService"
)<IntegrationDataCatalogService, ServiceClient<"IntegrationDataCatalogService">>() {}

export class IntegrationMDMService extends Context.Tag("@data-access/client/IntegrationMDMService")<
  IntegrationMDMService,
  ServiceClient<"IntegrationMDMService">
>() {}

export class LogsService extends Context.Tag("@data-access/client/LogsService")<
  LogsService,
  ServiceClient<"LogsService">
>() {}

export class PermissionsService extends Context.Tag("@data-access/client/PermissionsService")<
  PermissionsService,
  ServiceClient<"PermissionsService">
>() {}

export class PoliciesService extends Context.Tag("@data-access/client/PoliciesService")<
  PoliciesService,
  ServiceClient<"PoliciesService">
>() {}

export class PolicyDataLoaderService extends Context.Tag(
  "@data-access/client/PolicyDataLoaderService"
)<PolicyDataLoaderService, ServiceClient<"PolicyDataLoaderService">>() {}

export class ResourceService extends Context.Tag("@data-access/client/ResourceService")<
  ResourceService,
  ServiceClient<"ResourceService">
>() {}

export class SatelliteService extends Context.Tag("@data-access/client/SatelliteService")<
  SatelliteService,
  ServiceClient<"SatelliteService">
>() {}

export class ScenarioMonitoringService extends Context.Tag(
  "@data-access/client/ScenarioMonitoringService"
)<ScenarioMonitoringService, ServiceClient<"ScenarioMonitoringService">>() {}

export class SidecarService extends Context.Tag("@data-access/client/SidecarService")<
  SidecarService,
  ServiceClient<"SidecarService">
>() {}

export class UserService extends Context.Tag("@data-access/client/UserService")<
  UserService,
  ServiceClient<"UserService">
>() {}

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
