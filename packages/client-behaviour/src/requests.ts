/**
 * One valid request per operation, built from the ids the server was seeded with, for both
 * clients' integration tests. Secret fields are made by the line's `Redacted.make` (`secret`).
 * Each client's test checks that every operation of its table has one.
 */

const first = (ids: ReadonlyArray<string>, what: string): string => {
  const id = ids[0]
  if (id === undefined) throw new Error(`the server holds no ${what}`)
  return id
}

/** The ids a request needs (a part of `KnownIds`). */
export interface Ids {
  readonly groups: ReadonlyArray<string>
  readonly connectorHostnames: ReadonlyArray<string>
  readonly dataCatalogIntegrations: ReadonlyArray<string>
  readonly policyStageConfigurations: ReadonlyArray<string>
  readonly encryptionKeyIds: ReadonlyArray<string>
  readonly connectorListenerLinks: ReadonlyArray<string>
  readonly sidecarResourceLinks: ReadonlyArray<string>
  readonly satellites: ReadonlyArray<string>
  readonly users: ReadonlyArray<{ readonly email: string }>
}

export interface RequestContext {
  readonly ids: Ids
  /** A native user of `resource`. */
  readonly nativeUserId: string
  readonly resourceId: string
  readonly suffix: string
  /** The line's `Redacted.make`. */
  readonly secret: (value: string) => unknown
}

export const requestFor: Readonly<Record<string, (c: RequestContext) => unknown>> = {
  ListScenarioMonitors: () => ({ limit: 10 }),
  CreateNativeUserIdentityLink: (c) => ({
    nativeUserId: c.nativeUserId,
    identityId: first(c.ids.groups, "group"),
    identityType: "group"
  }),
  UpdateConnectorHostname: (c) => ({
    id: first(c.ids.connectorHostnames, "connector hostname"),
    hostname: `h-${c.suffix}.example.com`
  }),
  ListSatellites: () => ({ limit: 10 }),
  GetResource: (c) => ({ id: c.resourceId }),
  ListPolicyStageConfigurations: () => ({ limit: 10 }),
  GetDataCatalogIntegration: (c) => ({
    id: first(c.ids.dataCatalogIntegrations, "data catalog integration")
  }),
  GetPolicyStageConfiguration: (c) => ({
    id: first(c.ids.policyStageConfigurations, "policy stage configuration")
  }),
  CreateConnector: (c) => ({ name: `conn-${c.suffix}` }),
  GetEncryptionKeysByKeyId: (c) => ({ keyId: first(c.ids.encryptionKeyIds, "encryption key") }),
  ListLogQueries: () => ({ limit: 10 }),
  ListNativeUsers: (c) => ({ resourceId: c.resourceId, limit: 10 }),
  UpdateConnectorListenerLink: (c) => ({
    id: first(c.ids.connectorListenerLinks, "listener link"),
    terminationProtection: true
  }),
  ListIntegrationsMDM: () => ({ limit: 10 }),
  CreatePolicyDataLoader: (c) => ({
    name: `loader ${c.suffix}`,
    key: `loader-${c.suffix}`,
    workerCode: "def run(): return []",
    workerSchedule: "*/30 * * * * *"
  }),
  CreateHumanUserPassword: (c) => ({ email: c.ids.users[0]!.email }),
  CreateDataDiscoveryConfiguration: (c) => ({
    resourceId: c.resourceId,
    nativeUserId: c.nativeUserId,
    schedule: "6h"
  }),
  CreatePermission: (c) => ({
    name: `perm ${c.suffix}`,
    description: "read only",
    code: "package p\nallow := true"
  }),
  CreateBIIntegration: (c) => ({
    name: `bi ${c.suffix}`,
    biVendorA: {
      apiKey: c.secret(`bi-key-${c.suffix}`),
      apiSecret: c.secret(`bi-secret-${c.suffix}`)
    }
  }),
  CreateIntegrationMDM: (c) => ({
    name: `mdm ${c.suffix}`,
    mdmVendorA: { apiKey: c.secret(`mdm-key-${c.suffix}`), apiUrl: "https://mdm.example.com" }
  }),
  UpdateSidecarResourceLink: (c) => ({
    id: first(c.ids.sidecarResourceLinks, "sidecar resource link"),
    terminationProtection: true
  }),
  UpdateSatellite: (c) => ({ id: first(c.ids.satellites, "satellite"), name: `sat ${c.suffix}` })
}
