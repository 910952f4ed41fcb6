/**
 * For each violation of the catalogue, a probe: whether the violation shows in the server's
 * answers (shared by the catalogue's tests).
 */
import { ConnectError, Operations, Timestamp } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { ReferenceServer } from "../src/index.js"
import { rpc, walk } from "./helpers.js"

export const isErrorBody = Schema.is(ConnectError.ErrorBody)
export const sv = (value: string) => ({
  "@type": "type.googleapis.com/google.protobuf.StringValue",
  value
})
export const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`

export type Server = ReferenceServer.Running

export const permission = (extra: Record<string, unknown> = {}) => ({
  name: unique("perm"),
  description: "d",
  code: "allow := true",
  terminationProtection: false,
  ...extra
})
export const status = (
  s: Server,
  method: Operations.MethodName | string,
  body: unknown,
  init?: Parameters<typeof rpc>[3]
) => Effect.map(rpc(s, method, body, init), (r) => r.status)
export const satellites = (s: Server, body: Record<string, unknown>) =>
  Effect.map(
    rpc(s, "ListSatellites", { limit: 500, ...body }),
    (r) => (r.json.satellites ?? []) as ReadonlyArray<any>
  )
export const satelliteById = (s: Server, id: string) =>
  Effect.map(
    satellites(s, { filter: { field: { key: "id", operator: "equals", value: sv(id) } } }),
    (items) => items[0]
  )

/**
 * For each violation: whether it is visible in the server's answers. Each probe is false on the
 * faithful server, before and after the violation was on (probes that change the store set it up
 * first), and true while it is on.
 */
export const probes: {
  readonly [V in ReferenceServer.ViolationName]: (s: Server) => Effect.Effect<boolean>
} = {
  // no-server-errors, success-shape
  "server-error-on-unknown-field": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0], futureField: 1 }).pipe(
      Effect.map((r) => r.status >= 500)
    ),
  "success-content-type": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => r.headers.get("content-type") !== "application/json")
    ),
  // error-shape
  "invalid-error-body": (s) =>
    rpc(s, "GetResource", {}).pipe(Effect.map((r) => !isErrorBody(r.json))),
  "wrong-status-for-code": (s) =>
    rpc(s, "GetResource", { id: "nope" }).pipe(
      Effect.map((r) => !ConnectError.statusAgrees(r.json.code, r.status))
    ),
  "rate-limit-without-retry-after": (s) =>
    Effect.forEach(Array.from({ length: 20 }), () =>
      rpc(s, "GetResource", { id: s.knownIds.resources[0] })
    ).pipe(
      Effect.map((answers) =>
        answers.some(
          (r) =>
            r.status === 429 &&
            r.json.code === "resource_exhausted" &&
            r.headers.get("retry-after") === null
        )
      )
    ),
  "rate-limit-reset-delta": (s) =>
    Effect.all([
      rpc(s, "GetResource", { id: s.knownIds.resources[0] }),
      rpc(s, "GetResource", { id: "nope" })
    ]).pipe(
      Effect.map((answers) => answers.every((r) => r.headers.get("x-ratelimit-reset") === "60"))
    ),
  "unknown-id-invalid": (s) =>
    Effect.gen(function* () {
      const get = yield* rpc(s, "GetResource", { id: "resource_nope" })
      const update = yield* rpc(s, "UpdateSatellite", {
        id: "satellite_nope",
        terminationProtection: true
      })
      return get.json.code === "invalid_argument" && update.json.code === "invalid_argument"
    }),
  "unknown-reference-accepted": (s) =>
    Effect.gen(function* () {
      const connector = yield* rpc(s, "CreateConnector", {
        name: unique("conn"),
        spaceId: "space_nope",
        terminationProtection: false
      })
      const password = yield* rpc(s, "CreateHumanUserPassword", { email: "nobody@nowhere.invalid" })
      return (
        connector.status === 200 &&
        password.status === 200 &&
        password.json.username === s.knownIds.users[0]!.username
      )
    }),
  // secrets
  "secret-in-error": (s) =>
    rpc(s, "CreateBIIntegration", {
      name: "",
      biVendorA: { apiKey: "probe-api-key", apiSecret: "probe-api-secret" }
    }).pipe(
      Effect.map(
        (r) =>
          r.json.code === "invalid_argument" &&
          r.text.includes("probe-api-secret") &&
          r.text.includes("probe-api-key")
      )
    ),
  "key-in-error": (s) =>
    rpc(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "x-api-key": "probe-wrong-key" } }
    ).pipe(Effect.map((r) => r.status === 401 && r.text.includes("probe-wrong-key"))),
  // response-schema
  "missing-required-field": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => !("id" in r.json.resource))
    ),
  "wrong-field-type": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => typeof r.json.resource.id !== "string")
    ),
  "non-utc-timestamp": (s) =>
    rpc(s, "ListSatellites", { limit: 3 }).pipe(
      Effect.map((r) => !r.json.satellites[0].createdAt.endsWith("Z"))
    ),
  "timestamp-fraction-digits": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => /:\d\d\.\d\dZ$/.test(r.json.resource.createdAt))
    ),
  "int64-as-number": (s) =>
    rpc(s, "ListLogQueries", { limit: 10 }).pipe(
      Effect.map((r) =>
        r.json.savedQueries.some((q: any) => typeof q.query.relativeTime === "number")
      )
    ),
  "snake-case-output": (s) =>
    rpc(s, "ListSatellites", { limit: 3 }).pipe(
      Effect.map((r) => "list_metadata" in r.json && "created_at" in r.json.satellites[0])
    ),
  // timestamps
  "created-at-in-future": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => Date.parse(r.json.resource.createdAt) > Date.now())
    ),
  "expires-at-in-past": (s) =>
    rpc(s, "CreateHumanUserPassword", { email: s.knownIds.users[0]!.email }).pipe(
      Effect.map((r) => Date.parse(r.json.expiresAt) < Date.now())
    ),
  // valid-accepted
  "rejects-unknown-field": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0], futureField: 1 }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "rejects-snake-case": (s) =>
    rpc(s, "ListNativeUsers", { limit: 5, resource_id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "rejects-null": (s) =>
    rpc(s, "ListSatellites", { limit: 5, search: null }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "nested-null-refused": (s) =>
    rpc(s, "CreateIntegrationMDM", {
      name: unique("mdm"),
      mdmVendorA: { apiKey: "k", apiUrl: null }
    }).pipe(Effect.map((r) => r.json.code === "invalid_argument")),
  "requires-optional-field": (s) =>
    rpc(s, "CreatePermission", { name: unique("perm"), description: "d", code: "c" }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "limit-off-by-one": (s) =>
    rpc(s, "ListSatellites", { limit: 500 }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  // invalid-rejected
  "ignored-min-length": (s) =>
    rpc(s, "CreatePermission", permission({ name: "" })).pipe(Effect.map((r) => r.status === 200)),
  "ignored-limit-range": (s) =>
    rpc(s, "ListSatellites", { limit: 501 }).pipe(Effect.map((r) => r.status === 200)),
  "ignored-enum": (s) =>
    rpc(s, "CreatePermission", permission({ status: "retired" })).pipe(
      Effect.map((r) => r.status === 200 && r.json.permission.status === "draft")
    ),
  "ignored-json-type": (s) =>
    rpc(s, "ListSatellites", { limit: 2.5 }).pipe(
      Effect.map((r) => r.status === 200 && r.json.satellites.length === 2)
    ),
  "list-entry-type-dropped": (s) =>
    rpc(s, "ListSatellites", { limit: 2, searchFields: [12345, "name"] }).pipe(
      Effect.map((r) => r.status === 200 && r.json.satellites.length === 2)
    ),
  "boolean-strings-coerced": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[0]!
      const before = yield* satelliteById(s, id)
      const same = String(before.terminationProtection === true)
      const r = yield* rpc(s, "UpdateSatellite", { id, terminationProtection: same })
      return r.status === 200
    }),
  "ignored-required": (s) =>
    rpc(s, "CreatePermission", {
      name: unique("perm"),
      code: "c",
      terminationProtection: false
    }).pipe(Effect.map((r) => r.status === 200 && r.json.permission.description === "missing")),
  "ignored-one-of": (s) =>
    rpc(s, "CreateHumanUserPassword", {
      email: s.knownIds.users[0]!.email,
      username: s.knownIds.users[1]!.username
    }).pipe(
      Effect.map((r) => r.status === 200 && r.json.username === s.knownIds.users[0]!.username)
    ),
  "ignored-connector-name-pattern": (s) =>
    rpc(s, "CreateConnector", { name: "Not A Valid Name!", terminationProtection: false }).pipe(
      Effect.map((r) => r.status === 200 && r.json.connector.name === "Not A Valid Name!")
    ),
  "empty-body-accepted": (s) =>
    status(s, "ListSatellites", undefined, { raw: "" }).pipe(Effect.map((st) => st === 200)),
  "non-object-body-accepted": (s) =>
    Effect.gen(function* () {
      const statuses = [
        yield* status(s, "ListSatellites", undefined, { raw: "[]" }),
        yield* status(s, "ListSatellites", undefined, { raw: "{" }),
        yield* status(s, "ListSatellites", undefined, { raw: '"text"' })
      ]
      return statuses.every((st) => st === 200)
    }),
  "unknown-cursor-accepted": (s) =>
    status(s, "ListSatellites", { limit: 2, cursor: "never-given" }).pipe(
      Effect.map((st) => st === 200)
    ),
  "unknown-filter-key-accepted": (s) =>
    satellites(s, {
      filter: { field: { key: "no_such_key", operator: "equals", value: sv("x") } }
    }).pipe(Effect.map((items) => items.length === s.knownIds.satellites.length)),
  "empty-group-accepted": (s) =>
    satellites(s, { filter: { group: { operator: "and", filters: [] } } }).pipe(
      Effect.map((items) => items.length === s.knownIds.satellites.length)
    ),
  "ignored-filter-one-of": (s) =>
    satellites(s, {
      filter: {
        group: {
          operator: "or",
          filters: [
            {
              field: { key: "id", operator: "not_empty" },
              group: { operator: "and", filters: [{ field: { key: "id", operator: "empty" } }] }
            }
          ]
        }
      }
    }).pipe(Effect.map((items) => items.length === s.knownIds.satellites.length)),
  // auth
  "auth-ignored": (s) =>
    rpc(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "x-api-key": "wrong" } }
    ).pipe(Effect.map((r) => r.status === 200)),
  // protocol
  "wrong-method-accepted": (s) =>
    rpc(s, "GetResource", {}, { httpMethod: "GET" }).pipe(Effect.map((r) => r.status !== 405)),
  "unknown-route-wrong-code": (s) =>
    rpc(s, "/core.v1.NoSuchService/NoSuchMethod", {}).pipe(
      Effect.map((r) => r.status === 404 && r.json.code === "not_found")
    ),
  "content-type-ignored": (s) =>
    status(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "content-type": "text/plain" } }
    ).pipe(Effect.map((st) => st === 200)),
  "version-header-ignored": (s) =>
    status(s, "CreatePermission", permission(), {
      headers: { "connect-protocol-version": undefined }
    }).pipe(Effect.map((st) => st === 200)),
  "small-body-limit": (s) =>
    rpc(s, "ListSatellites", { limit: 1, padding: "a".repeat(100_000) }).pipe(
      Effect.map((r) => r.json.code === "resource_exhausted")
    ),
  "deadline-wrong-code": (s) =>
    rpc(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "connect-timeout-ms": "50" } }
    ).pipe(Effect.map((r) => r.status === 499 && r.json.code === "canceled")),
  "long-deadline-passed": (s) =>
    rpc(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "connect-timeout-ms": "5000" } }
    ).pipe(Effect.map((r) => r.json.code === "deadline_exceeded")),
  // faults nobody listed
  "deadline-held": (s) =>
    Effect.gen(function* () {
      const started = Date.now()
      const r = yield* rpc(
        s,
        "GetResource",
        { id: s.knownIds.resources[0] },
        { headers: { "connect-timeout-ms": "50" } }
      )
      return r.status === 200 && Date.now() - started > 800
    }),
  "media-type-exact": (s) =>
    status(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "content-type": "application/json; charset=utf-8" } }
    ).pipe(Effect.map((st) => st === 415)),
  "json-escapes-literal": (s) =>
    status(s, "ListSatellites", undefined, { raw: '{"\\u006cimit":1}' }).pipe(
      Effect.map((st) => st === 400)
    ),
  "json-escapes-nested-literal": (s) =>
    status(s, "ListSatellites", undefined, {
      raw: '{"limit":1,"filter":{"field":{"\\u006bey":"name","operator":"not_empty"}}}'
    }).pipe(Effect.map((st) => st === 400)),
  "zero-value-refused": (s) =>
    status(s, "ListSatellites", { limit: 1, searchFields: [] }).pipe(
      Effect.map((st) => st === 400)
    ),
  "route-case-insensitive": (s) =>
    status(s, "/core.v1.resourceservice/getresource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((st) => st === 200)
    ),
  "route-by-prefix": (s) =>
    status(s, "/core.v1.ResourceService/GetResources", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((st) => st === 200)
    ),
  "route-by-method-name": (s) =>
    status(s, "/core.v2.SatelliteService/GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((st) => st === 200)
    ),
  // create-echo
  "create-not-echoed": (s) =>
    rpc(s, "CreatePermission", permission({ name: "echo-me" })).pipe(
      Effect.map((r) => r.json.permission.name !== "echo-me")
    ),
  "identity-link-wrong-group": (s) =>
    rpc(s, "CreateNativeUserIdentityLink", {
      nativeUserId: s.knownIds.nativeUsers[0],
      identityId: s.knownIds.groups[0],
      identityType: "group"
    }).pipe(Effect.map((r) => r.status === 200 && !("group" in r.json.link))),
  "identity-link-without-native-user": (s) =>
    rpc(s, "CreateNativeUserIdentityLink", {
      nativeUserId: s.knownIds.nativeUsers[0],
      identityId: s.knownIds.groups[0],
      identityType: "group"
    }).pipe(Effect.map((r) => r.status === 200 && !("nativeUser" in r.json.link))),
  "create-default-not-zero": (s) => {
    const { terminationProtection: _, ...left } = permission()
    return rpc(s, "CreatePermission", left).pipe(
      Effect.map((r) => r.status === 200 && r.json.permission.terminationProtection === true)
    )
  },
  "create-without-created-at": (s) =>
    rpc(s, "CreatePermission", permission()).pipe(
      Effect.map((r) => r.status === 200 && !("createdAt" in r.json.permission))
    ),
  "password-for-another-user": (s) =>
    rpc(s, "CreateHumanUserPassword", { email: s.knownIds.users[0]!.email }).pipe(
      Effect.map((r) => r.status === 200 && r.json.username !== s.knownIds.users[0]!.username)
    ),
  "secrets-masked": (s) =>
    rpc(s, "CreateIntegrationMDM", {
      name: unique("masked"),
      mdmVendorA: { apiKey: "probe-key", apiUrl: "https://mdm.example.com" }
    }).pipe(
      Effect.map((r) => r.status === 200 && r.json.integration.mdmVendorA.apiKey === "********")
    ),
  "create-stored-differently": (s) =>
    Effect.gen(function* () {
      const name = unique("stored")
      const created = yield* rpc(s, "CreateIntegrationMDM", {
        name,
        mdmVendorA: { apiKey: "probe-key", apiUrl: "https://mdm.example.com" }
      })
      const listed = yield* rpc(s, "ListIntegrationsMDM", {
        limit: 5,
        filter: { field: { key: "id", operator: "equals", value: sv(created.json.integration.id) } }
      })
      return (
        created.json.integration.mdmVendorA.apiUrl === "https://mdm.example.com" &&
        listed.json.integrations[0].mdmVendorA.apiUrl !== "https://mdm.example.com"
      )
    }),
  "ids-from-clock": (s) =>
    Effect.gen(function* () {
      const ids = yield* Effect.forEach([1, 2, 3], () =>
        Effect.map(rpc(s, "CreatePermission", permission()), (r) => r.json.permission.id)
      )
      return new Set(ids).size < ids.length
    }),
  // update-semantics
  "update-ignored": (s) =>
    Effect.gen(function* () {
      const name = unique("probe")
      const r = yield* rpc(s, "UpdateSatellite", { id: s.knownIds.satellites[9], name })
      return r.json.satellite.name !== name
    }),
  "update-keeps-old-reference": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[12]!
      // A move to another space than the one the satellite is in.
      const current = (yield* satelliteById(s, id)).spaceId
      const other = s.knownIds.spaces.find((space) => space !== current)
      const r = yield* rpc(s, "UpdateSatellite", { id, spaceId: other })
      return r.json.satellite.spaceId !== other || r.json.satellite.space?.id !== other
    }),
  "update-false-ignored": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[11]
      yield* rpc(s, "UpdateSatellite", { id, terminationProtection: true })
      const r = yield* rpc(s, "UpdateSatellite", { id, terminationProtection: false })
      return r.json.satellite.terminationProtection === true
    }),
  "update-clears-unsent": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[20]
      yield* rpc(s, "UpdateSatellite", { id, name: "named-before" })
      const r = yield* rpc(s, "UpdateSatellite", { id, terminationProtection: true })
      return r.json.satellite.name !== "named-before"
    }),
  "update-null-clears": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[21]
      yield* rpc(s, "UpdateSatellite", { id, name: "named-before" })
      const r = yield* rpc(s, "UpdateSatellite", { id, name: null, terminationProtection: true })
      return r.json.satellite.name !== "named-before"
    }),
  "update-not-stored": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[22]!
      const name = unique("stored")
      const r = yield* rpc(s, "UpdateSatellite", { id, name })
      const read = yield* satelliteById(s, id)
      return r.json.satellite.name === name && read.name !== name
    }),
  "updated-at-not-moved": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[10]!
      const before = yield* satelliteById(s, id)
      const updated = yield* rpc(s, "UpdateSatellite", { id, terminationProtection: true })
      return updated.json.satellite.updatedAt === before.updatedAt
    }),
  // paging
  "key-id-as-object-id": (s) =>
    rpc(s, "GetEncryptionKeysByKeyId", { keyId: s.knownIds.encryptionKeyIds[0] }).pipe(
      Effect.map((r) => r.status === 200 && (r.json.encryptionKeys ?? []).length === 0)
    ),
  "update-stale-index": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.satellites[23]!
      const name = unique("renamed")
      yield* rpc(s, "UpdateSatellite", { id, name })
      const found = yield* satellites(s, { search: name })
      return !found.some((x) => x.id === id)
    }),
  "paging-count-mismatch": (s) =>
    rpc(s, "ListSatellites", { limit: 5 }).pipe(
      Effect.map((r) => r.json.listMetadata.count !== r.json.satellites.length)
    ),
  "limit-exceeded": (s) =>
    rpc(s, "ListSatellites", { limit: 3 }).pipe(
      Effect.map((r) => r.json.satellites.length === 4 && r.json.listMetadata.count === 4)
    ),
  "paging-duplicates": (s) =>
    walk(s, "ListSatellites", { limit: 50 }).pipe(
      Effect.map(({ items }) => new Set(items.map((i) => i.id)).size !== items.length)
    ),
  "paging-skips": (s) =>
    walk(s, "ListSatellites", { limit: 50 }).pipe(
      Effect.map(
        ({ items }) =>
          new Set(items.map((i) => i.id)).size === items.length &&
          items.length < s.knownIds.satellites.length
      )
    ),
  "next-cursor-on-last-page": (s) =>
    Effect.gen(function* () {
      const last = yield* rpc(s, "ListSatellites", { limit: 499 })
      if (!last.json.listMetadata.nextCursor) return false
      const after = yield* rpc(s, "ListSatellites", {
        limit: 499,
        cursor: last.json.listMetadata.nextCursor
      })
      return after.status === 200 && (after.json.satellites ?? []).length === 0
    }),
  "empty-page-next-cursor": (s) =>
    rpc(s, "ListSatellites", { limit: 5, search: unique("nothing-matches") }).pipe(
      Effect.map(
        (r) =>
          r.status === 200 &&
          (r.json.satellites ?? []).length === 0 &&
          typeof r.json.listMetadata?.nextCursor === "string" &&
          r.json.listMetadata.nextCursor !== ""
      )
    ),
  "after-before-swapped": (s) =>
    rpc(s, "ListSatellites", { limit: 3 }).pipe(
      Effect.map((r) => r.json.listMetadata.after === r.json.satellites[0].id)
    ),
  "order-ignored": (s) =>
    Effect.gen(function* () {
      const asc = yield* rpc(s, "ListSatellites", { limit: 1, order: "asc" })
      const desc = yield* rpc(s, "ListSatellites", { limit: 1, order: "desc" })
      return asc.json.satellites[0].id === desc.json.satellites[0].id
    }),
  // search-filter
  "search-ignored": (s) =>
    satellites(s, { search: "AI-GATEWAY" }).pipe(
      Effect.map((items) => items.some((x: any) => !x.name.includes("ai-gateway")))
    ),
  "search-case-sensitive": (s) =>
    Effect.gen(function* () {
      const upper = yield* satellites(s, { search: "AI-GATEWAY" })
      const lower = yield* satellites(s, { search: "ai-gateway" })
      return upper.length === 0 && lower.length > 0
    }),
  "search-fields-ignored": (s) =>
    satellites(s, { search: s.knownIds.satellites[0], searchFields: ["id"] }).pipe(
      Effect.map((items) => items.length === 0)
    ),
  "filter-ignored": (s) =>
    rpc(s, "ListIntegrationsMDM", {
      limit: 500,
      filter: { field: { key: "name", operator: "starts_with", value: sv("Fleet paris") } }
    }).pipe(
      Effect.map((r) => r.json.integrations.some((x: any) => !x.name.startsWith("Fleet paris")))
    ),
  "filter-or-as-and": (s) =>
    Effect.gen(function* () {
      const [a, b] = s.knownIds.satellites
      const either = (id: string | undefined) => ({
        field: { key: "id", operator: "equals", value: sv(String(id)) }
      })
      const items = yield* satellites(s, {
        filter: { group: { operator: "or", filters: [either(a), either(b)] } }
      })
      return items.length === 0
    }),
  "nested-or-as-and": (s) =>
    Effect.gen(function* () {
      const [a, b] = s.knownIds.satellites
      const either = (id: string | undefined) => ({
        field: { key: "id", operator: "equals", value: sv(String(id)) }
      })
      const items = yield* satellites(s, {
        filter: {
          group: {
            operator: "and",
            filters: [{ group: { operator: "or", filters: [either(a), either(b)] } }]
          }
        }
      })
      return items.length === 0
    }),
  // The satellite's own createdAt written at +02:00: the same instant, so not lower than itself (its text is).
  "time-filter-as-text": (s) =>
    Effect.gen(function* () {
      const item = yield* satelliteById(s, s.knownIds.satellites[0]!)
      const sameInstant = Timestamp.formatAt(
        Timestamp.parse(item.createdAt) as Timestamp.Timestamp,
        { offsetMinutes: 120 }
      )!
      const items = yield* satellites(s, {
        filter: { field: { key: "created_at", operator: "lower_than", value: sv(sameInstant) } }
      })
      return items.some((x: any) => x.id === item.id)
    }),
  // The whole second of a satellite's createdAt that carries a fraction: the item is later than it.
  "time-filter-value-precision": (s) =>
    Effect.gen(function* () {
      const item = (yield* satellites(s, {})).find(
        (x: any) => (Timestamp.parse(x.createdAt) as Timestamp.Timestamp).nanos !== 0
      )
      const t = Timestamp.parse(item.createdAt) as Timestamp.Timestamp
      const second = Timestamp.format(new Timestamp.Timestamp({ seconds: t.seconds, nanos: 0 }))
      const items = yield* satellites(s, {
        filter: { field: { key: "created_at", operator: "greater_than", value: sv(second) } }
      })
      return !items.some((x: any) => x.id === item.id)
    }),
  "space-filter-ignored": (s) =>
    satellites(s, { spaceId: s.knownIds.spaces[0] }).pipe(
      Effect.map((items) => items.some((x: any) => x.spaceId !== s.knownIds.spaces[0]))
    ),
  "parent-scope-ignored": (s) =>
    rpc(s, "ListNativeUsers", { limit: 500, resourceId: s.knownIds.resources[0] }).pipe(
      Effect.map((r) =>
        (r.json.nativeUsers ?? []).some((u: any) => u.resourceId !== s.knownIds.resources[0])
      )
    ),
  "key-id-ignored": (s) =>
    rpc(s, "GetEncryptionKeysByKeyId", { keyId: s.knownIds.encryptionKeyIds[2] }).pipe(
      Effect.map((r) =>
        r.json.encryptionKeys.some((k: any) => k.keyId !== s.knownIds.encryptionKeyIds[2])
      )
    ),
  // stable-reads
  "get-wrong-object": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[1] }).pipe(
      Effect.map((r) => r.json.resource.id !== s.knownIds.resources[1])
    ),
  "unstable-read": (s) =>
    Effect.gen(function* () {
      const a = yield* rpc(s, "GetResource", { id: s.knownIds.resources[1] })
      const b = yield* rpc(s, "GetResource", { id: s.knownIds.resources[1] })
      return JSON.stringify(a.json) !== JSON.stringify(b.json)
    }),
  "listed-flags-inverted": (s) =>
    Effect.gen(function* () {
      const listed = yield* rpc(s, "ListPolicyStageConfigurations", { limit: 500 })
      const item = listed.json.policyStageConfigurations.find((x: any) =>
        Object.values(x).some((v) => typeof v === "boolean")
      )
      const got = yield* rpc(s, "GetPolicyStageConfiguration", { id: item.id })
      return JSON.stringify(got.json.policyStageConfiguration) !== JSON.stringify(item)
    }),
  // faults of the List operations' inputs
  "shared-search-fields": (s) =>
    status(s, "ListSatellites", { limit: 5, search: "a", searchFields: ["type"] }).pipe(
      Effect.map((st) => st === 200)
    ),
  "shared-filter-keys": (s) =>
    status(s, "ListIntegrationsMDM", {
      limit: 5,
      filter: { field: { key: "satellite_type", operator: "equals", value: sv("ai") } }
    }).pipe(Effect.map((st) => st === 200)),
  "search-like-wildcards": (s) =>
    satellites(s, { search: "ai_gateway" }).pipe(Effect.map((items) => items.length > 0)),
  "filter-regex": (s) =>
    rpc(s, "ListIntegrationsMDM", {
      limit: 500,
      filter: { field: { key: "name", operator: "contains", value: sv("Fleet.paris") } }
    }).pipe(Effect.map((r) => (r.json.integrations ?? []).length > 0)),
  "empty-operators-null": (s) =>
    satellites(s, { filter: { field: { key: "space_id", operator: "empty" } } }).pipe(
      Effect.map((items) => items.length === 0)
    ),
  "cursor-page-number": (s) =>
    Effect.gen(function* () {
      const first = yield* rpc(s, "ListSatellites", { limit: 1 })
      const later = yield* rpc(s, "ListSatellites", {
        limit: 3,
        cursor: first.json.listMetadata.nextCursor
      })
      const all = yield* satellites(s, { limit: 4 })
      return later.json.satellites[0].id !== all[1].id
    }),
  "limit-one-refused": (s) =>
    rpc(s, "ListSatellites", { limit: 1 }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "short-parent-id-refused": (s) =>
    rpc(s, "ListNativeUsers", { limit: 1, resourceId: "\u{1F600}" }).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "name-255-refused": (s) =>
    rpc(s, "CreatePermission", permission({ name: unique("perm").padEnd(255, "n") })).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "lists-forget-older-creates": (s) =>
    Effect.gen(function* () {
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) {
        const created = yield* rpc(s, "CreateIntegrationMDM", {
          name: unique("mdm"),
          mdmVendorA: { apiKey: "probe-key", apiUrl: "https://mdm.example.com" }
        })
        ids.push(created.json.integration.id)
      }
      const listed = yield* rpc(s, "ListIntegrationsMDM", { limit: 500 })
      return !(listed.json.integrations ?? []).some((x: { id: string }) => x.id === ids[0])
    }),
  "leading-digit-name-refused": (s) =>
    rpc(s, "CreatePermission", permission({ name: unique("0perm") })).pipe(
      Effect.map((r) => r.json.code === "invalid_argument")
    ),
  "media-type-parameter-refused": (s) =>
    status(s, "CreatePermission", permission(), {
      headers: { "content-type": "application/json; charset=utf-8" }
    }).pipe(Effect.map((st) => st === 415)),
  "success-byte-order-mark": (s) =>
    Effect.promise(() => bytesOf(s, "GetResource", { id: s.knownIds.resources[0] })).pipe(
      Effect.map((b) => b[0] === 0xef)
    ),
  "error-byte-order-mark": (s) =>
    Effect.promise(() => bytesOf(s, "GetResource", { id: "" })).pipe(
      Effect.map((b) => b[0] === 0xef)
    ),
  "success-charset-latin1": (s) =>
    rpc(s, "GetResource", { id: s.knownIds.resources[0] }).pipe(
      Effect.map((r) => r.status === 200 && /iso-8859-1/.test(r.headers.get("content-type") ?? ""))
    ),
  "long-answers-cut": (s) =>
    rpc(s, "ListSatellites", { limit: 500 }).pipe(
      Effect.map((r) => r.status === 200 && r.json === undefined)
    ),
  "error-charset-latin1": (s) =>
    rpc(s, "GetResource", { id: "" }).pipe(
      Effect.map((r) => r.status !== 200 && /iso-8859-1/.test(r.headers.get("content-type") ?? ""))
    ),
  // An MDM integration named with É in both cases, searched with its case swapped.
  "search-ascii-case-folding": (s) =>
    Effect.gen(function* () {
      const name = unique("\u00C9t\u00E9")
      yield* rpc(s, "CreateIntegrationMDM", {
        name,
        mdmVendorA: { apiKey: "probe-key", apiUrl: "https://mdm.example.com/api" }
      })
      const r = yield* rpc(s, "ListIntegrationsMDM", { limit: 500, search: name.toUpperCase() })
      return (r.json.integrations ?? []).length === 0
    }),
  "selection-first-page-only": (s) =>
    Effect.gen(function* () {
      const all = yield* satellites(s, {})
      const ids = [all[0].id, all[2].id]
      const filter = {
        group: {
          operator: "or",
          filters: ids.map((id) => ({ field: { key: "id", operator: "equals", value: sv(id) } }))
        }
      }
      const first = yield* rpc(s, "ListSatellites", { limit: 1, filter })
      const second = yield* rpc(s, "ListSatellites", {
        limit: 1,
        filter,
        cursor: first.json.listMetadata.nextCursor
      })
      return second.json.satellites[0].id !== ids[1]
    }),
  "empty-search-fields-nothing": (s) =>
    satellites(s, { search: "a", searchFields: [] }).pipe(
      Effect.map((items) => items.length === 0)
    ),
  "update-turns-off-unsent": (s) =>
    Effect.gen(function* () {
      const id = s.knownIds.connectorHostnames[0]
      yield* rpc(s, "UpdateConnectorHostname", { id, terminationProtection: true })
      const r = yield* rpc(s, "UpdateConnectorHostname", { id, managedTls: true })
      return r.json.connectorHostname.terminationProtection !== true
    }),
  "list-without-nested": (s) =>
    satellites(s, {}).pipe(
      Effect.map((items) => items.some((i) => i.spaceId !== undefined && i.space === undefined))
    ),
  "min-length-in-bytes": (s) =>
    rpc(s, "CreatePolicyDataLoader", {
      name: unique("loader"),
      key: unique("key"),
      workerRuntime: "nodejs18.x",
      workerCode: "export default () => ({})",
      workerSchedule: "\u4e2d".repeat(8)
    }).pipe(Effect.map((r) => r.status === 200)),
  // A satellite's createdAt written two hours east of UTC: a value no later than it selects it.
  "time-filter-offset-ignored": (s) =>
    Effect.gen(function* () {
      const item = (yield* satellites(s, {}))[0]
      const t = Timestamp.parse(item.createdAt) as Timestamp.Timestamp
      const east = Timestamp.formatAt(t, { offsetMinutes: 120 })!
      const items = yield* satellites(s, {
        filter: { field: { key: "created_at", operator: "lower_than", value: sv(east) } }
      })
      return items.some((x: any) => x.id === item.id)
    }),
  // The tenth of a second after a satellite's createdAt, written with one digit: the item is earlier.
  "time-filter-fraction-grouped": (s) =>
    Effect.gen(function* () {
      const nanosOf = (x: any) => (Timestamp.parse(x.createdAt) as Timestamp.Timestamp).nanos
      const item = (yield* satellites(s, {})).find(
        (x: any) => nanosOf(x) % 1e8 !== 0 && nanosOf(x) < 9e8
      )
      const t = Timestamp.parse(item.createdAt) as Timestamp.Timestamp
      const second = Timestamp.format(new Timestamp.Timestamp({ seconds: t.seconds, nanos: 0 }))
      const value = `${second.slice(0, -1)}.${Math.floor(t.nanos / 1e8) + 1}Z`
      const items = yield* satellites(s, {
        filter: { field: { key: "created_at", operator: "lower_than", value: sv(value) } }
      })
      return !items.some((x: any) => x.id === item.id)
    }),
  // keys compared loosely, stored text changed, a long deadline overflowed
  "ids-match-loosely": (s) =>
    rpc(s, "GetResource", { id: ` ${s.knownIds.resources[1]!.toUpperCase()}` }).pipe(
      Effect.map((r) => r.status === 200)
    ),
  "key-ids-match-loosely": (s) =>
    rpc(s, "GetEncryptionKeysByKeyId", {
      keyId: `${s.knownIds.encryptionKeyIds[0]!.toUpperCase()} `
    }).pipe(Effect.map((r) => (r.json.encryptionKeys ?? []).length > 0)),
  "stored-text-trimmed": (s) =>
    rpc(s, "CreatePermission", permission({ description: "  d  " })).pipe(
      Effect.map((r) => r.status === 200 && r.json.permission.description === "d")
    ),
  "create-null-as-text": (s) =>
    rpc(s, "CreateDataDiscoveryConfiguration", {
      resourceId: s.knownIds.resources[0],
      nativeUserId: s.knownIds.nativeUsers[0],
      database: null,
      schedule: "6h",
      deletionPolicy: "delete"
    }).pipe(
      Effect.map((r) => r.status === 200 && r.json.dataDiscoveryConfiguration.database === "null")
    ),
  "long-text-cut": (s) =>
    rpc(s, "CreatePermission", permission({ description: "d".repeat(255) })).pipe(
      Effect.map((r) => r.status === 200 && r.json.permission.description.length < 255)
    ),
  "deadline-overflow": (s) =>
    rpc(
      s,
      "GetResource",
      { id: s.knownIds.resources[0] },
      { headers: { "connect-timeout-ms": String(2 ** 31 - 1) } }
    ).pipe(Effect.map((r) => r.json.code === "deadline_exceeded")),
  "search-term-trimmed": (s) =>
    Effect.gen(function* () {
      const [item] = yield* satellites(s, {})
      const found = yield* satellites(s, { search: ` ${item.name} ` })
      return found.some((x: any) => x.id === item.id)
    }),
  "filter-pads-spaces": (s) =>
    Effect.gen(function* () {
      const [item] = yield* satellites(s, {})
      const found = yield* satellites(s, {
        filter: { field: { key: "name", operator: "equals", value: sv(`${item.name} `) } }
      })
      return found.some((x: any) => x.id === item.id)
    })
}

/** The bytes of an answer's body as they came (fetch's text() would drop a byte order mark). */
const bytesOf = async (s: Server, method: Operations.MethodName, body: unknown) => {
  const res = await fetch(s.url + Operations.operations[method].path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": s.apiKeys[0]! },
    body: JSON.stringify(body)
  })
  return new Uint8Array(await res.arrayBuffer())
}
