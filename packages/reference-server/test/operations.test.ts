import { KnownIds, Operations, Timestamp } from "@data-access/schema"
import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { rpc, serverLayer, TestServer, valid } from "./helpers.js"

const ID = /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/

type Rule = readonly [description: string, body: Record<string, unknown>, field: string]

const listRules = (base: Record<string, unknown>): ReadonlyArray<Rule> => [
  ["limit absent", { ...base, limit: undefined }, "limit"],
  ["limit 0", { ...base, limit: 0 }, "limit"],
  ["limit negative", { ...base, limit: -5 }, "limit"],
  ["limit above 500", { ...base, limit: 501 }, "limit"],
  ["limit not an integer", { ...base, limit: 1.5 }, "limit"],
  ["limit a string", { ...base, limit: "10" }, "limit"],
  ["order unknown", { ...base, order: "up" }, "order"],
  ["cursor unknown", { ...base, cursor: "not-a-cursor" }, "cursor"]
]

const str = (v: string) => ({
  "@type": "type.googleapis.com/google.protobuf.StringValue",
  value: v
})

/** Every invalid-argument rule per operation: each body breaks exactly one rule. */
const invalid: {
  readonly [M in Operations.MethodName]: (ids: KnownIds.KnownIds) => ReadonlyArray<Rule>
} = {
  ListScenarioMonitors: () => listRules({ limit: 10 }),
  CreateNativeUserIdentityLink: (ids) => {
    const ok = valid.CreateNativeUserIdentityLink(ids)
    return [
      ["nativeUserId empty", { ...ok, nativeUserId: "" }, "nativeUserId"],
      ["nativeUserId absent", { ...ok, nativeUserId: undefined }, "nativeUserId"],
      ["identityId empty", { ...ok, identityId: "" }, "identityId"],
      ["identityType unknown", { ...ok, identityType: "robot" }, "identityType"],
      [
        "terminationProtection not boolean",
        { ...ok, terminationProtection: "yes" },
        "terminationProtection"
      ]
    ]
  },
  UpdateConnectorHostname: (ids) => [
    ["id empty", { id: "" }, "id"],
    ["id absent", {}, "id"],
    ["managedTls a number", { id: ids.connectorHostnames[0], managedTls: 1 }, "managedTls"],
    [
      "certificate not base64",
      { id: ids.connectorHostnames[0], certificate: "***" },
      "certificate"
    ],
    ["hostname a number", { id: ids.connectorHostnames[0], hostname: 7 }, "hostname"]
  ],
  ListSatellites: () => [
    ...listRules({ limit: 10 }),
    ["searchFields unknown", { limit: 10, searchFields: ["type"] }, "searchFields"],
    [
      "filter key unknown",
      { limit: 10, filter: { field: { key: "colour", operator: "equals", value: str("x") } } },
      "filter"
    ],
    [
      "filter operator unknown",
      { limit: 10, filter: { field: { key: "name", operator: "like", value: str("x") } } },
      "filter"
    ],
    [
      "filter group empty",
      { limit: 10, filter: { group: { operator: "and", filters: [] } } },
      "filter"
    ],
    ["spaceId a number", { limit: 10, spaceId: 3 }, "spaceId"]
  ],
  GetResource: () => [
    ["id absent", {}, "id"],
    ["id empty", { id: "" }, "id"],
    ["id a number", { id: 5 }, "id"]
  ],
  ListPolicyStageConfigurations: () => listRules({ limit: 10 }),
  GetDataCatalogIntegration: () => [
    ["id absent", {}, "id"],
    ["id empty", { id: "" }, "id"]
  ],
  GetPolicyStageConfiguration: () => [
    ["id absent", {}, "id"],
    ["id empty", { id: "" }, "id"]
  ],
  CreateConnector: () => [
    ["name too short", { name: "ab" }, "name"],
    ["name too long", { name: "a".repeat(64) }, "name"],
    ["name upper case", { name: "Edge-One" }, "name"],
    ["name absent", {}, "name"],
    [
      "terminationProtection a string",
      { name: "edge-x", terminationProtection: "true" },
      "terminationProtection"
    ]
  ],
  GetEncryptionKeysByKeyId: () => [
    ["keyId absent", {}, "keyId"],
    ["keyId empty", { keyId: "" }, "keyId"]
  ],
  ListLogQueries: () => listRules({ limit: 10 }),
  ListNativeUsers: (ids) => [
    ...listRules({ limit: 10, resourceId: ids.resources[0] }),
    ["resourceId absent", { limit: 10 }, "resourceId"],
    ["resourceId empty", { limit: 10, resourceId: "" }, "resourceId"]
  ],
  UpdateConnectorListenerLink: (ids) => [
    ["id absent", { terminationProtection: true }, "id"],
    ["id empty", { id: "" }, "id"],
    [
      "terminationProtection a number",
      { id: ids.connectorListenerLinks[0], terminationProtection: 0 },
      "terminationProtection"
    ]
  ],
  ListIntegrationsMDM: () => [
    ...listRules({ limit: 10 }),
    ["searchFields unknown", { limit: 10, searchFields: ["colour"] }, "searchFields"],
    [
      "filter key unknown",
      {
        limit: 10,
        filter: { field: { key: "satellite_type", operator: "equals", value: str("x") } }
      },
      "filter"
    ],
    [
      "filter nested group operator unknown",
      {
        limit: 10,
        filter: {
          group: {
            operator: "and",
            filters: [
              {
                group: { operator: "xor", filters: [{ field: { key: "name", operator: "empty" } }] }
              }
            ]
          }
        }
      },
      "filter"
    ]
  ],
  CreatePolicyDataLoader: () => {
    const ok = valid.CreatePolicyDataLoader({} as KnownIds.KnownIds)
    return [
      ["name empty", { ...ok, name: "" }, "name"],
      ["key empty", { ...ok, key: "" }, "key"],
      ["workerCode empty", { ...ok, workerCode: "" }, "workerCode"],
      ["workerSchedule shorter than 9", { ...ok, workerSchedule: "* * * *" }, "workerSchedule"],
      ["workerRuntime unknown", { ...ok, workerRuntime: "java17" }, "workerRuntime"],
      ["status unknown", { ...ok, status: "live" }, "status"]
    ]
  },
  CreateHumanUserPassword: (ids) => [
    ["no variant", {}, "email"],
    ["two variants", { email: ids.users[0]!.email, username: ids.users[0]!.username }, "username"],
    ["email empty", { email: "" }, "email"]
  ],
  CreateDataDiscoveryConfiguration: (ids) => {
    const ok = valid.CreateDataDiscoveryConfiguration(ids)
    return [
      ["resourceId empty", { ...ok, resourceId: "" }, "resourceId"],
      ["nativeUserId empty", { ...ok, nativeUserId: "" }, "nativeUserId"],
      ["schedule empty", { ...ok, schedule: "" }, "schedule"],
      ["deletionPolicy unknown", { ...ok, deletionPolicy: "keep" }, "deletionPolicy"]
    ]
  },
  CreatePermission: () => {
    const ok = valid.CreatePermission({} as KnownIds.KnownIds)
    return [
      ["name empty", { ...ok, name: "" }, "name"],
      ["description empty", { ...ok, description: "" }, "description"],
      ["code empty", { ...ok, code: "" }, "code"],
      ["status unknown", { ...ok, status: "enabled" }, "status"]
    ]
  },
  CreateBIIntegration: () => [
    ["name empty", { name: "", biVendorA: { apiKey: "k", apiSecret: "s" } }, "name"],
    ["biVendorA absent", { name: "bi" }, "biVendorA"],
    ["apiKey empty", { name: "bi", biVendorA: { apiKey: "", apiSecret: "s" } }, "biVendorA.apiKey"],
    [
      "apiSecret empty",
      { name: "bi", biVendorA: { apiKey: "k", apiSecret: "" } },
      "biVendorA.apiSecret"
    ]
  ],
  CreateIntegrationMDM: () => [
    ["mdmVendorA absent", { name: "m" }, "mdmVendorA"],
    ["name empty", { name: "", mdmVendorA: {} }, "name"],
    ["apiUrl a number", { name: "m", mdmVendorA: { apiUrl: 4 } }, "mdmVendorA.apiUrl"]
  ],
  UpdateSidecarResourceLink: () => [
    ["id absent", {}, "id"],
    ["id empty", { id: "" }, "id"]
  ],
  UpdateSatellite: (ids) => [
    ["id absent", { name: "x" }, "id"],
    ["name empty", { id: ids.satellites[0], name: "" }, "name"],
    [
      "terminationProtection a string",
      { id: ids.satellites[0], terminationProtection: "no" },
      "terminationProtection"
    ]
  ]
}

