// Faulty servers of the API, each a plausible bug of a real implementation that breaks one must of
// interface.md or decisions.md, written from those two documents alone, as transforms of a front.
import { Buffer } from "node:buffer"
import { connectError, jsonAnswer, jsonBody, readJson } from "./front.mjs"
import {
  apiKeyOf,
  asciiLower,
  codeOf,
  decisionsMd,
  interfaceMd,
  keepItems,
  mapConditions,
  mapTimestamps,
  must,
  onAnswer,
  onRequest,
  searchedTexts,
  searchFieldsOf,
  someCondition,
  withJson,
  withJsonAnswer
} from "./hooks.mjs"
import { second } from "./second.mjs"
import { third } from "./third.mjs"
import { fourth } from "./fourth.mjs"

const creates = [
  "CreateNativeUserIdentityLink",
  "CreateConnector",
  "CreatePolicyDataLoader",
  "CreateHumanUserPassword",
  "CreateDataDiscoveryConfiguration",
  "CreatePermission",
  "CreateBIIntegration",
  "CreateIntegrationMDM"
]

/** The first batch: name, the kind of bug, the must it breaks, and its transform of the front. */
const first = [
  // Wire: timestamps, numbers, field names, content types.
  {
    name: "timestamp-without-z",
    kind: "timestamp",
    must: must(
      interfaceMd,
      "Common conventions, 5",
      "A timestamp is a JSON string in RFC 3339 format, always UTC with the suffix `Z`."
    ),
    fault: onAnswer(["GetPolicyStageConfiguration"], (answer) =>
      withJsonAnswer(answer, (body) => mapTimestamps(body, (t) => t.slice(0, -1)))
    )
  },
  {
    name: "timestamp-trailing-zeros-trimmed",
    kind: "timestamp",
    must: must(
      decisionsMd,
      "1. Wire rules, Timestamps",
      "Writers emit 0, 3, 6 or 9 fractional digits."
    ),
    fault: {
      response: (answer) =>
        withJsonAnswer(answer, (body) =>
          mapTimestamps(body, (t) =>
            t.replace(/\.(\d*?)0+Z$/, (_, kept) => (kept === "" ? "Z" : `.${kept}Z`))
          )
        )
    }
  },
  {
    name: "relative-time-as-number",
    kind: "wire",
    must: must(
      decisionsMd,
      "1. Wire rules, int64",
      '`relativeTime` (saved log query) is int64: written as a JSON string (`"3600"`)'
    ),
    fault: onAnswer(["ListLogQueries"], (answer) =>
      withJsonAnswer(answer, (body) => {
        for (const saved of body.savedQueries ?? []) {
          if (typeof saved.query?.relativeTime === "string")
            saved.query.relativeTime = Number(saved.query.relativeTime)
        }
      })
    )
  },
  {
    name: "port-as-string",
    kind: "wire",
    must: must(decisionsMd, "1. Wire rules, int64", "Every other integer is int32, a JSON number."),
    fault: onAnswer(["GetResource"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (typeof body.resource?.port === "number") body.resource.port = String(body.resource.port)
      })
    )
  },
  {
    name: "success-content-type-text",
    kind: "wire",
    must: must(
      decisionsMd,
      "1. Wire rules, Success",
      "HTTP 200, `Content-Type: application/json`, body the response object."
    ),
    fault: onAnswer(["ListScenarioMonitors"], (answer) =>
      answer.status === 200
        ? { ...answer, headers: { ...answer.headers, "content-type": "text/plain; charset=utf-8" } }
        : answer
    )
  },
  {
    name: "synced-entities-joined",
    kind: "wire",
    must: must(
      interfaceMd,
      "Resources, DataCatalogIntegration",
      "catalogVendorA | object | fields: ... syncedEntities array of string"
    ),
    fault: onAnswer(["GetDataCatalogIntegration"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const vendor = body.integration?.catalogVendorA
        if (Array.isArray(vendor?.syncedEntities))
          vendor.syncedEntities = vendor.syncedEntities.join(",")
      })
    )
  },
  {
    name: "output-snake-case-metadata",
    kind: "wire",
    must: must(
      decisionsMd,
      "1. Wire rules, Field names on input",
      "Output is always lowerCamelCase."
    ),
    fault: onAnswer(["ListIntegrationsMDM"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const metadata = body.listMetadata
        if (metadata?.nextCursor !== undefined) {
          metadata.next_cursor = metadata.nextCursor
          delete metadata.nextCursor
        }
      })
    )
  },
  {
    name: "managed-tls-renamed",
    kind: "wire",
    must: must(interfaceMd, "Resources, ConnectorHostname", "| managedTls | boolean | |"),
    fault: onAnswer(["UpdateConnectorHostname"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const hostname = body.connectorHostname
        if (hostname !== undefined && "managedTls" in hostname) {
          hostname.managedTLS = hostname.managedTls
          delete hostname.managedTls
        }
      })
    )
  },
  {
    name: "encryption-keys-renamed",
    kind: "wire",
    must: must(
      interfaceMd,
      "Endpoints",
      "LogsService / GetEncryptionKeysByKeyId | ... | `encryptionKeys` (array of EncryptionKey)"
    ),
    fault: onAnswer(["GetEncryptionKeysByKeyId"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (body.encryptionKeys !== undefined) {
          body.keys = body.encryptionKeys
          delete body.encryptionKeys
        }
      })
    )
  },
  // Protocol: bodies, methods, routes, content types, sizes.
  {
    name: "empty-body-internal",
    kind: "error-mapping",
    must: must(
      decisionsMd,
      "1. Wire rules, Request",
      "a zero-length body is rejected (`invalid_argument`)."
    ),
    fault: {
      request: (request) =>
        request.method === "POST" && request.operation !== undefined && request.body.length === 0
          ? { answer: connectError("internal", "unexpected end of JSON input") }
          : request
    }
  },
  {
    name: "unknown-field-refused",
    kind: "validation",
    must: must(
      decisionsMd,
      "1. Wire rules, Unknown request fields",
      "Ignored by the server (proto3 JSON discards unknown fields)."
    ),
    fault: {
      inHandler: true,
      ...onRequest(["CreateConnector"], (request) => {
        const body = readJson(request.body)
        const known = [
          "name",
          "terminationProtection",
          "termination_protection",
          "spaceId",
          "space_id"
        ]
        const extra =
          body !== null && typeof body === "object" && !Array.isArray(body)
            ? Object.keys(body).find((key) => !known.includes(key))
            : undefined
        return extra === undefined
          ? request
          : { answer: connectError("invalid_argument", `unknown field "${extra}"`) }
      })
    }
  },
  {
    name: "snake-case-input-ignored",
    kind: "validation",
    must: must(
      decisionsMd,
      "1. Wire rules, Field names on input",
      "a server also accepts the snake_case form (`resource_id`)."
    ),
    fault: onRequest(["ListNativeUsers"], (request) =>
      withJson(request, (body) => {
        delete body.resource_id
      })
    )
  },
  {
    name: "null-input-refused",
    kind: "validation",
    must: must(
      decisionsMd,
      "1. Wire rules, null on input",
      'Means "not set", the same as an absent field.'
    ),
    fault: {
      inHandler: true,
      ...onRequest(creates, (request) => {
        const body = readJson(request.body)
        const field =
          body !== null && typeof body === "object"
            ? Object.keys(body).find((key) => body[key] === null)
            : undefined
        return field === undefined
          ? request
          : { answer: connectError("invalid_argument", `${field}: expected a value, got null`) }
      })
    }
  },
  {
    name: "wrong-method-without-allow",
    kind: "protocol",
    must: must(
      decisionsMd,
      "1. Wire rules, Wrong HTTP method",
      "`405`, with an `Allow: POST` header."
    ),
    fault: {
      response: (answer) => {
        if (answer.status !== 405) return answer
        const headers = { ...answer.headers }
        delete headers.allow
        return { ...answer, headers }
      }
    }
  },
  {
    name: "unknown-route-501",
    kind: "protocol",
    must: must(
      decisionsMd,
      "1. Wire rules, Unknown service or method",
      "`404` with Connect code `unimplemented`."
    ),
    fault: {
      response: (answer) =>
        answer.status === 404 && codeOf(answer) === "unimplemented"
          ? { ...answer, status: 501 }
          : answer
    }
  },
  {
    name: "content-type-400",
    kind: "protocol",
    must: must(decisionsMd, "1. Wire rules, Wrong content type", "`415`."),
    fault: {
      response: (answer) =>
        answer.status === 415
          ? connectError("invalid_argument", "unsupported content type")
          : answer
    }
  },
  {
    name: "body-limit-413-html",
    kind: "protocol",
    must: must(
      decisionsMd,
      "10. Latitude, Body size limit",
      "be any size of at least 1 MiB; above it, resource_exhausted."
    ),
    fault: {
      request: (request) =>
        request.body.length > 1_500_000
          ? {
              answer: {
                status: 413,
                headers: { "content-type": "text/html" },
                body: Buffer.from("<html><body><h1>413 Request Entity Too Large</h1></body></html>")
              }
            }
          : request
    }
  },
  // Errors: codes, statuses and bodies.
  {
    name: "not-found-as-invalid-argument",
    kind: "error-mapping",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    fault: onAnswer(["GetDataCatalogIntegration"], (answer) =>
      codeOf(answer) === "not_found" ? connectError("invalid_argument", "invalid id") : answer
    )
  },
  {
    name: "unknown-key-permission-denied",
    kind: "security",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "`X-API-KEY` missing, empty, or not a known key | unauthenticated"
    ),
    fault: {
      response: (answer, request) =>
        codeOf(answer) === "unauthenticated" && (apiKeyOf(request) ?? "") !== ""
          ? connectError("permission_denied", "API key not allowed")
          : answer
    }
  },
  {
    name: "unauthenticated-plain-body",
    kind: "error-mapping",
    must: must(decisionsMd, "2. Errors", "Every non-200 response carries a Connect error body"),
    fault: {
      response: (answer, request) =>
        codeOf(answer) === "unauthenticated" && (apiKeyOf(request) ?? "") === ""
          ? {
              status: 401,
              headers: { "content-type": "text/plain" },
              body: Buffer.from("Unauthorized")
            }
          : answer
    }
  },
  {
    name: "error-code-upper-case",
    kind: "error-mapping",
    must: must(
      decisionsMd,
      "2. Errors",
      '`{"code": "<code>", ...}` ... The 16 codes and their HTTP statuses'
    ),
    fault: onAnswer(["ListLogQueries", "GetEncryptionKeysByKeyId"], (answer) => {
      const body = answer.status === 200 ? undefined : readJson(answer.body)
      return typeof body?.code === "string"
        ? { ...answer, body: jsonBody({ ...body, code: body.code.toUpperCase() }) }
        : answer
    })
  },
  // Lists: limits, order, cursors and metadata.
  {
    name: "count-before-filter",
    kind: "paging",
    must: must(decisionsMd, "3. Lists, listMetadata.count", "Number of items in this page."),
    fault: onAnswer(["ListIntegrationsMDM"], async (answer, request, context) => {
      const body = readJson(request.body)
      if (answer.status !== 200 || (body?.filter == null && body?.search == null)) return answer
      const unfiltered = await context.forward(
        withJson(request, (b) => {
          delete b.filter
          delete b.search
          delete b.searchFields
        })
      )
      const all = readJson(unfiltered.body)
      if (unfiltered.status !== 200 || all === undefined) return answer
      return withJsonAnswer(answer, (page) => {
        page.listMetadata = { ...page.listMetadata, count: all.integrations?.length ?? 0 }
      })
    })
  },
  {
    name: "count-is-total",
    kind: "paging",
    must: must(decisionsMd, "3. Lists, listMetadata.count", "Number of items in this page."),
    fault: onAnswer(["ListScenarioMonitors"], async (answer, request, context) => {
      if (answer.status !== 200) return answer
      if (!context.state.has("total")) {
        let total = 0
        let cursor
        do {
          const page = readJson(
            (
              await context.forward({
                ...request,
                body: jsonBody({ limit: 500, ...(cursor ? { cursor } : {}) })
              })
            ).body
          )
          total += page?.monitors?.length ?? 0
          cursor = page?.listMetadata?.nextCursor
        } while (cursor)
        context.state.set("total", total)
      }
      return withJsonAnswer(answer, (page) => {
        page.listMetadata = { ...page.listMetadata, count: context.state.get("total") }
      })
    })
  },
  {
    name: "next-cursor-on-full-last-page",
    kind: "paging",
    must: must(
      decisionsMd,
      "3. Lists, listMetadata.nextCursor",
      "Set when more items follow; empty or absent on the last page."
    ),
    fault: {
      request: (request, context) => {
        const cursor =
          request.operation === "ListLogQueries" ? readJson(request.body)?.cursor : undefined
        return typeof cursor === "string" && context.state.has(cursor)
          ? { answer: jsonAnswer(200, { savedQueries: [], listMetadata: {} }) }
          : request
      },
      response: (answer, request, context) => {
        if (request.operation !== "ListLogQueries") return answer
        const limit = readJson(request.body)?.limit
        return withJsonAnswer(answer, (body) => {
          const items = body.savedQueries ?? []
          if (items.length > 0 && items.length === limit && !body.listMetadata?.nextCursor) {
            const cursor = `end-${context.state.size + 1}`
            context.state.set(cursor, true)
            body.listMetadata = { ...body.listMetadata, nextCursor: cursor }
          }
        })
      }
    }
  },
  {
    name: "after-missing-on-last-page",
    kind: "paging",
    must: must(
      decisionsMd,
      "3. Lists, listMetadata.after / before",
      "The id of the last / first item in this page (empty when the page is empty)."
    ),
    fault: onAnswer(["ListPolicyStageConfigurations"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const items = body.policyStageConfigurations ?? []
        if (items.length > 0 && !body.listMetadata?.nextCursor)
          body.listMetadata = { ...body.listMetadata, after: "" }
      })
    )
  },
  {
    name: "limit-above-max-clamped",
    kind: "validation",
    must: must(
      decisionsMd,
      "3. Lists, limit",
      "1 to 500; 0, negative, above 500 or absent is invalid_argument."
    ),
    fault: onRequest(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (typeof body.limit === "number" && body.limit > 500) body.limit = 500
      })
    )
  },
  {
    name: "limit-absent-defaults",
    kind: "validation",
    must: must(
      decisionsMd,
      "3. Lists, limit",
      "1 to 500; 0, negative, above 500 or absent is invalid_argument."
    ),
    fault: onRequest(["ListPolicyStageConfigurations"], (request) =>
      withJson(request, (body) => {
        if (body.limit === undefined || body.limit === null || body.limit === 0) body.limit = 100
      })
    )
  },
  {
    name: "order-case-insensitive",
    kind: "validation",
    must: must(
      decisionsMd,
      "3. Lists, order",
      "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`. Anything else is invalid_argument."
    ),
    fault: onRequest(["ListNativeUsers"], (request) =>
      withJson(request, (body) => {
        if (typeof body.order === "string" && ["asc", "desc"].includes(body.order.toLowerCase())) {
          body.order = body.order.toLowerCase()
        }
      })
    )
  },
  // Search and filter.
  {
    name: "search-default-all-fields",
    kind: "search",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: onRequest(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (
          typeof body.search === "string" &&
          !(Array.isArray(body.searchFields) && body.searchFields.length > 0)
        ) {
          body.searchFields = ["id", "name"]
        }
      })
    )
  },
  {
    name: "search-ascii-case-folding",
    kind: "search",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: onAnswer(["ListSatellites"], (answer, request) => {
      const body = readJson(request.body)
      if (typeof body?.search !== "string" || body.search === "") return answer
      const term = asciiLower(body.search)
      const fields = searchFieldsOf(body)
      return withJsonAnswer(answer, (page) =>
        keepItems(page, (item) =>
          searchedTexts(item, fields).some((text) => asciiLower(text).includes(term))
        )
      )
    })
  },
  {
    name: "search-prefix-only",
    kind: "search",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: onAnswer(["ListIntegrationsMDM"], (answer, request) => {
      const body = readJson(request.body)
      if (typeof body?.search !== "string" || body.search === "") return answer
      const term = body.search.toLowerCase()
      const fields = searchFieldsOf(body)
      return withJsonAnswer(answer, (page) =>
        keepItems(page, (item) =>
          searchedTexts(item, fields, "mdm_vendor_a").some((text) =>
            text.toLowerCase().startsWith(term)
          )
        )
      )
    })
  },
  {
    name: "filter-greater-than-inclusive",
    kind: "filter",
    must: must(
      interfaceMd,
      "Endpoints, List request fields",
      "comparison operators: ... `lower_than`, `greater_than`"
    ),
    fault: onRequest(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) =>
          condition.operator === "greater_than" &&
          !["created_at", "updated_at"].includes(condition.key)
            ? {
                group: {
                  operator: "or",
                  filters: [filter, { field: { ...condition, operator: "equals" } }]
                }
              }
            : filter
        )
      })
    )
  },
  {
    name: "filter-ends-with-as-contains",
    kind: "filter",
    must: must(
      interfaceMd,
      "Endpoints, List request fields",
      "comparison operators: ... `starts_with`, `ends_with`"
    ),
    fault: onRequest(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) =>
          condition.operator === "ends_with"
            ? { field: { ...condition, operator: "contains" } }
            : filter
        )
      })
    )
  },
  {
    name: "filter-nested-group-dropped",
    kind: "filter",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      "A filter is either one condition or a group, nestable to any depth"
    ),
    fault: onRequest(["ListSatellites", "ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        const group = body.filter?.group
        if (!Array.isArray(group?.filters)) return
        const kept = group.filters.filter((f) => f?.group == null)
        if (kept.length > 0 && kept.length < group.filters.length)
          body.filter = { group: { ...group, filters: kept } }
      })
    )
  },
  {
    name: "filter-snake-case-keys-refused",
    kind: "filter",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      "`key` is a snake_case field name of the listed object (`name`, `id`, `space_id`, `satellite_type`, `created_at`...)."
    ),
    fault: {
      inHandler: true,
      ...onRequest(["ListSatellites"], (request) => {
        const body = readJson(request.body)
        return someCondition(
          body?.filter,
          (condition) => typeof condition.key === "string" && condition.key.includes("_")
        )
          ? { answer: connectError("invalid_argument", "filter: unknown key") }
          : request
      })
    }
  },
  // Updates.
  {
    name: "hostname-update-clears-dns-record",
    kind: "update",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    fault: onRequest(["UpdateConnectorHostname"], (request) =>
      withJson(request, (body) => {
        if (typeof body.hostname === "string" && body.dnsRecord == null && body.dns_record == null)
          body.dnsRecord = ""
      })
    )
  },
  {
    name: "null-protection-as-false",
    kind: "update",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    fault: onRequest(["UpdateConnectorListenerLink"], (request) =>
      withJson(request, (body) => {
        if (body.terminationProtection == null && body.termination_protection == null)
          body.terminationProtection = false
      })
    )
  },
  {
    name: "update-empty-name-accepted",
    kind: "validation",
    must: must(
      decisionsMd,
      "6. Request fields, SatelliteService/UpdateSatellite",
      "optional: `name` (min 1 when present)"
    ),
    fault: onRequest(["UpdateSatellite"], (request) =>
      withJson(request, (body) => {
        if (body.name === "") delete body.name
      })
    )
  },
  {
    name: "update-unknown-id-upserts",
    kind: "consistency",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    fault: onAnswer(["UpdateSidecarResourceLink"], (answer, request) => {
      if (codeOf(answer) !== "not_found") return answer
      const body = readJson(request.body)
      if (typeof body?.id !== "string") return answer
      return jsonAnswer(200, {
        link: {
          id: body.id,
          ...(body.terminationProtection ? { terminationProtection: true } : {})
        }
      })
    })
  },
  {
    name: "updated-at-local-time",
    kind: "timestamp",
    must: must(
      interfaceMd,
      "Common conventions, 6",
      "Every `createdAt` and `updatedAt` value is a timestamp earlier than the time of the response."
    ),
    fault: onAnswer(["UpdateSatellite"], (answer) =>
      withJsonAnswer(answer, (body) =>
        mapTimestamps(body, (t) => new Date(Date.parse(t) + 3_600_000).toISOString(), ["updatedAt"])
      )
    )
  },
  {
    name: "satellite-times-whole-seconds",
    kind: "timestamp",
    must: must(
      decisionsMd,
      "4. Updates",
      "An update returns the whole object and moves `updatedAt` forward."
    ),
    fault: onAnswer(["ListSatellites", "UpdateSatellite"], (answer) =>
      withJsonAnswer(answer, (body) => mapTimestamps(body, (t) => t.replace(/\.\d+Z$/, "Z")))
    )
  },
  // Creates: the domain rules of each object.
  {
    name: "connector-name-lowercased",
    kind: "validation",
    must: must(
      decisionsMd,
      "6. Request fields, ConnectorService/CreateConnector",
      "`name` (3 to 63 characters, `^[0-9a-z-]+$`)"
    ),
    fault: onRequest(["CreateConnector"], (request) =>
      withJson(request, (body) => {
        if (typeof body.name === "string") body.name = body.name.toLowerCase()
      })
    )
  },
  {
    name: "connector-name-63-refused",
    kind: "validation",
    must: must(
      decisionsMd,
      "6. Request fields, ConnectorService/CreateConnector",
      "`name` (3 to 63 characters, `^[0-9a-z-]+$`)"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["CreateConnector"], (request) => {
        const body = readJson(request.body)
        return typeof body?.name === "string" && [...body.name].length === 63
          ? { answer: connectError("invalid_argument", "name: at most 62 characters") }
          : request
      })
    }
  },
  {
    name: "connector-unknown-space-ignored",
    kind: "consistency",
    must: must(
      decisionsMd,
      "6. Request fields, ConnectorService/CreateConnector",
      "`spaceId` (opt; not_found if it names no space)"
    ),
    fault: onAnswer(["CreateConnector"], async (answer, request, context) => {
      if (codeOf(answer) !== "not_found") return answer
      return context.forward(
        withJson(request, (body) => {
          delete body.spaceId
          delete body.space_id
        })
      )
    })
  },
  {
    name: "connector-create-without-space",
    kind: "consistency",
    must: must(
      interfaceMd,
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    fault: onAnswer(["CreateConnector"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (body.connector !== undefined) delete body.connector.space
      })
    )
  },
  {
    name: "worker-schedule-8-accepted",
    kind: "validation",
    must: must(
      interfaceMd,
      "Resources, PolicyDataLoader",
      "workerSchedule | string | min length 9 on create"
    ),
    fault: {
      request: (request) => {
        if (request.operation !== "CreatePolicyDataLoader") return request
        const body = readJson(request.body)
        if (typeof body?.workerSchedule !== "string" || [...body.workerSchedule].length !== 8)
          return request
        return {
          ...request,
          body: jsonBody({ ...body, workerSchedule: `${body.workerSchedule} ` }),
          schedule: body.workerSchedule
        }
      },
      response: (answer, request) =>
        request.schedule === undefined
          ? answer
          : withJsonAnswer(answer, (body) => {
              if (body.policyDataLoader !== undefined)
                body.policyDataLoader.workerSchedule = request.schedule
            })
    }
  },
  {
    name: "permission-status-default-active",
    kind: "domain",
    must: must(
      decisionsMd,
      "10. Latitude, Request enums with no empty value",
      "reject the request (invalid_argument) or apply a default (`status`: `draft`; others: the first listed value)."
    ),
    fault: onRequest(["CreatePermission"], (request) =>
      withJson(request, (body) => {
        if (body.status == null) body.status = "active"
      })
    )
  },
  {
    name: "permission-dry-run-refused",
    kind: "domain",
    must: must(
      interfaceMd,
      "Resources, Permission",
      "status | string enum | `draft`, `dry-run`, `active`"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["CreatePermission"], (request) =>
        readJson(request.body)?.status === "dry-run"
          ? {
              answer: connectError(
                "invalid_argument",
                "status: expected one of draft, dry_run, active"
              )
            }
          : request
      )
    }
  },
  {
    name: "deletion-policy-default-last",
    kind: "domain",
    must: must(
      decisionsMd,
      "10. Latitude, Request enums with no empty value",
      "reject the request (invalid_argument) or apply a default (`status`: `draft`; others: the first listed value)."
    ),
    fault: onRequest(["CreateDataDiscoveryConfiguration"], (request) =>
      withJson(request, (body) => {
        if (body.deletionPolicy == null && body.deletion_policy == null)
          body.deletionPolicy = "mark_for_deletion"
      })
    )
  },
  {
    name: "mdm-empty-name-defaulted",
    kind: "validation",
    must: must(
      interfaceMd,
      "Limits",
      "minimum string length 1 | ... `name` of CreateIntegrationMDM"
    ),
    fault: onRequest(["CreateIntegrationMDM"], (request) =>
      withJson(request, (body) => {
        if (body.name == null || body.name === "") body.name = "MDM integration"
      })
    )
  },
  {
    name: "bi-create-drops-linked-user",
    kind: "consistency",
    must: must(
      interfaceMd,
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    fault: onAnswer(["CreateBIIntegration"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (body.integration !== undefined) delete body.integration.linkedDbUserId
      })
    )
  },
  {
    name: "identity-link-protection-ignored",
    kind: "domain",
    must: must(
      interfaceMd,
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    fault: onRequest(["CreateNativeUserIdentityLink"], (request) =>
      withJson(request, (body) => {
        delete body.terminationProtection
        delete body.termination_protection
      })
    )
  },
  {
    name: "password-two-variants-accepted",
    kind: "validation",
    must: must(
      decisionsMd,
      "6. Request fields, UserService/CreateHumanUserPassword",
      "exactly one of `email`, `username`, `id` (the three variants). None, or two at once: invalid_argument."
    ),
    fault: onRequest(["CreateHumanUserPassword"], (request) =>
      withJson(request, (body) => {
        const present = ["email", "username", "id"].filter((key) => body[key] != null)
        for (const key of present.slice(1)) delete body[key]
      })
    )
  },
  {
    name: "password-expires-in-past",
    kind: "timestamp",
    must: must(
      interfaceMd,
      "Resources, HumanUserPassword",
      "expiresAt | timestamp | later than the time of the response"
    ),
    fault: onAnswer(["CreateHumanUserPassword"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (typeof body.createdAt === "string") {
          body.expiresAt = new Date(Date.parse(body.createdAt) - 86_400_000).toISOString()
        }
      })
    )
  },
  // Security: keys.
  {
    name: "api-key-prefix-match",
    kind: "security",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "`X-API-KEY` missing, empty, or not a known key | unauthenticated"
    ),
    fault: {
      request: (request, context) => {
        const key = apiKeyOf(request)
        const known = context.apiKeys.find(
          (k) => typeof key === "string" && key !== k && key.startsWith(k)
        )
        return known === undefined
          ? request
          : { ...request, headers: { ...request.headers, "x-api-key": known } }
      }
    }
  },
  {
    name: "auth-missing-on-one-route",
    kind: "security",
    must: must(
      interfaceMd,
      "Authentication, 1",
      "Every operation is called with the header `X-API-KEY` carrying an API key (`<API_KEY>`), which is required."
    ),
    fault: onRequest(["GetEncryptionKeysByKeyId"], (request, context) => ({
      ...request,
      headers: { ...request.headers, "x-api-key": context.apiKeys[0] }
    }))
  }
]

/**
 * The catalogue: the first batch, then a second, a third and a fourth, each written apart from the
 * earlier ones (and from the checks) with kinds of bug they have not; `batch` says which.
 */
export const catalogue = [
  ...first.map((entry) => ({ ...entry, batch: 1 })),
  ...second.map((entry) => ({ ...entry, batch: 2 })),
  ...third.map((entry) => ({ ...entry, batch: 3 })),
  ...fourth.map((entry) => ({ ...entry, batch: 4 }))
]
