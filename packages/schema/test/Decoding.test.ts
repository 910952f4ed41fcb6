// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Schema from "effect/Schema"
import * as Model from "../src/Model.js"
import * as Operations from "../src/Operations.js"
import * as ProtoJson from "../src/ProtoJson.js"
import * as Requests from "../src/Requests.js"
import * as Timestamp from "../src/Timestamp.js"
import { decode, messagesAt, reject } from "./util.js"

const ops = Operations.operations

describe("reading proto3 JSON responses", () => {
  it("ListSatellites: zero values left out, unknown fields ignored", () => {
    const body = JSON.parse(`{
      "satellites": [
        {
          "id": "satellite_01h45ytscbebyvny4gc8cr8ma2",
          "name": "edge-1",
          "terminationProtection": true,
          "spaceId": "space_01h45ytscbebyvny4gc8cr8ma2",
          "space": { "id": "space_01h45ytscbebyvny4gc8cr8ma2", "name": "prod", "labels": {"team": "x"} },
          "satelliteType": "ai",
          "createdAt": "2024-05-01T10:00:00Z",
          "updatedAt": "2024-05-01T12:00:00.250+02:00",
          "region": "eu-west-1"
        },
        { "id": "satellite_02", "createdAt": "2024-05-02T10:00:00.123456789Z" }
      ],
      "listMetadata": { "count": 2, "nextCursor": "c2", "after": "satellite_02", "future": 1 },
      "debugInfo": { "took": "3ms" }
    }`)
    const page = decode(ops.ListSatellites.response, body)
    expect(page.satellites).toHaveLength(2)
    const [first, second] = page.satellites
    expect(first!.name).toBe("edge-1")
    expect(first!.terminationProtection).toBe(true)
    expect(first!.satelliteType).toBe("ai")
    expect(first!.space?.name).toBe("prod")
    expect(first!.space?.terminationProtection).toBe(false)
    expect(Timestamp.format(first!.updatedAt!)).toBe("2024-05-01T10:00:00.250Z")
    // absent fields read as their zero values
    expect(second).toEqual({
      id: "satellite_02",
      name: "",
      terminationProtection: false,
      spaceId: "",
      satelliteType: "data_discovery",
      createdAt: Timestamp.parse("2024-05-02T10:00:00.123456789Z")
    })
    expect(page.listMetadata).toEqual({
      count: 2,
      nextCursor: "c2",
      after: "satellite_02",
      before: ""
    })
    // unknown fields are not carried into the decoded values
    expect(Object.keys(first!)).not.toContain("region")
    expect(Object.keys(first!.space!)).not.toContain("labels")
    expect(Object.keys(page)).not.toContain("debugInfo")
    // and written back in lowerCamelCase with Z
    const written = Schema.encodeSync(ops.ListSatellites.response)(page)
    expect(written.satellites?.[0]?.updatedAt).toBe("2024-05-01T10:00:00.250Z")
  })

  it("an empty page is {}", () => {
    expect(decode(ops.ListSatellites.response, {})).toEqual({
      satellites: [],
      listMetadata: { after: "", before: "", count: 0, nextCursor: "" }
    })
  })

  it("ListLogQueries: relativeTime as a string and as a number", () => {
    const page = decode(ops.ListLogQueries.response, {
      savedQueries: [
        {
          id: "q1",
          name: "errors",
          createdBy: "alice",
          query: {
            query: "level:error",
            relativeTime: "3600",
            filters: [{ name: "service", values: ["api", "db"] }],
            histogramGroupByFields: ["service"],
            metricAggregation: { field: "duration", aggType: "p95" },
            unknownQueryField: true
          }
        },
        { id: "q2", query: { relativeTime: 7200 } },
        { id: "q3", query: { metricAggregation: { field: "x" } } },
        { id: "q4" }
      ],
      listMetadata: { count: 4 }
    })
    const [q1, q2, q3, q4] = page.savedQueries
    expect(q1!.query!.relativeTime).toBe(3600n)
    expect(q1!.query!.filters).toEqual([{ name: "service", values: ["api", "db"] }])
    expect(q1!.query!.metricAggregation).toEqual({ field: "duration", aggType: "p95" })
    expect(q2!.query!.relativeTime).toBe(7200n)
    expect(q2!.query!.filters).toEqual([])
    expect(q2!.query!.query).toBe("")
    expect(q3!.query!.relativeTime).toBe(0n)
    expect(q3!.query!.metricAggregation!.aggType).toBe("value_count")
    expect(q4!.query).toBeUndefined()
    expect(q4!.name).toBe("")
    // int64 is written as a string
    const written = Schema.encodeSync(ops.ListLogQueries.response)(page)
    expect(written.savedQueries?.[1]?.query?.relativeTime).toBe("7200")
  })

  it("GetEncryptionKeysByKeyId: an array under its key, absent is empty", () => {
    expect(decode(ops.GetEncryptionKeysByKeyId.response, {}).encryptionKeys).toEqual([])
    const keys = decode(ops.GetEncryptionKeysByKeyId.response, {
      encryptionKeys: [{ id: "k1", provider: "aws-kms", keyId: "arn:key", algorithm: "aes_random" }]
    }).encryptionKeys
    expect(keys[0]).toEqual({
      id: "k1",
      provider: "aws-kms",
      keyId: "arn:key",
      algorithm: "aes_random",
      decryptorUri: ""
    })
  })

  it('DataDiscoveryConfiguration path: absent or null reads as null, "" stays ""', () => {
    const base = { id: "d", resourceId: "r", nativeUserId: "n", schedule: "6h" }
    expect(decode(Model.DataDiscoveryConfiguration, base).path).toBeNull()
    expect(decode(Model.DataDiscoveryConfiguration, { ...base, path: null }).path).toBeNull()
    expect(decode(Model.DataDiscoveryConfiguration, { ...base, path: "" }).path).toBe("")
    expect(
      decode(Model.DataDiscoveryConfiguration, ProtoJson.omitZeroValues({ ...base, path: "" })).path
    ).toBe("")
    expect(decode(Model.DataDiscoveryConfiguration, { ...base, path: "/data" }).path).toBe("/data")
  })

  it("CreateNativeUserIdentityLink: the user and resourceHostname identities may be absent", () => {
    const link = decode(ops.CreateNativeUserIdentityLink.response, {
      link: { id: "l", nativeUser: { id: "nu" }, user: { id: "u", email: "a@b.c" } }
    }).link
    expect(link.group).toBeUndefined()
    expect(link.resourceHostname).toBeUndefined()
    expect(link.user).toEqual({ id: "u", email: "a@b.c" })
    expect(link.nativeUser?.useAsDefault).toBe(false)
  })

  it.each([
    [
      "a list item without id",
      ops.ListSatellites.response,
      { satellites: [{ name: "x" }] },
      ["satellites", 0, "id"],
      "is missing"
    ],
    [
      "an empty id",
      ops.GetResource.response,
      { resource: { id: "", port: 22 } },
      ["resource", "id"],
      "must not be empty"
    ],
    [
      "Resource without port",
      ops.GetResource.response,
      { resource: { id: "r" } },
      ["resource", "port"],
      "is missing"
    ],
    [
      "Resource port 0",
      ops.GetResource.response,
      { resource: { id: "r", port: 0 } },
      ["resource", "port"],
      "must be a port from 1 to 65535"
    ],
    [
      "Permission without name",
      ops.CreatePermission.response,
      { permission: { id: "p", description: "d", code: "c" } },
      ["permission", "name"],
      "is missing"
    ],
    [
      "Permission with an empty description",
      ops.CreatePermission.response,
      { permission: { id: "p", name: "n", description: "", code: "c" } },
      ["permission", "description"],
      "must not be empty"
    ],
    [
      "PolicyDataLoader without workerCode",
      ops.CreatePolicyDataLoader.response,
      { policyDataLoader: { id: "p", name: "n", key: "k", workerSchedule: "*/30 * * * * *" } },
      ["policyDataLoader", "workerCode"],
      "is missing"
    ],
    [
      "DataDiscoveryConfiguration without schedule",
      ops.CreateDataDiscoveryConfiguration.response,
      { dataDiscoveryConfiguration: { id: "d", resourceId: "r", nativeUserId: "n" } },
      ["dataDiscoveryConfiguration", "schedule"],
      "is missing"
    ],
    [
      "HumanUserPassword without password",
      ops.CreateHumanUserPassword.response,
      { username: "u", expiresAt: "2030-01-01T00:00:00Z", createdAt: "2024-01-01T00:00:00Z" },
      ["password"],
      "is missing"
    ],
    [
      "HumanUserPassword without expiresAt",
      ops.CreateHumanUserPassword.response,
      { username: "u", password: "p", createdAt: "2024-01-01T00:00:00Z" },
      ["expiresAt"],
      "is missing"
    ],
    [
      "an enum value not listed",
      ops.ListSatellites.response,
      { satellites: [{ id: "s", satelliteType: "rocket" }] },
      ["satellites", 0, "satelliteType"],
      `actual "rocket"`
    ],
    [
      "a wrong JSON type",
      ops.GetResource.response,
      { resource: { id: "r", port: 22, terminationProtection: "yes" } },
      ["resource", "terminationProtection"],
      `Expected boolean, actual "yes"`
    ],
    [
      "a count that is negative",
      ops.ListSatellites.response,
      { listMetadata: { count: -1 } },
      ["listMetadata", "count"],
      "non-negative"
    ],
    [
      "a timestamp without Z or offset",
      ops.GetResource.response,
      { resource: { id: "r", port: 1, createdAt: "2024-01-01T00:00:00" } },
      ["resource", "createdAt"],
      "RFC 3339"
    ]
  ] as const)("rejects %s, naming the field", (_, schema, body, path, message) => {
    const { issues, tree } = reject(schema as Schema.Schema<unknown, unknown>, body)
    expect(messagesAt(issues, path).join("\n")).toContain(message)
    expect(tree).toContain(JSON.stringify(path[path.length - 1]))
  })
})

