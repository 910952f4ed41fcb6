/**
 * For each latitude switch, a probe and what it shows by default and switched (shared by the
 * latitude tests).
 */
import { ContractRules, Filter } from "@data-access/schema"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Zlib from "node:zlib"
import type { Latitude, ReferenceServer } from "../src/index.js"
import { type Reply, rpc, valid, walk } from "./helpers.js"

export type Server = ReferenceServer.Running

export const sv = (value: string) => ({ "@type": Filter.STRING_VALUE_TYPE, value })
export const condition = (key: string, operator: Filter.Operator, value?: string) => ({
  field: { key, operator, ...(value === undefined ? {} : { value: sv(value) }) }
})

/** What a caller sees of an answer: `ok`, or the code and the field the message names. */
export const seen = (r: Reply): string => {
  if (r.status === 200) return "ok"
  if (r.text === "") return `${r.status} (empty body)`
  const field = /^([A-Za-z0-9_.[\]]+): /.exec(r.json?.message ?? "")?.[1]
  return field === undefined
    ? `${r.status} ${r.json?.code}`
    : `${r.status} ${r.json?.code} ${field}`
}

export const satellites = (s: Server, request: Record<string, unknown>) =>
  rpc(s, "ListSatellites", { limit: 500, ...request })

let serial = 0
/** A name no other request of this file uses. */
export const fresh = (prefix: string) => `${prefix}-${++serial}`

/**
 * One probe per switch: requests whose answers differ between the default choice and the switched
 * one, and what each server answers.
 */
export interface Case {
  readonly probe: (s: Server) => Effect.Effect<unknown>
  readonly byDefault: unknown
  readonly switched: unknown
  /** What the probe shows with every switch on, when another switch changes it too. */
  readonly underAll?: unknown
}

