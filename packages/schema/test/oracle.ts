import type * as Operations from "../src/Operations.js"

/**
 * The test oracle: the endpoint table of interface.md, spelled out once. Service, method, kind,
 * wrapper key (get/create/update) or item field (list).
 */
export const table: ReadonlyArray<
  readonly [service: string, method: string, kind: Operations.Kind, key: string | undefined]
> = [
  ["ScenarioMonitoringService", "ListScenarioMonitors", "list", "monitors"],
  ["ResourceService", "CreateNativeUserIdentityLink", "create", "link"],
  ["ConnectorService", "UpdateConnectorHostname", "update", "connectorHostname"],
  ["SatelliteService", "ListSatellites", "list", "satellites"],
  ["ResourceService", "GetResource", "get", "resource"],
  ["PoliciesService", "ListPolicyStageConfigurations", "list", "policyStageConfigurations"],
  ["IntegrationDataCatalogService", "GetDataCatalogIntegration", "get", "integration"],
  ["PoliciesService", "GetPolicyStageConfiguration", "get", "policyStageConfiguration"],
  ["ConnectorService", "CreateConnector", "create", "connector"],
  ["LogsService", "GetEncryptionKeysByKeyId", "get", "encryptionKeys"],
  ["LogsService", "ListLogQueries", "list", "savedQueries"],
  ["ResourceService", "ListNativeUsers", "list", "nativeUsers"],
  ["ConnectorService", "UpdateConnectorListenerLink", "update", "connectorListenerLink"],
  ["IntegrationMDMService", "ListIntegrationsMDM", "list", "integrations"],
  ["PolicyDataLoaderService", "CreatePolicyDataLoader", "create", "policyDataLoader"],
  ["UserService", "CreateHumanUserPassword", "create", undefined],
  ["ResourceService", "CreateDataDiscoveryConfiguration", "create", "dataDiscoveryConfiguration"],
  ["PermissionsService", "CreatePermission", "create", "permission"],
  ["IntegrationBIService", "CreateBIIntegration", "create", "integration"],
  ["IntegrationMDMService", "CreateIntegrationMDM", "create", "integration"],
  ["SidecarService", "UpdateSidecarResourceLink", "update", "link"],
  ["SatelliteService", "UpdateSatellite", "update", "satellite"]
]