const valueOf = (v: string) => ({
  "@type": "type.googleapis.com/google.protobuf.StringValue",
  value: v
})

describe("reading requests", () => {
  // decisions.md section 10: formats "not shown", absent request enums and a condition without a
  // value are choices of each server; the schema holds only the musts, so it accepts them.
  it("accepts what only a server's own choices could reject", () => {
    const schedule = { resourceId: "r", nativeUserId: "n", schedule: "weekly" }
    expect(decode(Requests.CreateDataDiscoveryConfigurationRequest, schedule)).toEqual(schedule)
    const loader = {
      name: "n",
      key: "k",
      workerCode: "print(1)",
      workerSchedule: "every 5 minutes"
    }
    expect(decode(Requests.CreatePolicyDataLoaderRequest, loader)).toEqual(loader)
    const link = { nativeUserId: "n", identityId: "g" }
    expect(decode(Requests.CreateNativeUserIdentityLinkRequest, link)).toEqual(link)
    const filter = { field: { key: "name", operator: "equals" } }
    expect(decode(Requests.ListSatellitesRequest, { limit: 1, filter })).toEqual({
      limit: 1,
      filter
    })
  })
  it("null means not set and unknown fields are ignored", () => {
    expect(
      decode(Requests.ListSatellitesRequest, {
        limit: 10,
        cursor: null,
        order: null,
        filter: null,
        extra: 1
      })
    ).toEqual({ limit: 10 })
    expect(
      decode(Requests.UpdateSatelliteRequest, { id: "s", name: null, terminationProtection: true })
    ).toEqual({
      id: "s",
      terminationProtection: true
    })
    expect(
      decode(Requests.UpdateConnectorListenerLinkRequest, { id: "l", terminationProtection: null })
    ).toEqual({ id: "l" })
  })

  it("snake_case field names are read after ProtoJson.normalizeKeys", () => {
    expect(
      decode(
        Requests.ListNativeUsersRequest,
        ProtoJson.normalizeKeys({ limit: 5, resource_id: "r1", order: "desc" })
      )
    ).toEqual({ limit: 5, resourceId: "r1", order: "desc" })
    expect(
      decode(
        Requests.CreateBIIntegrationRequest,
        ProtoJson.normalizeKeys({
          name: "bi",
          bi_vendor_a: { api_key: "k", api_secret: "s" },
          linked_db_user_id: "u"
        })
      ).linkedDbUserId
    ).toBe("u")
  })

  it("each CreateHumanUserPassword variant alone", () => {
    expect(decode(Requests.CreateHumanUserPasswordRequest, { email: "a@b.c" })).toEqual({
      email: "a@b.c"
    })
    expect(decode(Requests.CreateHumanUserPasswordRequest, { username: "alice" })).toEqual({
      username: "alice"
    })
    expect(decode(Requests.CreateHumanUserPasswordRequest, { id: "user_1", email: null })).toEqual({
      id: "user_1"
    })
  })

  it("groups nested 40 deep", () => {
    let filter: unknown = { field: { key: "name", operator: "contains", value: valueOf("edge") } }
    for (let i = 0; i < 40; i++)
      filter = { group: { operator: i % 2 === 0 ? "and" : "or", filters: [filter] } }
    const decoded = decode(Requests.ListSatellitesRequest, { limit: 1, filter })
    expect(Schema.encodeSync(Requests.ListSatellitesRequest)(decoded).filter).toEqual(filter)
  })

  it("the boundaries of the rules are accepted", () => {
    for (const limit of [1, 500])
      expect(decode(Requests.ListLogQueriesRequest, { limit }).limit).toBe(limit)
    for (const name of ["abc", "a".repeat(63), "0-9", "---"])
      expect(decode(Requests.CreateConnectorRequest, { name }).name).toBe(name)
    expect(
      decode(Requests.CreatePolicyDataLoaderRequest, {
        name: "n",
        key: "k",
        workerCode: "c",
        workerSchedule: "* * * * * *"
      }).workerSchedule
    ).toBe("* * * * * *")
  })

  const listOk = { limit: 10 }
  const pdl = { name: "n", key: "k", workerCode: "print(1)", workerSchedule: "*/30 * * * * *" }
  const perm = { name: "n", description: "d", code: "package p" }

  it.each([
    [
      "limit 0",
      Requests.ListSatellitesRequest,
      { limit: 0 },
      ["limit"],
      "limit must be from 1 to 500"
    ],
    [
      "limit 501",
      Requests.ListSatellitesRequest,
      { limit: 501 },
      ["limit"],
      "limit must be from 1 to 500"
    ],
    [
      "limit -1",
      Requests.ListLogQueriesRequest,
      { limit: -1 },
      ["limit"],
      "limit must be from 1 to 500"
    ],
    [
      "limit 1.5",
      Requests.ListLogQueriesRequest,
      { limit: 1.5 },
      ["limit"],
      "Expected an integer, actual 1.5"
    ],
    [
      'limit "10"',
      Requests.ListNativeUsersRequest,
      { limit: "10", resourceId: "r" },
      ["limit"],
      `Expected number, actual "10"`
    ],
    ["no limit", Requests.ListScenarioMonitorsRequest, {}, ["limit"], "is missing"],
    [
      "a bad order",
      Requests.ListPolicyStageConfigurationsRequest,
      { limit: 1, order: "newest" },
      ["order"],
      "order must be asc or desc"
    ],
    [
      "order in upper case",
      Requests.ListSatellitesRequest,
      { limit: 1, order: "ASC" },
      ["order"],
      "order must be asc or desc"
    ],
    [
      "an empty resourceId",
      Requests.ListNativeUsersRequest,
      { limit: 1, resourceId: "" },
      ["resourceId"],
      "must not be empty"
    ],
    ["no resourceId", Requests.ListNativeUsersRequest, { limit: 1 }, ["resourceId"], "is missing"],
    [
      "a searchFields entry not listed",
      Requests.ListSatellitesRequest,
      { ...listOk, searchFields: ["type"] },
      ["searchFields", 0],
      "searchFields entries must be id, name"
    ],
    ["an empty id", Requests.GetResourceRequest, { id: "" }, ["id"], "must not be empty"],
    ["no id", Requests.GetPolicyStageConfigurationRequest, {}, ["id"], "is missing"],
    [
      "an empty keyId",
      Requests.GetEncryptionKeysByKeyIdRequest,
      { keyId: "" },
      ["keyId"],
      "must not be empty"
    ],
    [
      "a connector name of 2",
      Requests.CreateConnectorRequest,
      { name: "ab" },
      ["name"],
      "name must be 3 to 63 characters of 0-9, a-z and -"
    ],
    [
      "a connector name of 64",
      Requests.CreateConnectorRequest,
      { name: "a".repeat(64) },
      ["name"],
      "name must be 3 to 63 characters"
    ],
    [
      "a connector name in upper case",
      Requests.CreateConnectorRequest,
      { name: "Edge" },
      ["name"],
      "name must be 3 to 63 characters"
    ],
    [
      "a connector name with _",
      Requests.CreateConnectorRequest,
      { name: "edge_1" },
      ["name"],
      "name must be 3 to 63 characters"
    ],
    [
      "a workerSchedule of 8 characters",
      Requests.CreatePolicyDataLoaderRequest,
      { ...pdl, workerSchedule: "* * * * " },
      ["workerSchedule"],
      "at least 9 characters"
    ],
    [
      "an empty workerCode",
      Requests.CreatePolicyDataLoaderRequest,
      { ...pdl, workerCode: "" },
      ["workerCode"],
      "must not be empty"
    ],
    [
      "a workerRuntime not listed",
      Requests.CreatePolicyDataLoaderRequest,
      { ...pdl, workerRuntime: "python2.7" },
      ["workerRuntime"],
      `actual "python2.7"`
    ],
    [
      "a PolicyDataLoader status not listed",
      Requests.CreatePolicyDataLoaderRequest,
      { ...pdl, status: "dry-run" },
      ["status"],
      `actual "dry-run"`
    ],
    [
      "a Permission status not listed",
      Requests.CreatePermissionRequest,
      { ...perm, status: "enabled" },
      ["status"],
      `actual "enabled"`
    ],
    [
      "an empty Permission name",
      Requests.CreatePermissionRequest,
      { ...perm, name: "" },
      ["name"],
      "must not be empty"
    ],
    [
      "no Permission code",
      Requests.CreatePermissionRequest,
      { name: "n", description: "d" },
      ["code"],
      "is missing"
    ],
    [
      "an identityType not listed",
      Requests.CreateNativeUserIdentityLinkRequest,
      { nativeUserId: "n", identityId: "i", identityType: "robot" },
      ["identityType"],
      `actual "robot"`
    ],
    [
      "a deletionPolicy not listed",
      Requests.CreateDataDiscoveryConfigurationRequest,
      { resourceId: "r", nativeUserId: "n", schedule: "6h", deletionPolicy: "purge" },
      ["deletionPolicy"],
      `actual "purge"`
    ],
    [
      "a BI api key that is empty",
      Requests.CreateBIIntegrationRequest,
      { name: "b", biVendorA: { apiKey: "", apiSecret: "s" } },
      ["biVendorA", "apiKey"],
      "must not be empty"
    ],
    [
      "no mdmVendorA",
      Requests.CreateIntegrationMDMRequest,
      { name: "m" },
      ["mdmVendorA"],
      "is missing"
    ],
    [
      "an empty MDM name",
      Requests.CreateIntegrationMDMRequest,
      { name: "", mdmVendorA: {} },
      ["name"],
      "must not be empty"
    ],
    [
      "an UpdateSatellite name that is empty",
      Requests.UpdateSatelliteRequest,
      { id: "s", name: "" },
      ["name"],
      "must not be empty"
    ],
    [
      "terminationProtection as a string",
      Requests.UpdateSidecarResourceLinkRequest,
      { id: "l", terminationProtection: "true" },
      ["terminationProtection"],
      `actual "true"`
    ],
    [
      "CreateHumanUserPassword with none",
      Requests.CreateHumanUserPasswordRequest,
      {},
      ["email"],
      "exactly one of email, username or id must be set; none is"
    ],
    [
      "CreateHumanUserPassword with only nulls",
      Requests.CreateHumanUserPasswordRequest,
      { email: null, id: null },
      ["email"],
      "none is"
    ],
    [
      "CreateHumanUserPassword with email and username",
      Requests.CreateHumanUserPasswordRequest,
      { email: "a@b.c", username: "a" },
      ["username"],
      "email and username are"
    ],
    [
      "CreateHumanUserPassword with all three",
      Requests.CreateHumanUserPasswordRequest,
      { email: "a@b.c", username: "a", id: "u" },
      ["username"],
      "email and username and id are"
    ],
    [
      "CreateHumanUserPassword with an empty email",
      Requests.CreateHumanUserPasswordRequest,
      { email: "" },
      ["email"],
      "must not be empty"
    ],
    [
      "a filter with an unknown key",
      Requests.ListSatellitesRequest,
      { ...listOk, filter: { field: { key: "region", operator: "equals", value: valueOf("x") } } },
      ["filter", "field", "key"],
      "must be one of the filter keys id, name, termination_protection, space_id, satellite_type, created_at, updated_at"
    ],
    [
      "a filter with a camelCase key",
      Requests.ListSatellitesRequest,
      { ...listOk, filter: { field: { key: "spaceId", operator: "equals", value: valueOf("x") } } },
      ["filter", "field", "key"],
      "must be one of the filter keys"
    ],
    [
      "an MDM filter with a satellite key",
      Requests.ListIntegrationsMDMRequest,
      { ...listOk, filter: { field: { key: "satellite_type", operator: "empty" } } },
      ["filter", "field", "key"],
      "must be one of the filter keys id, name, type, created_at, updated_at"
    ],
    [
      "a filter with an unknown operator",
      Requests.ListSatellitesRequest,
      { ...listOk, filter: { field: { key: "name", operator: "like", value: valueOf("x") } } },
      ["filter", "field", "operator"],
      `actual "like"`
    ],
    [
      "a value that is not a StringValue",
      Requests.ListSatellitesRequest,
      {
        ...listOk,
        filter: {
          field: {
            key: "name",
            operator: "equals",
            value: { "@type": "type.googleapis.com/google.protobuf.Int32Value", value: 1 }
          }
        }
      },
      ["filter", "field", "value", "@type"],
      'Expected "type.googleapis.com/google.protobuf.StringValue"'
    ],
    [
      "a group with no filters",
      Requests.ListSatellitesRequest,
      { ...listOk, filter: { group: { operator: "and", filters: [] } } },
      ["filter", "group", "filters"],
      "a group needs at least one filter"
    ],
    [
      "a group with operator xor",
      Requests.ListSatellitesRequest,
      {
        ...listOk,
        filter: {
          group: { operator: "xor", filters: [{ field: { key: "id", operator: "empty" } }] }
        }
      },
      ["filter", "group", "operator"],
      `actual "xor"`
    ],
    [
      "a bad condition deep in groups",
      Requests.ListSatellitesRequest,
      {
        ...listOk,
        filter: {
          group: {
            operator: "and",
            filters: [
              { field: { key: "id", operator: "empty" } },
              {
                group: { operator: "or", filters: [{ field: { key: "nope", operator: "empty" } }] }
              }
            ]
          }
        }
      },
      ["filter", "group", "filters", 1, "group", "filters", 0, "field", "key"],
      "must be one of the filter keys"
    ]
  ] as const)("rejects %s, naming the field", (_, schema, input, path, message) => {
    const { issues, tree } = reject(schema as Schema.Schema<unknown, unknown>, input)
    expect(messagesAt(issues, path).join("\n")).toContain(message)
    expect(tree).toContain(message)
    const last = path[path.length - 1]!
    expect(tree).toContain(typeof last === "number" ? `[${last}]` : JSON.stringify(last))
  })
})
