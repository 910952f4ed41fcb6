// The conformance proxy in front of the Connect-stack server, with the official connect-es client
// (JSON and binary codecs) calling every operation through it: zero findings; also with the
// server on HTTP/2 without TLS only.
import { type DescMethod, type DescService, fromJson, type JsonValue } from "@bufbuild/protobuf"
import { createClient } from "@connectrpc/connect"
import { compressionGzip, createConnectTransport } from "@connectrpc/connect-node"
import { Proxy, Report } from "@data-access/contract-tests"
import { type KnownIds, Operations } from "@data-access/schema"
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

/** The client's codec and method, and the server they need. */
const setups = [
  { name: "JSON codec", useBinaryFormat: false, useHttpGet: false },
  { name: "binary codec", useBinaryFormat: true, useHttpGet: false },
  // A server whose reads are NO_SIDE_EFFECTS serves Connect GET; the client sends its reads as GET.
  { name: "Connect GET for the reads (JSON)", useBinaryFormat: false, useHttpGet: true },
  {
    name: "gzip-compressed requests (JSON)",
    useBinaryFormat: false,
    useHttpGet: false,
    gzip: true
  },
  // A server on HTTP/2 without TLS only, as connect-node's documentation serves it: the proxy speaks it to the server.
  { name: "the server on h2c only (JSON)", useBinaryFormat: false, useHttpGet: false, h2c: true }
] as const

describe("the conformance proxy in front of the Connect-stack server, the connect-es client through it", () => {
  for (const setup of setups) {
    const { name, useBinaryFormat, useHttpGet } = setup
    const gzip = "gzip" in setup
    const h2c = "h2c" in setup
    it.live(
      `${name}: every operation three times, zero findings`,
      () =>
        Effect.gen(function* () {
          const server = yield* Server.make({ connectGet: useHttpGet, h2c })
          const proxy = yield* Proxy.start({
            target: server.url,
            recordHar: true,
            http2PriorKnowledge: h2c
          })
          const apiKey = server.apiKeys[0]!
          const transport = createConnectTransport({
            baseUrl: proxy.url,
            httpVersion: "1.1",
            useBinaryFormat,
            useHttpGet,
            // Every request body compressed, however small.
            ...(gzip ? { sendCompression: compressionGzip, compressMinBytes: 1 } : {}),
            jsonOptions: { registry: Server.registry },
            interceptors: [
              (next) => (request) => (request.header.set("x-api-key", apiKey), next(request))
            ]
          })
          let calls = 0
          for (let i = 0; i < 3; i++) {
            const bodies = requests(server.knownIds, i)
            for (const service of file_core_v1_api.services as ReadonlyArray<DescService>) {
              const client = createClient(
                useHttpGet ? Server.withConnectGet(service) : service,
                transport
              ) as unknown as Record<string, (request: unknown) => Promise<unknown>>
              for (const method of service.methods) {
                const body = bodies[method.name]
                expect(body, method.name).toBeDefined()
                const request = fromJson(method.input, body!, { registry: Server.registry })
                yield* Effect.tryPromise({
                  try: () => client[localName(method)]!(request),
                  catch: (e) => new Error(`${method.name}: ${String(e)}`)
                })
                calls++
              }
            }
          }
          expect(calls).toBe(3 * 22)
          // The reads went as GET when the client was told to (connect-es sends GET only to NO_SIDE_EFFECTS methods).
          const reads = Operations.all.filter((o) => o.kind === "get" || o.kind === "list").length
          const entries = (yield* proxy.har).log.entries
          expect(entries.filter((e) => e.request.method === "GET").length).toBe(
            useHttpGet ? 3 * reads : 0
          )
          const gzipped = entries.filter((e) =>
            e.request.headers.some(
              (h) => h.name.toLowerCase() === "content-encoding" && h.value === "gzip"
            )
          )
          expect(gzipped.length).toBe(gzip ? 3 * 22 : 0)
          const report = yield* proxy.report
          yield* Effect.logInfo(`proxy, ${name}: ${JSON.stringify(Report.totals(report))}`)
          expect(report.findings.map(Report.findingText)).toEqual([])
          expect(Report.totals(report).passed).toBeGreaterThan(0)
        }).pipe(Effect.scoped),
      120_000
    )
  }
})