/** not_found cases: an id that names nothing, per operation (lists have none). */
const notFound: {
  readonly [M in Operations.MethodName]?: (
    ids: KnownIds.KnownIds
  ) => ReadonlyArray<readonly [string, Record<string, unknown>]>
} = {
  GetResource: () => [["unknown id", { id: "resource_00000000000000000000000000" }]],
  GetDataCatalogIntegration: (ids) => [["id of another type", { id: ids.resources[0] }]],
  GetPolicyStageConfiguration: () => [["unknown id", { id: "nope" }]],
  UpdateConnectorHostname: () => [["unknown id", { id: "hostname_x", managedTls: true }]],
  UpdateConnectorListenerLink: () => [["unknown id", { id: "listenerlink_x" }]],
  UpdateSidecarResourceLink: () => [["unknown id", { id: "sidecarlink_x" }]],
  UpdateSatellite: (ids) => [
    ["unknown id", { id: "satellite_x", name: "y" }],
    ["unknown spaceId", { id: ids.satellites[1], spaceId: "space_unknown" }]
  ],
  CreateConnector: () => [["unknown spaceId", { name: "edge-404", spaceId: "space_unknown" }]],
  CreateNativeUserIdentityLink: (ids) => [
    [
      "unknown nativeUserId",
      { nativeUserId: "nativeuser_x", identityId: ids.groups[0], identityType: "group" }
    ],
    [
      "unknown group",
      { nativeUserId: ids.nativeUsers[0], identityId: "group_x", identityType: "group" }
    ],
    [
      "unknown user",
      { nativeUserId: ids.nativeUsers[0], identityId: "user_x", identityType: "user" }
    ],
    [
      "unknown resource hostname",
      {
        nativeUserId: ids.nativeUsers[0],
        identityId: "hostname_x",
        identityType: "resource_hostname"
      }
    ]
  ],
  CreateDataDiscoveryConfiguration: (ids) => [
    [
      "unknown resourceId",
      { ...valid.CreateDataDiscoveryConfiguration(ids), resourceId: "resource_x" }
    ],
    [
      "unknown nativeUserId",
      { ...valid.CreateDataDiscoveryConfiguration(ids), nativeUserId: "nativeuser_x" }
    ]
  ],
  CreateHumanUserPassword: () => [
    ["unknown email", { email: "nobody@example.com" }],
    ["unknown username", { username: "nobody" }],
    ["unknown id", { id: "user_x" }]
  ]
}

