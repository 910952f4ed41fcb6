// The fourth batch of faulty servers, written apart from the three earlier batches and from the
// checks, from interface.md and decisions.md alone: kinds of bug none of them has (media types,
// statuses and encodings negotiated wrong, deadlines and rate-limit headers, clauses and groups of
// a query combined wrong, page cuts, relations and write scopes, variants dispatched wrong), and
// three faithful controls that differ from the reference server only where a server may.
import { Buffer } from "node:buffer"
import * as zlib from "node:zlib"
import { connectError, jsonAnswer, jsonBody, readJson } from "./front.mjs"
import {
  apiKeyOf,
  codeOf,
  decisionsMd,
  interfaceMd,
  keepItems,
  mapConditions,
  mapTimestamps,
  must,
  onAnswer,
  onRequest,
  searchFieldsOf,
  withJson,
  withJsonAnswer
} from "./hooks.mjs"
import { frontPaged, listAll, objectBody, stateMap, without } from "./second.mjs"
import { matchesAll, onAccepted, withField } from "./third.mjs"

const isSet = (value) => value !== undefined && value !== null

/** A field of a request body under its lowerCamelCase or its snake_case name. */
const fieldOf = (body, camel, snake) => body?.[camel] ?? body?.[snake]

const hasSearch = (body) => typeof body?.search === "string" && body.search !== ""

const hasFilter = (body) => body?.filter !== undefined && body.filter !== null

const searchKeys = ["search", "searchFields", "search_fields"]

/** Every node of a filter tree changed by `change(node)`, children before their group. */
const mapNodes = (filter, change) => {
  if (filter === null || typeof filter !== "object") return filter
  const group = filter.group
  const children =
    group !== undefined && group !== null && Array.isArray(group.filters)
      ? { ...filter, group: { ...group, filters: group.filters.map((f) => mapNodes(f, change)) } }
      : filter
  return change(children)
}

/** Whether a Content-Type names the JSON media type (case-insensitive, any parameters). */
const isJsonMediaType = (value) => /^\s*application\/json\s*(;.*)?$/i.test(String(value ?? ""))

/** The satellites of a ListSatellites or UpdateSatellite answer's body. */
const satellitesOf = (body) => [
  ...(Array.isArray(body?.satellites) ? body.satellites : []),
  ...(body?.satellite !== undefined && body?.satellite !== null ? [body.satellite] : [])
]

/** Keeps what the front has seen of each satellite (space and protection) from an answer. */
const rememberSatellites = (answer, context) => {
  const seen = stateMap(context, "satellites")
  const body = answer.status === 200 ? readJson(answer.body) : undefined
  for (const satellite of satellitesOf(body)) {
    if (typeof satellite.id !== "string") continue
    seen.set(satellite.id, {
      spaceId: satellite.spaceId ?? "",
      protected: satellite.terminationProtection === true
    })
  }
}

/** Base64 as proto3 JSON reads bytes: standard or URL-safe, padded or not. */
const lenientBase64 = (text) => /^[A-Za-z0-9+/_-]*={0,2}$/.test(text) && text.length % 4 !== 1

/** Base64 as a strict decoder reads it: the standard alphabet, padded to a multiple of 4. */
const strictBase64 = (text) => /^[A-Za-z0-9+/]*={0,2}$/.test(text) && text.length % 4 === 0

