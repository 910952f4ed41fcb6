/**
 * One valid request per operation, built from the ids the server was seeded with. The record type
 * makes the compiler check that every operation of the table has one.
 */
import type { KnownIds } from "@data-access/schema-effect4/KnownIds"
import type * as Operations from "@data-access/schema-effect4/Operations"
import * as Redacted from "effect/Redacted"

const first = (ids: ReadonlyArray<string>, what: string): string => {
  const id = ids[0]
  if (id === undefined) throw new Error(`the server holds no ${what}`)
  return id
}

export interface Context {
  readonly ids: KnownIds
  /** A native user of `resource`. */
  readonly nativeUserId: string
  readonly resourceId: string
  readonly suffix: string
}

export const requestFor: { readonly [M in Operations.MethodName]: (c: Context) => Operations.RequestOf<M> } = {
  ListScenarioMonitors: () => ({ limit: 10 }),
  CreateNativeUserIdentityLink: (c) => ({ nativeUserId: c.nativeUserId, identityId: first(c.ids.groups, "group"), identityType: "group" }),
  UpdateConnectorHostname: (c) => ({ id: first(c.ids.connectorHostnames, "connector hostname"), hostname: `h-${c.suffix}.example.com` }),
  ListSatellites: () => ({ limit: 10 }),
  GetResource: (c) => ({ id: c.resourceId }),
  ListPolicyStageConfigurations: () => ({ limit: 10 }),
  GetDataCatalogIntegration: (c) => ({ id: first(c.ids.dataCatalogIntegrations, "data catalog integration") }),
  GetPolicyStageConfiguration: (c) => ({ id: first(c.ids.policyStageConfigurations, "policy stage configuration") }),
  CreateConnector: (c) => ({ name: `conn-${c.suffix}` }),
  GetEncryptionKeysByKeyId: (c) => ({ keyId: first(c.ids.encryptionKeyIds, "encryption key") }),
  ListLogQueries: () => ({ limit: 10 }),
  ListNativeUsers: (c) => ({ resourceId: c.resourceId, limit: 10 }),
  UpdateConnectorListenerLink: (c) => ({ id: first(c.ids.connectorListenerLinks, "listener link"), terminationProtection: true }),
  ListIntegrationsMDM: () => ({ limit: 10 }),
  CreatePolicyDataLoader: (c) => ({
    name: `loader ${c.suffix}`,
    key: `loader-${c.suffix}`,
    workerCode: "def run(): return []",
    workerSchedule: "*/30 * * * * *"
  }),
  CreateHumanUserPassword: (c) => ({ email: c.ids.users[0]!.email }),
  CreateDataDiscoveryConfiguration: (c) => ({ resourceId: c.resourceId, nativeUserId: c.nativeUserId, schedule: "6h" }),
  CreatePermission: (c) => ({ name: `perm ${c.suffix}`, description: "read only", code: "package p\nallow := true" }),
  CreateBIIntegration: (c) => ({
    name: `bi ${c.suffix}`,
    biVendorA: { apiKey: Redacted.make(`bi-key-${c.suffix}`), apiSecret: Redacted.make(`bi-secret-${c.suffix}`) }
  }),
  CreateIntegrationMDM: (c) => ({ name: `mdm ${c.suffix}`, mdmVendorA: { apiKey: Redacted.make(`mdm-key-${c.suffix}`), apiUrl: "https://mdm.example.com" } }),
  UpdateSidecarResourceLink: (c) => ({ id: first(c.ids.sidecarResourceLinks, "sidecar resource link"), terminationProtection: true }),
  UpdateSatellite: (c) => ({ id: first(c.ids.satellites, "satellite"), name: `sat ${c.suffix}` })
}