const strictResponse = (op: Operations.Operations[Operations.MethodName]) =>
  Schema.decodeUnknownEither(op.response as Schema.Schema<any, any>, {
    onExcessProperty: "error",
    errors: "all"
  })

const TIMESTAMP_KEYS = new Set(["createdAt", "updatedAt"])
const collectTimestamps = (
  value: unknown,
  out: Array<[string, string]> = []
): Array<[string, string]> => {
  if (Array.isArray(value)) value.forEach((v) => collectTimestamps(v, out))
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (TIMESTAMP_KEYS.has(k) && typeof v === "string") out.push([k, v])
      else collectTimestamps(v, out)
    }
  }
  return out
}

layer(serverLayer({ apiKeys: ["test-key-one", "test-key-two"] }))("every operation", (it) => {
  for (const op of Operations.all) {
    describe(op.method, () => {
      it.effect("a valid call succeeds with a response that matches the schema strictly", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* rpc(server, op.method, valid[op.method](server.knownIds))
          expect(reply.status, reply.text).toBe(200)
          expect(reply.headers.get("content-type")).toBe("application/json")
          expect(reply.headers.get("x-request-id")).toMatch(/^req_/)
          const decoded = strictResponse(op)(reply.json)
          expect(Either.isRight(decoded), Either.isLeft(decoded) ? String(decoded.left) : "").toBe(
            true
          )
          const now = Date.now()
          for (const [k, t] of collectTimestamps(reply.json)) {
            expect(t.endsWith("Z"), `${k} ${t}`).toBe(true)
            expect(Date.parse(t), `${k} ${t} is not earlier than the response`).toBeLessThanOrEqual(
              now
            )
          }
        })
      )

      it.effect("each invalid-argument rule is rejected, naming the field", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const rules = invalid[op.method](server.knownIds)
          expect(rules.length).toBeGreaterThan(0)
          for (const [description, body, field] of rules) {
            const reply = yield* rpc(server, op.method, body)
            expect(reply.status, `${description}: ${reply.text}`).toBe(400)
            expect(reply.json.code, description).toBe("invalid_argument")
            expect(reply.json.message, description).toContain(field)
          }
        })
      )

      it.effect("a missing, empty or unknown X-API-KEY is unauthenticated, before validation", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          for (const key of [undefined, "", "wrong-key", `${server.apiKeys[0]}x`]) {
            for (const body of [valid[op.method](server.knownIds), {}]) {
              const reply = yield* rpc(server, op.method, body, { headers: { "x-api-key": key } })
              expect(reply.status).toBe(401)
              expect(reply.json).toEqual({ code: "unauthenticated", message: expect.any(String) })
              expect(reply.text).not.toContain(server.apiKeys[0])
            }
          }
        })
      )

      const nf = notFound[op.method]
      if (nf) {
        it.effect("an id that names nothing is not_found, naming the field", () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            for (const [description, body] of nf(server.knownIds)) {
              const reply = yield* rpc(server, op.method, body)
              expect(reply.status, `${description}: ${reply.text}`).toBe(404)
              expect(reply.json.code, description).toBe("not_found")
            }
          })
        )
      }
    })
  }

  it.effect("creates echo what was sent, with a fresh id, and never echo secrets", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const op of Operations.all.filter(
        (o) => o.kind === "create" && o.wrapperKey !== undefined
      )) {
        const sent = valid[op.method](server.knownIds)
        const reply = yield* rpc(server, op.method, sent)
        expect(reply.status, reply.text).toBe(200)
        const object = reply.json[op.wrapperKey!]
        expect(object.id, op.method).toMatch(ID)
        for (const [k, v] of Object.entries(sent)) {
          if (
            typeof v === "string" &&
            k !== "nativeUserId" &&
            k !== "identityId" &&
            k !== "identityType"
          )
            expect(object[k], `${op.method}.${k}`).toBe(v)
          if (typeof v === "boolean" && v) expect(object[k], `${op.method}.${k}`).toBe(v)
        }
        expect(reply.text).not.toContain("bi-key-123")
        expect(reply.text).not.toContain("bi-secret-456")
        expect(reply.text).not.toContain("mdm-key-789")
      }
    })
  )

  it.effect(
    "CreateHumanUserPassword: each variant finds the user; expiresAt later, createdAt earlier than the response",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const user = server.knownIds.users[1]!
        for (const body of [
          { email: user.email },
          { username: user.username },
          { id: user.id },
          { id: user.id, email: null }
        ]) {
          const before = Date.now()
          const reply = yield* rpc(server, "CreateHumanUserPassword", body)
          const after = Date.now()
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json.username).toBe(user.username)
          expect(reply.json.password.length).toBeGreaterThan(0)
          expect(reply.json.groups.length).toBeGreaterThan(0)
          expect(Date.parse(reply.json.expiresAt)).toBeGreaterThan(after)
          expect(Date.parse(reply.json.createdAt)).toBeLessThanOrEqual(after)
          expect(Date.parse(reply.json.createdAt)).toBeGreaterThanOrEqual(before - 1000)
        }
      })
  )

  it.effect(
    "updates change only the sent fields (absent or null leave them) and move updatedAt forward",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const id = server.knownIds.satellites[5]!
        const first = yield* rpc(server, "UpdateSatellite", { id, terminationProtection: true })
        const before = first.json.satellite
        const reply = yield* rpc(server, "UpdateSatellite", {
          id,
          name: "only-the-name",
          terminationProtection: null,
          space_id: null
        })
        expect(reply.status, reply.text).toBe(200)
        const after = reply.json.satellite
        expect(after).toEqual({ ...before, name: "only-the-name", updatedAt: after.updatedAt })
        expect(
          Timestamp.Order(
            Timestamp.parse(after.updatedAt) as Timestamp.Timestamp,
            Timestamp.parse(before.updatedAt) as Timestamp.Timestamp
          )
        ).toBe(1)
        const again = yield* rpc(server, "UpdateSatellite", { id })
        expect(Date.parse(again.json.satellite.updatedAt)).toBeGreaterThanOrEqual(
          Date.parse(after.updatedAt)
        )
        // A later read shows the change.
        const listed = yield* rpc(server, "ListSatellites", { limit: 500, search: "only-the-name" })
        expect(listed.json.satellites.map((s: any) => s.id)).toEqual([id])
        // Moving to another space changes spaceId and the nested space.
        const moved = yield* rpc(server, "UpdateSatellite", {
          id,
          spaceId: server.knownIds.spaces[2]
        })
        expect(moved.json.satellite.spaceId).toBe(server.knownIds.spaces[2])
        expect(moved.json.satellite.space.id).toBe(server.knownIds.spaces[2])
      })
  )

  it.effect(
    "updates of hostnames, listener links and sidecar links are visible afterwards and never echo certificates",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const ids = server.knownIds
        const h = yield* rpc(server, "UpdateConnectorHostname", {
          id: ids.connectorHostnames[1],
          dns_record: "A 10.0.0.1",
          certificate: "c2VjcmV0LWNlcnQ="
        })
        expect(h.json.connectorHostname.dnsRecord).toBe("A 10.0.0.1")
        expect(h.text).not.toContain("c2VjcmV0LWNlcnQ=")
        const l = yield* rpc(server, "UpdateConnectorListenerLink", {
          id: ids.connectorListenerLinks[0],
          terminationProtection: false
        })
        expect(l.json.connectorListenerLink.terminationProtection).toBeUndefined()
        const s = yield* rpc(server, "UpdateSidecarResourceLink", {
          id: ids.sidecarResourceLinks[1],
          terminationProtection: true
        })
        expect(s.json.link.terminationProtection).toBe(true)
      })
  )

  it.effect("ids have the decided format and Get returns the same object twice", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const id of [
        ...server.knownIds.resources,
        ...server.knownIds.satellites,
        ...server.knownIds.mdmIntegrations
      ])
        expect(id).toMatch(ID)
      const a = yield* rpc(server, "GetResource", { id: server.knownIds.resources[3] })
      const b = yield* rpc(server, "GetResource", { id: server.knownIds.resources[3] })
      expect(a.json).toEqual(b.json)
    })
  )

  it.effect("GetEncryptionKeysByKeyId returns every key with that key id", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* rpc(server, "GetEncryptionKeysByKeyId", {
        key_id: server.knownIds.encryptionKeyIds[0]
      })
      expect(reply.json.encryptionKeys.length).toBe(2)
      for (const k of reply.json.encryptionKeys)
        expect(k.keyId).toBe(server.knownIds.encryptionKeyIds[0])
      // A key id that names no key is an empty array (not_found under the parent-not-found latitude switch).
      const none = yield* rpc(server, "GetEncryptionKeysByKeyId", { keyId: "arn:aws:kms:none" })
      expect([none.status, none.json]).toEqual([200, {}])
    })
  )

  it.effect(
    "stored secrets are left out of responses (the return-secrets latitude switch returns them)",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const stored = (yield* server.store.get(
          "dataCatalogIntegrations",
          server.knownIds.dataCatalogIntegrations[0]!
        )) as any
        expect(stored.catalogVendorA.webhookSecret).toMatch(/^demo-whsec-/)
        const reply = yield* rpc(server, "GetDataCatalogIntegration", {
          id: server.knownIds.dataCatalogIntegrations[0]
        })
        expect(reply.json.integration.catalogVendorA).toEqual({
          generalizedMetadataServiceUrl: expect.any(String),
          syncedEntities: expect.any(Array)
        })
        const users = yield* rpc(server, "ListNativeUsers", {
          limit: 500,
          resourceId: server.knownIds.resources[0]
        })
        const withSecrets = yield* Effect.forEach(users.json.nativeUsers, (u: any) =>
          server.store.get("nativeUsers", u.id)
        )
        expect(withSecrets.some((u: any) => u.secret !== "" || u.basic?.password)).toBe(true)
        for (const user of users.json.nativeUsers) {
          expect(user.secret).toBeUndefined()
          expect(user.basic?.password).toBeUndefined()
        }
      })
  )
})