/** The fourth batch: name, the kind of bug, the must it breaks, and its transform of the front. */
export const fourth = [
  // Wire: how answers are written and what they are labelled.
  {
    name: "timestamp-date-unpadded",
    kind: "zero-padding",
    must: must(
      interfaceMd,
      "Common conventions, 5",
      "It has four-digit years, zero-padded parts and optional fractional seconds of up to 9 digits."
    ),
    fault: onAnswer(["ListScenarioMonitors"], (answer) =>
      withJsonAnswer(answer, (body) =>
        mapTimestamps(body, (t) =>
          t.replace(/^(\d{4})-(\d{2})-(\d{2})T/, (_, y, m, d) => `${y}-${Number(m)}-${Number(d)}T`)
        )
      )
    )
  },
  {
    name: "gzip-for-any-accepted-encoding",
    kind: "encoding-negotiation",
    must: must(
      decisionsMd,
      "1. Wire rules, Success",
      "HTTP 200, `Content-Type: application/json`, body the response object."
    ),
    fault: {
      response: (answer, request) => {
        const accepted = String(request.headers["accept-encoding"] ?? "")
        if (answer.status !== 200 || accepted === "" || /gzip|identity/i.test(accepted)) {
          return answer
        }
        return {
          ...answer,
          headers: { ...answer.headers, "content-encoding": "gzip" },
          body: zlib.gzipSync(answer.body)
        }
      }
    }
  },
  {
    name: "not-found-as-problem-json",
    kind: "error-media-type",
    must: must(
      interfaceMd,
      "Common conventions, 3",
      "Request and response bodies are JSON, sent with the header `Content-Type: application/json`."
    ),
    fault: onAnswer(["GetResource", "GetDataCatalogIntegration"], (answer) =>
      codeOf(answer) === "not_found"
        ? { ...answer, headers: { ...answer.headers, "content-type": "application/problem+json" } }
        : answer
    )
  },
  {
    name: "invalid-argument-status-422",
    kind: "status-table",
    must: must(
      decisionsMd,
      "2. Errors",
      "The 16 codes and their HTTP statuses (current Connect mapping): ... invalid_argument | 400"
    ),
    fault: onAnswer(["CreatePermission", "CreateConnector"], (answer) =>
      codeOf(answer) === "invalid_argument" ? { ...answer, status: 422 } : answer
    )
  },
  // Protocol: media types, encodings, deadlines, rate limits.
  {
    name: "json-text-accepted-under-any-type",
    kind: "content-sniffing",
    must: must(decisionsMd, "1. Wire rules, Wrong content type", "`415`."),
    fault: {
      request: (request) => {
        const type = request.headers["content-type"]
        if (request.method !== "POST" || request.operation === undefined) return request
        if (type === undefined || isJsonMediaType(type)) return request
        const body = readJson(request.body)
        return body !== null && typeof body === "object" && !Array.isArray(body)
          ? { ...request, headers: { ...request.headers, "content-type": "application/json" } }
          : request
      }
    }
  },
  {
    name: "media-type-matched-exactly",
    kind: "media-type-parsing",
    must: must(
      decisionsMd,
      "1. Wire rules, Request",
      "`POST`, `Content-Type: application/json`, body a JSON object."
    ),
    fault: {
      request: (request) => {
        const type = String(request.headers["content-type"] ?? "")
        return request.method === "POST" &&
          request.operation !== undefined &&
          isJsonMediaType(type) &&
          type !== "application/json" &&
          type !== "application/json; charset=utf-8"
          ? { answer: { status: 415, headers: {}, body: Buffer.alloc(0) } }
          : request
      }
    }
  },
  {
    name: "deadline-from-first-request",
    kind: "deadline-epoch",
    must: must(
      interfaceMd,
      "Limits",
      "optional header `Connect-Timeout-Ms` (number, milliseconds) | call timeout, documented on CreatePermission"
    ),
    fault: {
      inHandler: true,
      request: (request, context) => {
        if (!context.state.has("start")) context.state.set("start", Date.now())
        const timeout = String(request.headers["connect-timeout-ms"] ?? "")
        return /^\d{1,10}$/.test(timeout) &&
          Date.now() - context.state.get("start") > Number(timeout)
          ? { answer: connectError("deadline_exceeded", "the call's deadline passed") }
          : request
      }
    }
  },
  {
    name: "retry-after-as-http-date",
    kind: "retry-after-format",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "Rate limit reached | resource_exhausted, with `Retry-After` (seconds)"
    ),
    fault: {
      request: (request, context) => {
        if (!context.apiKeys.includes(apiKeyOf(request))) return request
        const now = Date.now()
        const window = context.state.get("window")
        const current =
          window !== undefined && now - window.start < 1000 ? window : { start: now, count: 0 }
        current.count += 1
        context.state.set("window", current)
        if (current.count <= 200) return request
        const answer = connectError("resource_exhausted", "rate limit reached")
        const retryAt = new Date(current.start + 1000).toUTCString()
        return { answer: { ...answer, headers: { ...answer.headers, "retry-after": retryAt } } }
      }
    }
  },
  {
    name: "ratelimit-reset-in-seconds-left",
    kind: "header-units",
    must: must(
      decisionsMd,
      "2. Errors",
      "Responses may carry `X-Ratelimit-Limit`, `X-Ratelimit-Remaining` and `X-Ratelimit-Reset` (Unix seconds)"
    ),
    fault: {
      response: (answer, _request, context) => {
        const count = (context.state.get("count") ?? 0) + 1
        context.state.set("count", count)
        return {
          ...answer,
          headers: {
            ...answer.headers,
            "x-ratelimit-limit": "100000",
            "x-ratelimit-remaining": String(100000 - count),
            "x-ratelimit-reset": String(60 - (Math.floor(Date.now() / 1000) % 60))
          }
        }
      }
    }
  },
  // Authentication.
  {
    name: "api-key-echoed-in-message",
    kind: "credential-echo",
    must: must(
      decisionsMd,
      "8. Secrets",
      "no log line, span attribute, error message or report may print them: the `X-API-KEY` header"
    ),
    fault: {
      response: (answer, request) => {
        const key = apiKeyOf(request)
        if (codeOf(answer) !== "unauthenticated" || typeof key !== "string" || key === "") {
          return answer
        }
        return connectError("unauthenticated", `API key "${key}" is not valid`)
      }
    }
  },
  // Lists: how a query's clauses, groups and pages are put together.
  {
    name: "search-or-filter",
    kind: "clause-combination",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: frontPaged(["ListSatellites"], {
      applies: (body) => hasSearch(body) && hasFilter(body),
      source: (body) => without(body, "filter", ...searchKeys),
      arrange: async (items, body, _page, list) => {
        const ids = async (query) => new Set((await list(query)).map((item) => item.id))
        const bySearch = await ids(without(body, "filter"))
        const byFilter = await ids(without(body, ...searchKeys))
        return items.filter((item) => bySearch.has(item.id) || byFilter.has(item.id))
      }
    })
  },
  {
    name: "desc-page-sorted-after-limit",
    kind: "page-local-order",
    must: must(
      decisionsMd,
      "3. Lists, order",
      "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`."
    ),
    fault: frontPaged(["ListPolicyStageConfigurations"], {
      applies: (body) => body.order === "desc",
      source: (body) => without(body, "order"),
      shape: (shown) => [...shown].reverse()
    })
  },
  {
    name: "cursor-holds-page-number",
    kind: "page-number-cursor",
    must: must(
      decisionsMd,
      "3. Lists, paging",
      "walking every page once yields every item exactly once, when nothing is created meanwhile."
    ),
    fault: frontPaged(["ListLogQueries"], {
      start: (_index, limit, previous) => previous * limit
    })
  },
  {
    name: "search-fields-all-must-match",
    kind: "field-conjunction",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: onAnswer(["ListIntegrationsMDM"], (answer, request) => {
      const body = objectBody(request)
      if (!hasSearch(body)) return answer
      const fields = [...new Set(searchFieldsOf(body))]
      if (fields.length < 2 || !fields.every((field) => ["id", "name"].includes(field))) {
        return answer
      }
      const term = body.search.toLowerCase()
      return withJsonAnswer(answer, (page) =>
        keepItems(page, (item) =>
          fields.every((field) =>
            String(item[field] ?? "")
              .toLowerCase()
              .includes(term)
          )
        )
      )
    })
  },
  {
    name: "filter-one-member-group-ignored",
    kind: "group-arity",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      'group: `{"group": {"operator": "and" | "or", "filters": [<filter>, ...]}}` (at least one)'
    ),
    fault: onAccepted(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (!hasFilter(body)) return
        body.filter = mapNodes(body.filter, (node) =>
          Array.isArray(node.group?.filters) && node.group.filters.length === 1
            ? { field: matchesAll }
            : node
        )
      })
    )
  },
  {
    name: "filter-group-third-member-dropped",
    kind: "group-width",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      'group: `{"group": {"operator": "and" | "or", "filters": [<filter>, ...]}}` (at least one)'
    ),
    fault: onAccepted(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (!hasFilter(body)) return
        body.filter = mapNodes(body.filter, (node) =>
          Array.isArray(node.group?.filters) && node.group.filters.length > 2
            ? { ...node, group: { ...node.group, filters: node.group.filters.slice(0, 2) } }
            : node
        )
      })
    )
  },
  {
    name: "filter-time-cut-to-milliseconds",
    kind: "comparison-precision",
    must: must(
      decisionsMd,
      "1. Wire rules, Timestamps",
      "Nanosecond precision must survive a decode/encode round trip."
    ),
    fault: onAccepted(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (!hasFilter(body)) return
        body.filter = mapConditions(body.filter, (condition, filter) => {
          const text = condition.value?.value
          return ["created_at", "updated_at"].includes(condition.key) &&
            typeof text === "string" &&
            /\.\d{4,}/.test(text)
            ? withField(filter, {
                ...condition,
                value: { ...condition.value, value: text.replace(/(\.\d{3})\d+/, "$1") }
              })
            : filter
        })
      })
    )
  },
  {
    name: "filtered-walk-stops-at-short-page",
    kind: "post-filter-paging",
    must: must(
      decisionsMd,
      "3. Lists, listMetadata.nextCursor",
      "Set when more items follow; empty or absent on the last page."
    ),
    fault: {
      request: async (request, context) => {
        const body = request.operation === "ListSatellites" ? objectBody(request) : undefined
        if (body === undefined) return request
        const cursors = stateMap(context, "cursors")
        const walk = typeof body.cursor === "string" ? cursors.get(body.cursor) : undefined
        const queried = hasSearch(body) || hasFilter(body)
        if (walk === undefined && (isSet(body.cursor) && body.cursor !== "" ? true : !queried)) {
          return request
        }
        const first = without(body, "cursor")
        const judged = await context.forward({ ...request, body: jsonBody(first) })
        if (judged.status !== 200) return { answer: judged }
        const matched = new Set((await listAll(request, first, context)).map((item) => item.id))
        const rows = await listAll(request, without(first, "filter", ...searchKeys), context)
        const limit = Number(first.limit)
        const from = walk?.from ?? 0
        const shown = rows.slice(from, from + limit).filter((item) => matched.has(item.id))
        const metadata = {
          count: shown.length,
          after: shown.at(-1)?.id ?? "",
          before: shown[0]?.id ?? ""
        }
        if (shown.length === limit && from + limit < rows.length) {
          const cursor = Buffer.from(`rows-${cursors.size + 1}`).toString("base64url")
          cursors.set(cursor, { from: from + limit })
          metadata.nextCursor = cursor
        }
        return { answer: jsonAnswer(200, { satellites: shown, listMetadata: metadata }) }
      }
    }
  },
  // Reads: how many, which parent, which columns.
  {
    name: "encryption-keys-first-only",
    kind: "cardinality",
    must: must(
      decisionsMd,
      "6. Request fields, LogsService/GetEncryptionKeysByKeyId",
      "`keyId` (min 1): the key's provider-side id, not the object id. Not paged."
    ),
    fault: onAnswer(["GetEncryptionKeysByKeyId"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (Array.isArray(body.encryptionKeys) && body.encryptionKeys.length > 1) {
          body.encryptionKeys = body.encryptionKeys.slice(0, 1)
        }
      })
    )
  },
  {
    name: "unknown-resource-lists-other-users",
    kind: "parent-scope-fallback",
    must: must(
      decisionsMd,
      "10. Latitude, A parent id that names nothing in a read",
      "answer not_found, or an empty page / empty array."
    ),
    fault: onAnswer(["ListNativeUsers"], async (answer, request, context) => {
      const body = objectBody(request)
      const resourceId = fieldOf(body, "resourceId", "resource_id")
      const page = answer.status === 200 ? readJson(answer.body) : undefined
      const known = context.knownIds.resources ?? []
      if (
        typeof resourceId !== "string" ||
        known.includes(resourceId) ||
        (page?.nativeUsers ?? []).length > 0 ||
        known.length === 0
      ) {
        return answer
      }
      const fallback = await context.forward(
        withJson(request, (b) => {
          delete b.resource_id
          b.resourceId = known[0]
        })
      )
      return fallback.status === 200 ? fallback : answer
    })
  },
  {
    name: "policy-stage-list-columns-swapped",
    kind: "projection-swap",
    must: must(
      interfaceMd,
      "Resources, PolicyStageConfiguration",
      "| disableRequestPolicyEvaluation | boolean | | disableResponsePolicyEvaluation | boolean |"
    ),
    fault: onAnswer(["ListPolicyStageConfigurations"], (answer) =>
      withJsonAnswer(answer, (body) => {
        for (const item of body.policyStageConfigurations ?? []) {
          const request = item.disableRequestPolicyEvaluation
          const response = item.disableResponsePolicyEvaluation
          delete item.disableRequestPolicyEvaluation
          delete item.disableResponsePolicyEvaluation
          if (response !== undefined) item.disableRequestPolicyEvaluation = response
          if (request !== undefined) item.disableResponsePolicyEvaluation = request
        }
      })
    )
  },
  {
    name: "missing-space-as-empty-object",
    kind: "empty-nested-object",
    must: must(
      decisionsMd,
      "1. Wire rules, Zero values on output",
      "Fields that the interface marks min length 1 (and `id` everywhere) are always present."
    ),
    fault: onAnswer(["ListSatellites", "UpdateSatellite", "CreateConnector"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const objects = [...satellitesOf(body), ...(body.connector ? [body.connector] : [])]
        for (const object of objects) {
          if (!object.spaceId && object.space === undefined) object.space = {}
        }
      })
    )
  },
  // Updates: what an update may refuse, and what it writes.
  {
    name: "protected-satellite-update-refused",
    kind: "protection-as-lock",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request ... Every field but `id` is optional. An update returns the whole object"
    ),
    fault: {
      inHandler: true,
      request: (request, context) => {
        const body = request.operation === "UpdateSatellite" ? objectBody(request) : undefined
        const seen = stateMap(context, "satellites").get(body?.id)
        const changes =
          isSet(body?.name) || isSet(fieldOf(body, "spaceId", "space_id"))
            ? fieldOf(body, "terminationProtection", "termination_protection") !== false
            : false
        return seen?.protected && changes
          ? { answer: connectError("failed_precondition", "the satellite is protected") }
          : request
      },
      response: (answer, request, context) => {
        if (["ListSatellites", "UpdateSatellite"].includes(request.operation)) {
          rememberSatellites(answer, context)
        }
        return answer
      }
    }
  },
  {
    name: "update-without-fields-refused",
    kind: "empty-update",
    must: must(decisionsMd, "4. Updates", "Every field but `id` is optional."),
    fault: {
      inHandler: true,
      ...onRequest(["UpdateSidecarResourceLink"], (request) => {
        const body = objectBody(request)
        return typeof body?.id === "string" &&
          body.id !== "" &&
          !isSet(fieldOf(body, "terminationProtection", "termination_protection"))
          ? { answer: connectError("invalid_argument", "nothing to update") }
          : request
      })
    }
  },
  {
    name: "protection-written-to-whole-space",
    kind: "write-scope",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    fault: {
      inHandler: true,
      request: async (request, context) => {
        const body = request.operation === "UpdateSatellite" ? objectBody(request) : undefined
        const value = fieldOf(body, "terminationProtection", "termination_protection")
        if (typeof value !== "boolean" || typeof body.id !== "string") return request
        const seen = stateMap(context, "satellites")
        const spaceId = fieldOf(body, "spaceId", "space_id") || seen.get(body.id)?.spaceId
        const siblings = [...seen.entries()].filter(
          ([id, satellite]) =>
            id !== body.id &&
            spaceId &&
            satellite.spaceId === spaceId &&
            satellite.protected !== value
        )
        if (siblings.length === 0) return request
        const answer = await context.forward(request)
        if (answer.status !== 200) return { answer }
        for (const [id] of siblings) {
          const written = await context.forward({
            ...request,
            body: jsonBody({ id, terminationProtection: value })
          })
          rememberSatellites(written, context)
        }
        return { answer }
      },
      response: (answer, request, context) => {
        if (["ListSatellites", "UpdateSatellite"].includes(request.operation)) {
          rememberSatellites(answer, context)
        }
        return answer
      }
    }
  },
  // Creates: what is stored, how a variant is read, what a create answers.
  {
    name: "null-stored-as-text",
    kind: "null-stringified",
    must: must(
      decisionsMd,
      "1. Wire rules, null on input",
      'Means "not set", the same as an absent field.'
    ),
    fault: onRequest(["CreateDataDiscoveryConfiguration"], (request) =>
      withJson(request, (body) => {
        for (const key of ["database", "path"]) {
          if (body[key] === null) body[key] = String(body[key])
        }
      })
    )
  },
  {
    name: "password-id-read-as-username",
    kind: "variant-dispatch",
    must: must(
      decisionsMd,
      "6. Request fields, UserService/CreateHumanUserPassword",
      "exactly one of `email`, `username`, `id` (the three variants). ... Unknown user: not_found."
    ),
    fault: onRequest(["CreateHumanUserPassword"], (request) =>
      withJson(request, (body) => {
        if (typeof body.id === "string" && !isSet(body.email) && !isSet(body.username)) {
          const { id, ...rest } = body
          return { ...rest, username: id }
        }
        return body
      })
    )
  },
  {
    name: "certificate-padded-base64-only",
    kind: "bytes-decoding",
    must: must(
      decisionsMd,
      "6. Request fields, ConnectorService/UpdateConnectorHostname",
      "`certificate` and `privateKey` (base64 bytes, secret)"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["UpdateConnectorHostname"], (request) => {
        const body = objectBody(request)
        const refused = [
          ["certificate", "certificate"],
          ["privateKey", "private_key"]
        ].find(([camel, snake]) => {
          const value = fieldOf(body, camel, snake)
          return typeof value === "string" && lenientBase64(value) && !strictBase64(value)
        })
        return refused === undefined
          ? request
          : { answer: connectError("invalid_argument", `${refused[0]}: illegal base64 data`) }
      })
    }
  },
  {
    name: "create-answers-201",
    kind: "success-status",
    must: must(
      decisionsMd,
      "1. Wire rules, Success",
      "HTTP 200, `Content-Type: application/json`, body the response object."
    ),
    fault: onAnswer(["CreateBIIntegration", "CreatePolicyDataLoader"], (answer) =>
      answer.status === 200 ? { ...answer, status: 201 } : answer
    )
  },
  {
    name: "identity-link-user-unimplemented",
    kind: "partial-enum-support",
    must: must(
      decisionsMd,
      "6. Request fields, ResourceService/CreateNativeUserIdentityLink",
      "`identityType` (`user`, `group`, `resource_hostname`)"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["CreateNativeUserIdentityLink"], (request) =>
        fieldOf(objectBody(request), "identityType", "identity_type") === "user"
          ? { answer: connectError("unimplemented", "links to users are not supported yet") }
          : request
      )
    }
  }
]

