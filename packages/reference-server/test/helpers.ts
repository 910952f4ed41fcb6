import { type KnownIds, Operations } from "@data-access/schema"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ReferenceServer } from "../src/index.js"

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: any
}

/** Calls an operation over HTTP with plain fetch. */
export const rpc = (
  server: { readonly url: string; readonly apiKeys: ReadonlyArray<string> },
  method: Operations.MethodName | string,
  body: unknown,
  init: {
    readonly headers?: Record<string, string | undefined>
    readonly httpMethod?: string
    readonly raw?: string | Uint8Array | undefined
  } = {}
): Effect.Effect<Reply> =>
  Effect.promise(async () => {
    const op = Operations.operations[method as Operations.MethodName]
    const path = op ? op.path : method
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-api-key": server.apiKeys[0]!,
      "connect-protocol-version": "1"
    }
    for (const [k, v] of Object.entries(init.headers ?? {})) {
      if (v === undefined) delete headers[k]
      else headers[k] = v
    }
    const httpMethod = init.httpMethod ?? "POST"
    const res = await fetch(server.url + path, {
      method: httpMethod,
      headers,
      ...(httpMethod === "GET" || httpMethod === "HEAD"
        ? {}
        : { body: init.raw !== undefined ? init.raw : JSON.stringify(body) })
    })
    const text = await res.text()
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: res.status, headers: res.headers, text, json }
  })

/** Walks every page of a List operation. */
export const walk = (
  server: ReferenceServer.Running,
  method: Operations.ListMethod,
  request: Record<string, unknown>
): Effect.Effect<{ readonly items: ReadonlyArray<any>; readonly pages: number }> =>
  Effect.gen(function* () {
    const op = Operations.operations[method]
    const items: Array<any> = []
    let cursor: string | undefined = undefined
    let pages = 0
    for (;;) {
      const reply: Reply = yield* rpc(server, method, { ...request, ...(cursor ? { cursor } : {}) })
      if (reply.status !== 200) throw new Error(`page ${pages}: ${reply.status} ${reply.text}`)
      pages++
      const page: ReadonlyArray<any> = reply.json[op.itemField!] ?? []
      const meta = reply.json.listMetadata ?? {}
      if ((meta.count ?? 0) !== page.length)
        throw new Error(`count ${meta.count} != ${page.length}`)
      items.push(...page)
      cursor = meta.nextCursor
      if (!cursor) return { items, pages }
      if (pages > 10_000) throw new Error("paging does not end")
    }
  })

/** A server shared by the tests of one file. */
export class TestServer extends Context.Tag("test/TestServer")<
  TestServer,
  ReferenceServer.Running
>() {}

/** Starts a server for a `layer(...)` suite. */
export const serverLayer = (options: ReferenceServer.Options = {}): Layer.Layer<TestServer> =>
  Layer.scoped(TestServer, ReferenceServer.start(options)).pipe(Layer.orDie)

/**
 * One valid request per operation, built from the ids the server holds. Each is accepted under
 * every latitude switch too (enums sent, section 7's formats, short strings); a create sent twice
 * needs another name under unique-names.
 */
export const valid: {
  readonly [M in Operations.MethodName]: (ids: KnownIds.KnownIds) => Record<string, unknown>
} = {
  ListScenarioMonitors: () => ({ limit: 10 }),
  CreateNativeUserIdentityLink: (ids) => ({
    nativeUserId: ids.nativeUsers[0],
    identityId: ids.groups[0],
    identityType: "group",
    terminationProtection: true
  }),
  UpdateConnectorHostname: (ids) => ({
    id: ids.connectorHostnames[0],
    hostname: "db9.example.com",
    managedTls: true,
    certificate: "Y2VydA==",
    privateKey: "a2V5"
  }),
  ListSatellites: () => ({ limit: 5, order: "desc", search: "eu-west", searchFields: ["name"] }),
  GetResource: (ids) => ({ id: ids.resources[0] }),
  ListPolicyStageConfigurations: () => ({ limit: 10 }),
  GetDataCatalogIntegration: (ids) => ({ id: ids.dataCatalogIntegrations[0] }),
  GetPolicyStageConfiguration: (ids) => ({ id: ids.policyStageConfigurations[0] }),
  CreateConnector: (ids) => ({
    name: "edge-test-1",
    terminationProtection: true,
    spaceId: ids.spaces[0]
  }),
  GetEncryptionKeysByKeyId: (ids) => ({ keyId: ids.encryptionKeyIds[0] }),
  ListLogQueries: () => ({ limit: 3 }),
  ListNativeUsers: (ids) => ({ limit: 50, resourceId: ids.resources[0] }),
  UpdateConnectorListenerLink: (ids) => ({
    id: ids.connectorListenerLinks[0],
    terminationProtection: false
  }),
  ListIntegrationsMDM: () => ({
    limit: 20,
    filter: {
      field: {
        key: "name",
        operator: "contains",
        value: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: "berlin" }
      }
    }
  }),
  CreatePolicyDataLoader: () => ({
    name: "crm",
    description: "CRM attributes",
    key: "crm",
    workerRuntime: "nodejs18.x",
    workerCode: "export default () => ({})",
    workerSchedule: "*/30 * * * * *",
    status: "active",
    terminationProtection: false
  }),
  CreateHumanUserPassword: (ids) => ({ username: ids.users[0]!.username }),
  CreateDataDiscoveryConfiguration: (ids) => ({
    resourceId: ids.resources[0],
    nativeUserId: ids.nativeUsers[0],
    database: "orders",
    schedule: "12h",
    deletionPolicy: "delete",
    path: "/public"
  }),
  CreatePermission: () => ({
    name: "read-only",
    description: "Read only access",
    code: "package x\nallow := true",
    status: "dry-run",
    terminationProtection: true
  }),
  CreateBIIntegration: (ids) => ({
    name: "Finance BI",
    biVendorA: { apiKey: "bi-key-123", apiSecret: "bi-secret-456" },
    linkedDbUserId: ids.nativeUsers[0],
    sync: true
  }),
  CreateIntegrationMDM: () => ({
    name: "Fleet Oslo",
    mdmVendorA: { apiKey: "mdm-key-789", apiUrl: "https://mdm-oslo.example.com" }
  }),
  UpdateSidecarResourceLink: (ids) => ({
    id: ids.sidecarResourceLinks[0],
    terminationProtection: true
  }),
  UpdateSatellite: (ids) => ({
    id: ids.satellites[0],
    name: "renamed-satellite",
    spaceId: ids.spaces[1]
  })
}
