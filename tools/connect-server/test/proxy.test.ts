// The conformance proxy in front of the Connect-stack server, with the official connect-es client
// (JSON and binary codecs) calling every operation through it: zero findings.
import { type DescMethod, type DescService, fromJson, type JsonValue } from "@bufbuild/protobuf"
import { createClient } from "@connectrpc/connect"
import { createConnectTransport } from "@connectrpc/connect-node"
import { Proxy, Report } from "@data-access/contract-tests"
import type { KnownIds } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { file_core_v1_api } from "../src/gen/core/v1/api_pb.js"
import * as Server from "../src/server.js"

const STRING_VALUE = "type.googleapis.com/google.protobuf.StringValue"

/** Valid requests of every operation (proto3 JSON), `i` making names unique. */
const requests = (ids: KnownIds.KnownIds, i: number): Record<string, JsonValue> => ({
  ListScenarioMonitors: { limit: 10 },
  CreateNativeUserIdentityLink: {
    nativeUserId: ids.nativeUsers[0]!,
    identityId: ids.groups[0]!,
    identityType: "group",
    terminationProtection: false
  },
  UpdateConnectorHostname: { id: ids.connectorHostnames[0]!, managedTls: i % 2 === 0 },
  ListSatellites: {
    limit: 5,
    order: "desc",
    search: "a",
    searchFields: ["name"],
    filter: {
      field: { key: "name", operator: "contains", value: { "@type": STRING_VALUE, value: "a" } }
    }
  },
  GetResource: { id: ids.resources[i % ids.resources.length]! },
  ListPolicyStageConfigurations: { limit: 3, order: "asc" },
  GetDataCatalogIntegration: { id: ids.dataCatalogIntegrations[0]! },
  GetPolicyStageConfiguration: { id: ids.policyStageConfigurations[0]! },
  CreateConnector: { name: `connector-${i}-${Date.now()}` },
  GetEncryptionKeysByKeyId: { keyId: ids.encryptionKeyIds[0]! },
  ListLogQueries: { limit: 2 },
  ListNativeUsers: { limit: 4, resourceId: ids.resources[0]! },
  UpdateConnectorListenerLink: {
    id: ids.connectorListenerLinks[0]!,
    terminationProtection: i % 2 === 0
  },
  ListIntegrationsMDM: { limit: 5, search: "a" },
  CreatePolicyDataLoader: {
    name: `loader ${i}`,
    description: "loads",
    key: "loader-key",
    workerRuntime: "python3.11",
    workerCode: "print(1)",
    workerSchedule: "*/30 * * * * *",
    status: "draft",
    terminationProtection: false
  },
  CreateHumanUserPassword: { email: ids.users[0]!.email },
  CreateDataDiscoveryConfiguration: {
    resourceId: ids.resources[0]!,
    nativeUserId: ids.nativeUsers[0]!,
    database: "db",
    schedule: "6h",
    deletionPolicy: "delete"
  },
  CreatePermission: {
    name: `permission ${i}`,
    description: "reads",
    code: "package authz",
    status: "draft",
    terminationProtection: false
  },
  CreateBIIntegration: {
    name: `bi ${i}`,
    biVendorA: { apiKey: "bi-key", apiSecret: "bi-secret" },
    sync: true
  },
  CreateIntegrationMDM: {
    name: `mdm ${i}`,
    mdmVendorA: { apiKey: "mdm-key", apiUrl: "https://mdm.example.com" }
  },
  UpdateSidecarResourceLink: {
    id: ids.sidecarResourceLinks[0]!,
    terminationProtection: i % 2 === 0
  },
  UpdateSatellite: { id: ids.satellites[0]!, name: `satellite ${i}` }
})

const localName = (method: DescMethod) => method.name[0]!.toLowerCase() + method.name.slice(1)

describe("the conformance proxy in front of the Connect-stack server, the connect-es client through it", () => {
  for (const useBinaryFormat of [false, true]) {
    it.live(
      `${useBinaryFormat ? "binary" : "JSON"} codec: every operation three times, zero findings`,
      () =>
        Effect.gen(function* () {
          const server = yield* Server.make()
          const proxy = yield* Proxy.start({ target: server.url })
          const apiKey = server.apiKeys[0]!
          const transport = createConnectTransport({
            baseUrl: proxy.url,
            httpVersion: "1.1",
            useBinaryFormat,
            jsonOptions: { registry: Server.registry },
            interceptors: [
              (next) => (request) => (request.header.set("x-api-key", apiKey), next(request))
            ]
          })
          let calls = 0
          for (let i = 0; i < 3; i++) {
            const bodies = requests(server.knownIds, i)
            for (const service of file_core_v1_api.services as ReadonlyArray<DescService>) {
              const client = createClient(service, transport) as unknown as Record<
                string,
                (request: unknown) => Promise<unknown>
              >
              for (const method of service.methods) {
                const body = bodies[method.name]
                expect(body, method.name).toBeDefined()
                yield* Effect.promise(() =>
                  client[localName(method)]!(
                    fromJson(method.input, body!, { registry: Server.registry })
                  )
                )
                calls++
              }
            }
          }
          expect(calls).toBe(3 * 22)
          const report = yield* proxy.report
          yield* Effect.logInfo(
            `proxy, ${useBinaryFormat ? "binary" : "JSON"}: ${JSON.stringify(Report.totals(report))}`
          )
          expect(report.findings.map(Report.findingText)).toEqual([])
          expect(Report.totals(report).passed).toBeGreaterThan(0)
        }).pipe(Effect.scoped),
      120_000
    )
  }
})