/** Every string of a JSON text written with `\u` escapes for non-ASCII and `\/` for `/`. */
const escapedString = (text) =>
  JSON.stringify(text)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/\//g, "\\/")

/** A JSON value written with its keys in reverse order, indented, and escaped strings. */
const reencoded = (value, indent = "") => {
  const inner = `${indent}  `
  if (typeof value === "string") return escapedString(value)
  if (Array.isArray(value)) {
    return value.length === 0
      ? "[]"
      : `[\n${value.map((item) => inner + reencoded(item, inner)).join(",\n")}\n${indent}]`
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).reverse()
    return keys.length === 0
      ? "{}"
      : `{\n${keys.map((key) => `${inner}${escapedString(key)}: ${reencoded(value[key], inner)}`).join(",\n")}\n${indent}}`
  }
  return JSON.stringify(value)
}

/** The zero values a faithful server may write where the reference server leaves them out. */
const withZeroValues = (value) => {
  if (Array.isArray(value)) return value.map(withZeroValues)
  if (value === null || typeof value !== "object") return value
  const out = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withZeroValues(v)]))
  if (typeof out.id === "string") out.terminationProtection ??= false
  if (typeof out.technology === "string") out.provider ??= ""
  if (typeof out.satelliteType === "string") out.spaceId ??= ""
  if (typeof out.connectorId === "string") {
    out.disableSessionPolicyEvaluation ??= false
    out.disableRequestPolicyEvaluation ??= false
    out.disableResponsePolicyEvaluation ??= false
  }
  return out
}