export const cases: { readonly [N in Latitude.LatitudeName]: Case } = {
  "strict-formats": {
    probe: (s) =>
      Effect.forEach(
        [
          rpc(s, "CreatePolicyDataLoader", {
            ...valid.CreatePolicyDataLoader(s.knownIds),
            name: fresh("pdl"),
            workerSchedule: "every 30 seconds"
          }),
          rpc(s, "CreatePolicyDataLoader", {
            ...valid.CreatePolicyDataLoader(s.knownIds),
            name: fresh("pdl"),
            key: "   "
          }),
          rpc(s, "CreateDataDiscoveryConfiguration", {
            ...valid.CreateDataDiscoveryConfiguration(s.knownIds),
            schedule: "weekly"
          }),
          rpc(s, "CreateHumanUserPassword", { email: "nobody" }),
          rpc(s, "CreateIntegrationMDM", {
            name: fresh("mdm"),
            mdmVendorA: { apiUrl: "ftp://mdm.example.com" }
          }),
          rpc(s, "CreatePermission", {
            ...valid.CreatePermission(s.knownIds),
            name: fresh("perm"),
            code: " \n "
          }),
          // the values section 7 shows pass either way
          rpc(s, "CreateDataDiscoveryConfiguration", {
            ...valid.CreateDataDiscoveryConfiguration(s.knownIds),
            schedule: "0 3 * * 1-5"
          }),
          rpc(s, "CreateHumanUserPassword", { email: s.knownIds.users[0]!.email })
        ],
        (r) => Effect.map(r, seen)
      ),
    byDefault: ["ok", "ok", "ok", "404 not_found email", "ok", "ok", "ok", "ok"],
    switched: [
      "400 invalid_argument workerSchedule",
      "400 invalid_argument key",
      "400 invalid_argument schedule",
      "400 invalid_argument email",
      "400 invalid_argument mdmVendorA.apiUrl",
      "400 invalid_argument code",
      "ok",
      "ok"
    ]
  },
  "string-limits": {
    probe: (s) =>
      Effect.forEach(
        [fresh("p").padEnd(256, "x"), `${fresh("bell")}\u0007`, fresh("p").padEnd(255, "x")],
        (name) =>
          Effect.map(
            rpc(s, "CreatePermission", { ...valid.CreatePermission(s.knownIds), name }),
            seen
          )
      ),
    byDefault: ["ok", "ok", "ok"],
    switched: ["400 invalid_argument name", "400 invalid_argument name", "ok"]
  },
  "unique-names": {
    probe: (s) =>
      Effect.gen(function* () {
        const name = fresh("edge")
        // three at once: only one may win
        const replies = yield* Effect.all(
          [0, 1, 2].map(() => rpc(s, "CreateConnector", { name })),
          { concurrency: 3 }
        )
        const other = yield* rpc(s, "CreateConnector", { name: fresh("edge") })
        return [...replies.map(seen).sort(), seen(other)]
      }),
    byDefault: ["ok", "ok", "ok", "ok"],
    switched: ["409 already_exists name", "409 already_exists name", "ok", "ok"]
  },
  "require-enums": {
    probe: (s) =>
      Effect.gen(function* () {
        const { status: _, ...permission } = valid.CreatePermission(s.knownIds)
        const { workerRuntime: __, ...loader } = valid.CreatePolicyDataLoader(s.knownIds)
        const { deletionPolicy: ___, ...discovery } = valid.CreateDataDiscoveryConfiguration(
          s.knownIds
        )
        const replies = [
          yield* rpc(s, "CreatePermission", { ...permission, name: fresh("perm") }),
          yield* rpc(s, "CreatePolicyDataLoader", { ...loader, name: fresh("pdl") }),
          yield* rpc(s, "CreateDataDiscoveryConfiguration", discovery),
          yield* rpc(s, "CreateNativeUserIdentityLink", {
            nativeUserId: s.knownIds.nativeUsers[0],
            identityId: s.knownIds.users[0]!.id
          })
        ]
        const [p, l, d, link] = replies.map((r) => r.json)
        return replies[0]!.status === 200
          ? [
              p.permission.status,
              l.policyDataLoader.workerRuntime,
              d.dataDiscoveryConfiguration.deletionPolicy,
              link.link.user.id
            ]
          : replies.map(seen)
      }),
    byDefault: ["draft", "python3.11", "delete", expect.stringMatching(/^user_/)],
    switched: [
      "400 invalid_argument status",
      "400 invalid_argument workerRuntime",
      "400 invalid_argument deletionPolicy",
      "400 invalid_argument identityType"
    ]
  },
  "identity-any-kind": {
    probe: (s) =>
      Effect.forEach(
        [s.knownIds.groups[0]!, s.knownIds.connectorHostnames[0]!, "hostname_nothing"],
        (identityId) =>
          Effect.map(
            rpc(s, "CreateNativeUserIdentityLink", {
              nativeUserId: s.knownIds.nativeUsers[0],
              identityId,
              identityType: "resource_hostname"
            }),
            (r) => (r.status === 200 ? r.json.link.resourceHostname.id === identityId : seen(r))
          )
      ),
    byDefault: ["404 not_found identityId", true, "404 not_found identityId"],
    switched: [true, true, "404 not_found identityId"]
  },
  "strict-time-filter": {
    probe: (s) =>
      Effect.forEach(
        [
          condition("created_at", "greater_than", "yesterday"),
          condition("updated_at", "lower_than", "2100-01-01T00:00:00Z")
        ],
        (filter) => Effect.map(satellites(s, { filter }), seen)
      ),
    byDefault: ["ok", "ok"],
    switched: ["400 invalid_argument filter.field.value.value", "ok"]
  },
  "strict-filter-types": {
    probe: (s) =>
      Effect.gen(function* () {
        const createdAt = String((yield* s.store.all("satellites"))[0]!.createdAt)
        const filters = [
          condition("termination_protection", "contains", "ru"),
          condition("created_at", "starts_with", createdAt),
          condition("termination_protection", "greater_than", "s"),
          condition("name", "contains", "-")
        ]
        return yield* Effect.forEach(filters, (filter) =>
          Effect.map(satellites(s, { filter }), (r) =>
            r.status === 200 ? (r.json.satellites?.length ?? 0) > 0 : seen(r)
          )
        )
      }),
    byDefault: [true, true, true, true],
    switched: [
      "400 invalid_argument filter.field.operator",
      "400 invalid_argument filter.field.operator",
      "400 invalid_argument filter.field.operator",
      true
    ]
  },
  "filter-case-insensitive": {
    probe: (s) =>
      Effect.forEach(
        [
          condition("name", "starts_with", "FLEET BERLIN"),
          condition("name", "starts_with", "Fleet berlin")
        ],
        (filter) =>
          Effect.map(
            rpc(s, "ListIntegrationsMDM", { limit: 500, filter }),
            (r) => r.json.integrations?.length ?? 0
          )
      ).pipe(Effect.map(([upper, exact]) => [exact! > 0, upper === exact])),
    byDefault: [true, false],
    switched: [true, true]
  },
  "reject-empty-filter": {
    probe: (s) =>
      Effect.gen(function* () {
        const all = (yield* satellites(s, {})).json.satellites.length
        return yield* Effect.forEach(
          [{}, { field: null, group: null }, { group: { operator: "and", filters: [{}] } }],
          (filter) =>
            Effect.map(satellites(s, { filter }), (r) =>
              r.status === 200 ? r.json.satellites.length === all : seen(r)
            )
        )
      }),
    byDefault: [true, true, true],
    switched: [
      "400 invalid_argument filter",
      "400 invalid_argument filter",
      "400 invalid_argument filter.group.filters.0"
    ]
  },
  "parent-not-found": {
    probe: (s) =>
      Effect.gen(function* () {
        const keys = yield* rpc(s, "GetEncryptionKeysByKeyId", {
          keyId: "arn:aws:kms:eu-west-1:000000000000:key/none"
        })
        const users = yield* rpc(s, "ListNativeUsers", {
          limit: 10,
          resourceId: "resource_nothing"
        })
        const known = yield* rpc(s, "GetEncryptionKeysByKeyId", {
          keyId: s.knownIds.encryptionKeyIds[0]
        })
        return [
          keys.status === 200 ? keys.json : seen(keys),
          users.status === 200 ? users.json : seen(users),
          known.json.encryptionKeys.length
        ]
      }),
    byDefault: [{}, { listMetadata: {} }, 2],
    switched: ["404 not_found keyId", "404 not_found resourceId", 2]
  },
  "return-secrets": {
    probe: (s) =>
      Effect.gen(function* () {
        const catalog = (yield* rpc(s, "GetDataCatalogIntegration", {
          id: s.knownIds.dataCatalogIntegrations[0]
        })).json.integration.catalogVendorA
        const users = (yield* rpc(s, "ListNativeUsers", {
          limit: 500,
          resourceId: s.knownIds.resources[0]
        })).json.nativeUsers
        return [
          catalog.webhookSecret,
          catalog.apiKey,
          users.some((u: any) => u.secret !== undefined || u.basic?.password !== undefined)
        ]
      }),
    byDefault: [undefined, undefined, false],
    switched: [
      expect.stringMatching(/^demo-whsec-/),
      expect.stringMatching(/^demo-catalog-key-/),
      true
    ]
  },
  "space-empty-ignored": {
    probe: (s) =>
      Effect.gen(function* () {
        const inSpace = (yield* s.store.all("satellites")).find(
          (x) => x.spaceId !== "" && x.spaceId !== undefined
        )!
        const reply = yield* rpc(s, "UpdateSatellite", { id: inSpace.id, spaceId: "" })
        return [
          reply.json.satellite.spaceId === inSpace.spaceId,
          reply.json.satellite.space !== undefined
        ]
      }),
    byDefault: [false, false],
    switched: [true, true]
  },
  "cursor-bound": {
    probe: (s) =>
      Effect.gen(function* () {
        const first = yield* satellites(s, { limit: 2 })
        const cursor = first.json.listMetadata.nextCursor
        const changed = yield* Effect.forEach(
          [
            {},
            { order: "desc" },
            { search: "eu" },
            { filter: condition("name", "not_empty") },
            { spaceId: s.knownIds.spaces[0] }
          ],
          (change) => Effect.map(satellites(s, { limit: 2, cursor, ...change }), seen)
        )
        // a walk that changes nothing still reaches every item once
        const total = (yield* walk(s, "ListSatellites", { limit: 500 })).items.length
        const walked = yield* walk(s, "ListSatellites", { limit: 7, order: "desc" })
        return [...changed, new Set(walked.items.map((x) => x.id)).size === total]
      }),
    byDefault: ["ok", "ok", "ok", "ok", "ok", true],
    switched: [
      "ok",
      "400 invalid_argument cursor",
      "400 invalid_argument cursor",
      "400 invalid_argument cursor",
      "400 invalid_argument cursor",
      true
    ]
  },
  "body-before-auth": {
    probe: (s) =>
      Effect.forEach(["not-a-key", s.apiKeys[0]!], (key) =>
        Effect.map(
          rpc(s, "CreatePermission", { description: "" }, { headers: { "x-api-key": key } }),
          seen
        )
      ),
    // name, description and code are broken: the default reports the first, the switch the last
    byDefault: ["401 unauthenticated", "400 invalid_argument name"],
    switched: ["400 invalid_argument code", "400 invalid_argument code"]
  },
  "empty-protocol-bodies": {
    probe: (s) =>
      Effect.forEach(
        [
          rpc(s, "GetResource", { id: s.knownIds.resources[0] }, { httpMethod: "PUT" }),
          rpc(
            s,
            "GetResource",
            { id: s.knownIds.resources[0] },
            { headers: { "content-type": "text/plain" } }
          )
        ],
        (r) => Effect.map(r, (reply) => [reply.status, reply.text === "" ? "" : reply.json.code])
      ),
    byDefault: [
      [405, "unimplemented"],
      [415, "unknown"]
    ],
    switched: [
      [405, ""],
      [415, ""]
    ]
  },
  "body-limit-1mib": {
    probe: (s) =>
      Effect.forEach([2 * 1024 * 1024, 1000 * 1024], (size) =>
        Effect.map(
          rpc(s, "CreatePermission", {
            ...valid.CreatePermission(s.knownIds),
            name: fresh("big"),
            code: "x".repeat(size)
          }),
          seen
        )
      ),
    byDefault: ["ok", "ok"],
    switched: ["429 resource_exhausted", "ok"]
  },
  "lenient-deadline": {
    probe: (s) =>
      Effect.gen(function* () {
        // work that takes 300 ms, under a 100 ms deadline
        yield* s.setFaults({
          rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 300 } }]
        })
        const slow = yield* rpc(
          s,
          "GetResource",
          { id: s.knownIds.resources[0] },
          { headers: { "connect-timeout-ms": "100" } }
        )
        yield* s.setFaults({ rules: [] })
        const passed = yield* rpc(
          s,
          "GetResource",
          { id: s.knownIds.resources[0] },
          { headers: { "connect-timeout-ms": "0" } }
        )
        return [seen(slow), seen(passed)]
      }),
    byDefault: ["504 deadline_exceeded", expect.stringMatching(/^(ok|504 deadline_exceeded)$/)],
    switched: ["ok", "504 deadline_exceeded"]
  },
  "rate-limit-headers": {
    probe: (s) =>
      Effect.gen(function* () {
        const [a, b] = yield* Effect.all(
          [0, 1].map(() => rpc(s, "GetResource", { id: s.knownIds.resources[0] }))
        )
        const reset = Number(b!.headers.get("x-ratelimit-reset"))
        return {
          requestId: a!.headers.get("x-request-id")?.startsWith("req_") ?? false,
          limit: a!.headers.get("x-ratelimit-limit"),
          spent: a!.headers.has("x-ratelimit-remaining")
            ? Number(a!.headers.get("x-ratelimit-remaining")) -
              Number(b!.headers.get("x-ratelimit-remaining"))
            : null,
          // the end of the current 60 s window, in Unix seconds
          resetAhead: reset > Date.now() / 1000 - 5 && reset <= Date.now() / 1000 + 60
        }
      }),
    byDefault: { requestId: true, limit: null, spent: null, resetAhead: false },
    switched: { requestId: false, limit: "10000", spent: 1, resetAhead: true }
  },
  "empty-page-meta": {
    probe: (s) =>
      Effect.forEach(
        [
          satellites(s, { filter: condition("name", "equals", "no-such-satellite") }),
          rpc(s, "ListIntegrationsMDM", { limit: 1, search: "no-such-integration" })
        ],
        (r) => Effect.map(r, (reply) => reply.json)
      ),
    byDefault: [{ listMetadata: {} }, { listMetadata: {} }],
    switched: [
      { listMetadata: { after: "", before: "" } },
      { listMetadata: { after: "", before: "" } }
    ]
  },
  "page-size": {
    probe: (s) =>
      Effect.map(satellites(s, {}), (r) => ({
        count: r.json.listMetadata.count,
        more: r.json.listMetadata.nextCursor !== undefined
      })),
    byDefault: { count: 230, more: false },
    switched: { count: 100, more: true }
  },
  "connect-get": {
    probe: (s) =>
      Effect.gen(function* () {
        const id = s.knownIds.resources[0]!
        const path = "/core.v1.ResourceService/GetResource"
        const json = encodeURIComponent(JSON.stringify({ id }))
        const base64 = Buffer.from(JSON.stringify({ id })).toString("base64url")
        const get = (query: string) =>
          rpc(s, `${path}?${query}`, undefined, {
            httpMethod: "GET",
            headers: { "content-type": undefined }
          })
        const replies = [
          yield* get(`connect=v1&encoding=json&message=${json}`),
          yield* get(`connect=v1&encoding=json&base64=1&message=${base64}`),
          // a create has side effects: never served by GET
          yield* rpc(
            s,
            `/core.v1.PermissionsService/CreatePermission?connect=v1&encoding=json&message=${encodeURIComponent(JSON.stringify(valid.CreatePermission(s.knownIds)))}`,
            undefined,
            {
              httpMethod: "GET"
            }
          ),
          yield* rpc(s, "GetResource", undefined, {
            headers: { "content-encoding": "gzip" },
            raw: Zlib.gzipSync(JSON.stringify({ id }))
          }),
          yield* rpc(s, "GetResource", undefined, {
            headers: { "content-encoding": "deflate" },
            raw: Zlib.deflateSync(JSON.stringify({ id }))
          }),
          yield* rpc(s, "GetResource", undefined, {
            headers: { "content-encoding": "br" },
            raw: Zlib.brotliCompressSync(JSON.stringify({ id }))
          })
        ]
        // A larger answer to a client that offers encodings (fetch decompresses it again).
        const page = yield* rpc(
          s,
          "ListSatellites",
          { limit: 50 },
          { headers: { "accept-encoding": "br, gzip" } }
        )
        const small = yield* rpc(
          s,
          "GetResource",
          { id },
          { headers: { "accept-encoding": "gzip" } }
        )
        return [
          ...replies.map((r) => (r.status === 200 ? r.json.resource.id === id : seen(r))),
          `${page.headers.get("content-encoding") ?? "identity"} ${page.json.satellites.length}`,
          small.headers.get("content-encoding") ?? "identity"
        ]
      }),
    byDefault: [
      "405 unimplemented",
      "405 unimplemented",
      "405 unimplemented",
      "501 unimplemented",
      "501 unimplemented",
      "501 unimplemented",
      "identity 50",
      "identity"
    ],
    switched: [true, true, "405 unimplemented", true, true, true, "br 50", "identity"],
    // empty-protocol-bodies: the 405 has no body
    underAll: [true, true, "405 (empty body)", true, true, true, "br 50", "identity"]
  }
}

/** On a server with every switch on, each switch's probe answers as its case says under all. */
export const expectProbesUnderAll = (server: Server) =>
  Effect.gen(function* () {
    for (const row of ContractRules.latitude) {
      const c = cases[row.name]
      expect(yield* c.probe(server), row.name).toEqual("underAll" in c ? c.underAll : c.switched)
    }
  })