/** The content codings the compression control reads and writes (decisions.md section 10). */
const codings = {
  gzip: { decode: zlib.gunzipSync, encode: zlib.gzipSync },
  deflate: {
    decode: (body) => {
      try {
        return zlib.inflateSync(body)
      } catch {
        return zlib.inflateRawSync(body)
      }
    },
    encode: zlib.deflateSync
  },
  br: { decode: zlib.brotliDecompressSync, encode: zlib.brotliCompressSync }
}

/**
 * Faithful controls: servers that differ from the reference server only where decisions.md lets a
 * server choose or where the Connect JSON codec allows, so any finding on one is a false alarm.
 */
export const fourthControls = [
  {
    name: "control-json-written-otherwise",
    must: must(
      decisionsMd,
      "1. Wire rules, Timestamps",
      "Writers emit 0, 3, 6 or 9 fractional digits."
    ),
    fault: {
      response: (answer, _request, context) => {
        const body = readJson(answer.body)
        if (body === undefined || body === null || typeof body !== "object") return answer
        const count = (context.state.get("answers") ?? 0) + 1
        context.state.set("answers", count)
        const digits = count % 2 === 0 ? 6 : 9
        const times = mapTimestamps(
          body,
          (t) =>
            t.replace(/(?:\.(\d+))?Z$/, (_, fraction = "") =>
              fraction.length > digits ? `.${fraction}Z` : `.${fraction.padEnd(digits, "0")}Z`
            ),
          ["createdAt", "updatedAt", "expiresAt"]
        )
        return { ...answer, body: Buffer.from(reencoded(times), "utf8") }
      }
    }
  },
  {
    name: "control-zero-values-written",
    must: must(
      decisionsMd,
      "1. Wire rules, Zero values on output",
      "A response may leave out any field whose value is the zero value ... Readers treat an absent field as its zero value."
    ),
    fault: {
      response: (answer) =>
        withJsonAnswer(answer, (body) => {
          const out = withZeroValues(body)
          if (out.listMetadata !== undefined) {
            out.listMetadata = {
              count: 0,
              nextCursor: "",
              after: "",
              before: "",
              ...out.listMetadata
            }
          }
          return out
        })
    }
  },
  {
    name: "control-compression-supported",
    must: must(
      decisionsMd,
      "10. Latitude, `binary` Connect codec, Connect GET, compression",
      "support them or answer 415 / unimplemented."
    ),
    fault: {
      request: (request) => {
        const coding = codings[String(request.headers["content-encoding"] ?? "").toLowerCase()]
        if (coding === undefined) return request
        try {
          const headers = { ...request.headers }
          delete headers["content-encoding"]
          return { ...request, headers, body: coding.decode(request.body) }
        } catch {
          return request
        }
      },
      response: (answer, request) => {
        const accepted = String(request.headers["accept-encoding"] ?? "")
          .split(",")
          .map((part) => part.trim().split(";")[0].toLowerCase())
        const name = accepted.find((part) => codings[part] !== undefined)
        if (answer.status !== 200 || name === undefined) return answer
        return {
          ...answer,
          headers: { ...answer.headers, "content-encoding": name },
          body: codings[name].encode(answer.body)
        }
      }
    }
  }
]
