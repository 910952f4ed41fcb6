// The third batch of faulty servers, written apart from the first two batches and from the checks,
// from interface.md and decisions.md alone: kinds of bug neither earlier batch has (body encodings
// and framing, lenient routing and key matching, lookups, query builders, operand edge cases,
// no-op and lost updates, input normalisation, secrets in errors and masks, joins and caches),
// and three faithful controls that differ from the reference server only where a server may.
import { Buffer } from "node:buffer"
import { connectError, jsonAnswer, jsonBody, readJson } from "./front.mjs"
import {
  apiKeyOf,
  codeOf,
  decisionsMd,
  interfaceMd,
  mapConditions,
  mapTimestamps,
  must,
  onAnswer,
  onRequest,
  someCondition,
  withJson,
  withJsonAnswer
} from "./hooks.mjs"

/** Every operation's path (interface.md, Endpoints). */
const routes = [
  "ScenarioMonitoringService/ListScenarioMonitors",
  "ResourceService/CreateNativeUserIdentityLink",
  "ConnectorService/UpdateConnectorHostname",
  "SatelliteService/ListSatellites",
  "ResourceService/GetResource",
  "PoliciesService/ListPolicyStageConfigurations",
  "IntegrationDataCatalogService/GetDataCatalogIntegration",
  "PoliciesService/GetPolicyStageConfiguration",
  "ConnectorService/CreateConnector",
  "LogsService/GetEncryptionKeysByKeyId",
  "LogsService/ListLogQueries",
  "ResourceService/ListNativeUsers",
  "ConnectorService/UpdateConnectorListenerLink",
  "IntegrationMDMService/ListIntegrationsMDM",
  "PolicyDataLoaderService/CreatePolicyDataLoader",
  "UserService/CreateHumanUserPassword",
  "ResourceService/CreateDataDiscoveryConfiguration",
  "PermissionsService/CreatePermission",
  "IntegrationBIService/CreateBIIntegration",
  "IntegrationMDMService/CreateIntegrationMDM",
  "SidecarService/UpdateSidecarResourceLink",
  "SatelliteService/UpdateSatellite"
].map((route) => `/core.v1.${route}`)

/** The snake_case keys of a Satellite a filter may name (interface.md, Satellite). */
const satelliteKeys = [
  "id",
  "name",
  "termination_protection",
  "space_id",
  "space",
  "satellite_type",
  "created_at",
  "updated_at"
]

const operators = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "empty",
  "not_empty",
  "starts_with",
  "ends_with",
  "lower_than",
  "greater_than"
]

/** A condition no item matches (every item has an id), as a server's "false" comes out. */
const matchesNothing = { key: "id", operator: "empty" }

/** A condition every item matches, as a server's skipped condition comes out. */
export const matchesAll = { key: "id", operator: "not_empty" }

/** A Map the front keeps across exchanges under `name`. */
const stateMap = (context, name) => {
  if (!context.state.has(name)) context.state.set(name, new Map())
  return context.state.get(name)
}

/** A request's JSON object body, or undefined. */
const objectBody = (request) => {
  const body = readJson(request.body)
  return body !== null && typeof body === "object" && !Array.isArray(body) ? body : undefined
}

const isSet = (value) => value !== undefined && value !== null

/** A field of a request body under its lowerCamelCase or its snake_case name. */
const fieldOf = (body, camel, snake) => body?.[camel] ?? body?.[snake]

/** The fields of UpdateSatellite a request may set, each with its snake_case name. */
const satelliteFields = [
  ["name", "name"],
  ["terminationProtection", "termination_protection"],
  ["spaceId", "space_id"]
]

/** Every satellite in a ListSatellites or UpdateSatellite answer's body. */
const satellitesOf = (body) => [
  ...(Array.isArray(body?.satellites) ? body.satellites : []),
  ...(body?.satellite !== undefined ? [body.satellite] : [])
]

/**
 * A fault in how an accepted request is carried out: once the server has accepted a request of
 * one of `operations` (a 200), the answer is the server's to the request as `rewrite` changes it,
 * so the fault never changes what the server validates.
 */
export const onAccepted = (operations, rewrite) =>
  onAnswer(operations, async (answer, request, context) => {
    if (answer.status !== 200) return answer
    const changed = rewrite(request)
    return changed === request ? answer : context.forward(changed)
  })

/** A filter node with its condition replaced by `field`, any other member kept. */
export const withField = (filter, field) => ({ ...filter, field })

/** An answer with its body bytes changed by `change`, when it is a 200. */
const withBytes = (answer, change) =>
  answer.status === 200 ? { ...answer, body: change(answer.body) } : answer

/** The third batch: name, the kind of bug, the must it breaks, and its transform of the front. */
export const third = [
  // Wire: bytes, framing and encodings of answers.
  {
    name: "answer-utf8-bom",
    kind: "byte-order-mark",
    must: must(
      interfaceMd,
      "Common conventions, 3",
      "Request and response bodies are JSON, sent with the header `Content-Type: application/json`."
    ),
    fault: onAnswer(["GetPolicyStageConfiguration"], (answer) =>
      withBytes(answer, (body) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]))
    )
  },
  {
    name: "answer-latin1-encoded",
    kind: "text-encoding",
    must: must(
      interfaceMd,
      "Common conventions, 3",
      "Request and response bodies are JSON, sent with the header `Content-Type: application/json`."
    ),
    fault: onAnswer(["CreateIntegrationMDM", "ListIntegrationsMDM"], (answer) =>
      withBytes(answer, (body) => {
        const text = body.toString("utf8")
        return /[^\x20-\x7e]/.test(text) ? Buffer.from(text, "latin1") : body
      })
    )
  },
  {
    name: "list-answer-cut-at-64kib",
    kind: "buffer-truncation",
    must: must(
      decisionsMd,
      "1. Wire rules, Success",
      "HTTP 200, `Content-Type: application/json`, body the response object."
    ),
    fault: onAnswer(["ListSatellites"], (answer) =>
      withBytes(answer, (body) => (body.length > 65_536 ? body.subarray(0, 65_536) : body))
    )
  },
  // Protocol: error answers, compression, deadlines, routes.
  {
    name: "not-found-in-200",
    kind: "error-as-success",
    must: must(
      decisionsMd,
      "2. Errors",
      "not_found | 404 ... An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    fault: onAnswer(["GetDataCatalogIntegration"], (answer) =>
      codeOf(answer) === "not_found" ? jsonAnswer(200, readJson(answer.body)) : answer
    )
  },
  {
    name: "error-details-value-object",
    kind: "error-details",
    must: must(
      decisionsMd,
      "2. Errors",
      'Every non-200 response carries a Connect error body: `{"code": "<code>", "message": "<text>", "details": [{"type": "<proto type name>", "value": "<base64>", "debug": {...}}]}`'
    ),
    fault: onAnswer(["GetResource"], (answer, request) => {
      if (codeOf(answer) !== "not_found") return answer
      const error = readJson(answer.body)
      const id = objectBody(request)?.id
      const details = [
        { type: "google.rpc.ResourceInfo", value: { resourceType: "Resource", resourceName: id } }
      ]
      return { ...answer, body: jsonBody({ ...error, details }) }
    })
  },
  {
    name: "compressed-request-invalid-argument",
    kind: "compression",
    must: must(
      decisionsMd,
      "10. Latitude, `binary` Connect codec, Connect GET, compression",
      "support them or answer 415 / unimplemented."
    ),
    fault: {
      inHandler: true,
      request: (request) => {
        const encoding = String(request.headers["content-encoding"] ?? "identity").toLowerCase()
        return encoding === "identity"
          ? request
          : { answer: connectError("invalid_argument", "request body is not valid JSON") }
      }
    }
  },
  {
    name: "deadline-as-canceled",
    kind: "deadline-code",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "The deadline from `Connect-Timeout-Ms` passed | deadline_exceeded"
    ),
    fault: {
      response: (answer) =>
        codeOf(answer) === "deadline_exceeded"
          ? connectError("canceled", "context canceled")
          : answer
    }
  },
  {
    name: "routes-case-and-slash-folded",
    kind: "route-folding",
    must: must(
      decisionsMd,
      "1. Wire rules, Unknown service or method",
      "`404` with Connect code `unimplemented`."
    ),
    fault: {
      request: (request) => {
        const path = request.path.replace(/\/$/, "").toLowerCase()
        const route = routes.find((candidate) => candidate.toLowerCase() === path)
        return route === undefined || route === request.path ? request : { ...request, path: route }
      }
    }
  },
  // Authentication.
  {
    name: "api-key-case-insensitive",
    kind: "key-case-folding",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "`X-API-KEY` missing, empty, or not a known key | unauthenticated"
    ),
    fault: {
      request: (request, context) => {
        const key = apiKeyOf(request)
        const known = context.apiKeys.find(
          (k) => typeof key === "string" && key !== k && key.toLowerCase() === k.toLowerCase()
        )
        return known === undefined
          ? request
          : { ...request, headers: { ...request.headers, "x-api-key": known } }
      }
    }
  },
  {
    name: "auth-cached-per-client",
    kind: "auth-cache",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "`X-API-KEY` missing, empty, or not a known key | unauthenticated"
    ),
    fault: {
      request: (request, context) => {
        const key = apiKeyOf(request)
        if (typeof key !== "string" || key === "") return request
        if (context.apiKeys.includes(key)) {
          context.state.set("authorized", { key, at: Date.now() })
          return request
        }
        const cached = context.state.get("authorized")
        return cached !== undefined && Date.now() - cached.at < 30_000
          ? { ...request, headers: { ...request.headers, "x-api-key": cached.key } }
          : request
      }
    }
  },
  // Gets: lookups.
  {
    name: "get-empty-id-not-found",
    kind: "missing-validation",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "A field breaks a rule of the interface (min length, ...) | invalid_argument"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["GetPolicyStageConfiguration"], (request) => {
        const body = objectBody(request)
        return body !== undefined && (body.id === "" || body.id == null)
          ? { answer: connectError("not_found", "policy stage configuration not found") }
          : request
      })
    }
  },
  {
    name: "get-id-case-insensitive",
    kind: "collation",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    fault: onAnswer(["GetResource"], async (answer, request, context) => {
      const id = objectBody(request)?.id
      if (codeOf(answer) !== "not_found" || typeof id !== "string" || id === id.toLowerCase())
        return answer
      const folded = await context.forward(
        withJson(request, (body) => {
          body.id = id.toLowerCase()
        })
      )
      return folded.status === 200 ? folded : answer
    })
  },
  // Lists: walks, metadata, limits and the parts of a query.
  {
    name: "walk-last-single-item-unreachable",
    kind: "walk-end",
    must: must(
      decisionsMd,
      "3. Lists, paging",
      "walking every page once yields every item exactly once, when nothing is created meanwhile."
    ),
    fault: onAnswer(["ListIntegrationsMDM"], async (answer, request, context) => {
      const page = answer.status === 200 ? readJson(answer.body) : undefined
      const cursor = page?.listMetadata?.nextCursor
      if (typeof cursor !== "string" || cursor === "") return answer
      const next = readJson(
        (await context.forward(withJson(request, (body) => ({ ...body, cursor })))).body
      )
      const rest = next?.integrations?.length
      return rest === 1 && !next.listMetadata?.nextCursor
        ? withJsonAnswer(answer, (body) => {
            delete body.listMetadata.nextCursor
          })
        : answer
    })
  },
  {
    name: "before-is-previous-page-last",
    kind: "metadata-semantics",
    must: must(
      decisionsMd,
      "3. Lists, listMetadata.after / before",
      "The id of the last / first item in this page (empty when the page is empty)."
    ),
    fault: onAnswer(["ListIntegrationsMDM"], (answer, request, context) => {
      const lastOf = stateMap(context, "lastBefore")
      const cursor = objectBody(request)?.cursor
      return withJsonAnswer(answer, (body) => {
        const metadata = body.listMetadata ?? {}
        if (typeof metadata.nextCursor === "string" && metadata.nextCursor !== "")
          lastOf.set(metadata.nextCursor, metadata.after)
        if (
          typeof cursor === "string" &&
          lastOf.has(cursor) &&
          (body.integrations ?? []).length > 0
        )
          body.listMetadata = { ...metadata, before: lastOf.get(cursor) }
      })
    })
  },
  {
    name: "limit-500-refused",
    kind: "bound-off-by-one",
    must: must(
      interfaceMd,
      "Limits",
      "`limit` at most 500 | list requests (ListSatellites, ListLogQueries, ListNativeUsers, ListIntegrationsMDM)"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["ListLogQueries"], (request) =>
        objectBody(request)?.limit === 500
          ? { answer: connectError("invalid_argument", "limit: must be less than 500") }
          : request
      )
    }
  },
  {
    name: "space-id-dropped-with-filter",
    kind: "query-builder",
    must: must(
      decisionsMd,
      "3. Lists, spaceId (ListSatellites)",
      "Optional: only satellites of that space."
    ),
    fault: onAccepted(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (body.filter != null && isSet(fieldOf(body, "spaceId", "space_id"))) {
          delete body.spaceId
          delete body.space_id
        }
      })
    )
  },
  {
    name: "search-term-trimmed",
    kind: "term-normalization",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: onAccepted(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (typeof body.search === "string") body.search = body.search.trim()
      })
    )
  },
  // Filters: operands and operators at their edges.
  {
    name: "filter-empty-operand-matches-none",
    kind: "empty-operand",
    must: must(
      interfaceMd,
      "Endpoints, List request fields",
      "comparison operators: ... `contains`, ... `starts_with`, `ends_with`"
    ),
    fault: onAccepted(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) =>
          ["contains", "starts_with", "ends_with"].includes(condition.operator) &&
          condition.value?.value === ""
            ? withField(filter, matchesNothing)
            : filter
        )
      })
    )
  },
  {
    name: "filter-false-as-null",
    kind: "sql-null",
    must: must(
      decisionsMd,
      "1. Wire rules, Zero values on output",
      "A response may leave out any field whose value is the zero value ... Readers treat an absent field as its zero value."
    ),
    fault: onAccepted(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) => {
          const value = String(condition.value?.value)
          return condition.key === "termination_protection" &&
            ((condition.operator === "equals" && value === "false") ||
              (condition.operator === "not_equals" && value === "true"))
            ? withField(filter, matchesNothing)
            : filter
        })
      })
    )
  },
  {
    name: "filter-unknown-operator-as-equals",
    kind: "operator-fallback",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      "An unknown key or operator is invalid_argument."
    ),
    fault: onRequest(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) =>
          typeof condition.operator === "string" && !operators.includes(condition.operator)
            ? withField(filter, { ...condition, operator: "equals" })
            : filter
        )
      })
    )
  },
  {
    name: "filter-unknown-key-skipped",
    kind: "key-fallback",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      "An unknown key or operator is invalid_argument."
    ),
    fault: onAnswer(["ListSatellites"], (answer, request, context) => {
      const filter = objectBody(request)?.filter
      const unknown = (condition) => !satelliteKeys.includes(condition.key)
      if (codeOf(answer) !== "invalid_argument" || !someCondition(filter, unknown)) return answer
      return context.forward(
        withJson(request, (body) => {
          body.filter = mapConditions(body.filter, (condition, f) =>
            unknown(condition) ? withField(f, matchesAll) : f
          )
        })
      )
    })
  },
  // Updates: what an update keeps, moves and returns.
  {
    name: "update-rewrites-created-at",
    kind: "immutable-field",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    fault: onAnswer(["UpdateConnectorListenerLink"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const link = body.connectorListenerLink
        if (typeof link?.updatedAt === "string") link.createdAt = link.updatedAt
      })
    )
  },
  {
    name: "noop-update-keeps-updated-at",
    kind: "noop-elision",
    must: must(
      decisionsMd,
      "4. Updates",
      "An update returns the whole object and moves `updatedAt` forward."
    ),
    fault: {
      response: (answer, request, context) => {
        if (!["ListSatellites", "UpdateSatellite"].includes(request.operation)) return answer
        const seen = stateMap(context, "seen")
        const frozen = stateMap(context, "frozen")
        const body = objectBody(request)
        const noop =
          request.operation === "UpdateSatellite" &&
          !satelliteFields.some(([camel, snake]) => isSet(fieldOf(body, camel, snake)))
        return withJsonAnswer(answer, (page) => {
          for (const satellite of satellitesOf(page)) {
            if (typeof satellite.id !== "string") continue
            if (noop && seen.has(satellite.id) && !frozen.has(satellite.id))
              frozen.set(satellite.id, seen.get(satellite.id))
            if (request.operation === "UpdateSatellite" && !noop) frozen.delete(satellite.id)
            if (frozen.has(satellite.id)) satellite.updatedAt = frozen.get(satellite.id)
            else seen.set(satellite.id, satellite.updatedAt)
          }
        })
      }
    }
  },
  {
    name: "update-false-ignored",
    kind: "falsy-value",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    fault: onRequest(["UpdateSidecarResourceLink"], (request) =>
      withJson(request, (body) => {
        for (const key of ["terminationProtection", "termination_protection"]) {
          if (body[key] === false) delete body[key]
        }
      })
    )
  },
  {
    name: "update-echoes-request",
    kind: "partial-echo",
    must: must(
      decisionsMd,
      "4. Updates",
      "An update returns the whole object and moves `updatedAt` forward."
    ),
    fault: onAnswer(["UpdateConnectorHostname"], (answer, request) =>
      withJsonAnswer(answer, (body) => {
        const stored = body.connectorHostname
        if (stored === undefined) return
        const sent = objectBody(request) ?? {}
        const echo = { id: stored.id }
        for (const [camel, snake] of [
          ["hostname", "hostname"],
          ["managedTls", "managed_tls"],
          ["terminationProtection", "termination_protection"],
          ["dnsRecord", "dns_record"]
        ]) {
          const value = fieldOf(sent, camel, snake)
          if (isSet(value)) echo[camel] = value
        }
        echo.updatedAt = stored.updatedAt
        body.connectorHostname = echo
      })
    )
  },
  {
    name: "update-writes-back-stale-copy",
    kind: "lost-update",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
    ),
    fault: {
      request: (request, context) => {
        const body = request.operation === "UpdateSatellite" ? objectBody(request) : undefined
        const copy = stateMap(context, "copies").get(body?.id)
        if (copy === undefined) return request
        const merged = { id: body.id }
        for (const [camel, snake] of satelliteFields) {
          const value = fieldOf(body, camel, snake) ?? copy[camel]
          if (isSet(value)) merged[camel] = value
        }
        return { ...request, body: jsonBody(merged) }
      },
      response: (answer, request, context) => {
        if (!["ListSatellites", "UpdateSatellite"].includes(request.operation)) return answer
        const copies = stateMap(context, "copies")
        const page = answer.status === 200 ? readJson(answer.body) : undefined
        for (const satellite of satellitesOf(page)) {
          if (typeof satellite.id === "string" && !copies.has(satellite.id)) {
            copies.set(satellite.id, {
              name: satellite.name,
              terminationProtection: satellite.terminationProtection ?? false,
              spaceId: satellite.spaceId || undefined
            })
          }
        }
        return answer
      }
    }
  },
  // Creates: what a create stores and answers.
  {
    name: "create-name-trimmed",
    kind: "input-normalization",
    must: must(
      decisionsMd,
      "10. Latitude, Length and character limits of names and other strings",
      "reject strings longer than 255 characters, or with control characters, with invalid_argument; or accept them."
    ),
    fault: onRequest(["CreateBIIntegration"], (request) =>
      withJson(request, (body) => {
        if (typeof body.name === "string") body.name = body.name.trim()
      })
    )
  },
  {
    name: "description-cut-at-64",
    kind: "silent-truncation",
    must: must(
      decisionsMd,
      "10. Latitude, Length and character limits of names and other strings",
      "reject strings longer than 255 characters, or with control characters, with invalid_argument; or accept them."
    ),
    fault: onRequest(["CreatePermission"], (request) =>
      withJson(request, (body) => {
        if (typeof body.description === "string" && body.description.length > 64)
          body.description = body.description.slice(0, 64)
      })
    )
  },
  {
    name: "connector-same-name-returns-existing",
    kind: "create-dedup",
    must: must(
      decisionsMd,
      "10. Latitude, Uniqueness of names",
      "accept duplicates, or reject them with already_exists."
    ),
    fault: {
      inHandler: true,
      request: (request, context) => {
        const name = request.operation === "CreateConnector" ? objectBody(request)?.name : undefined
        const existing = stateMap(context, "byName").get(name)
        return existing === undefined ? request : { answer: existing }
      },
      response: (answer, request, context) => {
        const name = request.operation === "CreateConnector" ? objectBody(request)?.name : undefined
        if (typeof name === "string" && answer.status === 200)
          stateMap(context, "byName").set(name, answer)
        return answer
      }
    }
  },
  {
    name: "data-loader-long-code-omitted",
    kind: "lazy-field",
    must: must(
      decisionsMd,
      "1. Wire rules, Zero values on output",
      "Fields that the interface marks min length 1 (and `id` everywhere) are always present."
    ),
    fault: onAnswer(["CreatePolicyDataLoader"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const loader = body.policyDataLoader
        if (typeof loader?.workerCode === "string" && loader.workerCode.length > 64)
          delete loader.workerCode
      })
    )
  },
  // Secrets.
  {
    name: "secret-in-validation-message",
    kind: "secret-leak",
    must: must(
      decisionsMd,
      "8. Secrets",
      "no log line, span attribute, error message or report may print them: ... `apiKey` and `apiSecret` (any vendor object)"
    ),
    fault: onAnswer(["CreateBIIntegration"], (answer, request) => {
      const vendor = objectBody(request)?.biVendorA
      if (codeOf(answer) !== "invalid_argument" || typeof vendor?.apiKey !== "string") return answer
      const error = readJson(answer.body)
      const message = `${error.message ?? "invalid request"}; request: ${request.body.toString("utf8")}`
      return { ...answer, body: jsonBody({ ...error, message }) }
    })
  },
  {
    name: "secret-masked",
    kind: "secret-masking",
    must: must(
      decisionsMd,
      "10. Latitude, Secret fields in responses (section 8)",
      "return the stored value, or leave it out."
    ),
    fault: onAnswer(["CreateIntegrationMDM"], (answer, request) =>
      withJsonAnswer(answer, (body) => {
        const sent = objectBody(request)?.mdmVendorA?.apiKey
        if (typeof sent === "string" && sent !== "" && body.integration !== undefined)
          body.integration.mdmVendorA = { ...body.integration.mdmVendorA, apiKey: "********" }
      })
    )
  },
  // Nested objects and arrays.
  {
    name: "resource-space-of-previous-read",
    kind: "join-cache",
    must: must(interfaceMd, "Resources, Resource", "| spaceId | string | | space | Space object |"),
    fault: onAnswer(["GetResource"], (answer, _request, context) =>
      withJsonAnswer(answer, (body) => {
        const space = body.resource?.space
        if (space === undefined) return
        const previous = context.state.get("space")
        context.state.set("space", space)
        if (previous !== undefined && previous.id !== space.id) body.resource.space = previous
      })
    )
  },
  {
    name: "one-item-arrays-collapsed",
    kind: "array-collapse",
    must: must(
      interfaceMd,
      "Resources, LogQueryMetadata",
      "filters | array of objects | each has `name` (string) and `values` (array of string) ... histogramGroupByFields | array of string"
    ),
    fault: onAnswer(["ListLogQueries"], (answer) =>
      withJsonAnswer(answer, (body) => {
        for (const saved of body.savedQueries ?? []) {
          const query = saved.query ?? {}
          for (const filter of query.filters ?? []) {
            if (Array.isArray(filter.values) && filter.values.length === 1)
              filter.values = filter.values[0]
          }
          if (
            Array.isArray(query.histogramGroupByFields) &&
            query.histogramGroupByFields.length === 1
          )
            query.histogramGroupByFields = query.histogramGroupByFields[0]
        }
      })
    )
  },
  // Enums.
  {
    name: "newest-satellite-type-proto-name",
    kind: "enum-fallback",
    must: must(
      interfaceMd,
      "Resources, Satellite",
      "satelliteType | string enum | `data_discovery`, `data_classifier`, `policy_data_loader`, `ai`"
    ),
    fault: onAnswer(["ListSatellites", "UpdateSatellite"], (answer) =>
      withJsonAnswer(answer, (body) => {
        for (const satellite of satellitesOf(body)) {
          if (satellite.satelliteType === "ai") satellite.satelliteType = "SATELLITE_TYPE_AI"
        }
      })
    )
  },
  {
    name: "deletion-policy-as-number",
    kind: "enum-number",
    must: must(
      interfaceMd,
      "Resources, DataDiscoveryConfiguration",
      "deletionPolicy | string enum | `delete`, `mark_for_deletion`"
    ),
    fault: onAnswer(["CreateDataDiscoveryConfiguration"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const configuration = body.dataDiscoveryConfiguration
        const number = { delete: 1, mark_for_deletion: 2 }[configuration?.deletionPolicy]
        if (number !== undefined) configuration.deletionPolicy = number
      })
    )
  },
  // State: answers kept too long.
  {
    name: "list-cache-ignores-updates",
    kind: "response-cache",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request ... An update returns the whole object and moves `updatedAt` forward."
    ),
    fault: onAnswer(["ListSatellites"], (answer, request, context) => {
      if (answer.status !== 200) return answer
      const cache = stateMap(context, "cache")
      const key = `${apiKeyOf(request)} ${request.body.toString("utf8")}`
      const kept = cache.get(key)
      if (kept !== undefined && Date.now() - kept.at < 60_000) return kept.answer
      cache.set(key, { answer, at: Date.now() })
      return answer
    })
  }
]

/**
 * Faithful controls: servers that differ from the reference server only where decisions.md lets a
 * server choose or where readers must not care, so any finding on one is a false alarm.
 */
export const thirdControls = [
  {
    name: "control-nine-digit-times",
    must: must(
      decisionsMd,
      "1. Wire rules, Timestamps",
      "Writers emit 0, 3, 6 or 9 fractional digits."
    ),
    fault: {
      response: (answer) =>
        withJsonAnswer(answer, (body) =>
          mapTimestamps(
            body,
            (t) => t.replace(/(?:\.(\d+))?Z$/, (_, digits = "") => `.${digits.padEnd(9, "0")}Z`),
            ["createdAt", "updatedAt", "expiresAt"]
          )
        )
    }
  },
  {
    name: "control-secrets-returned",
    must: must(
      decisionsMd,
      "10. Latitude, Secret fields in responses (section 8)",
      "return the stored value, or leave it out."
    ),
    fault: onAnswer(["CreateIntegrationMDM", "CreateBIIntegration"], (answer, request) =>
      withJsonAnswer(answer, (body) => {
        const sent = objectBody(request) ?? {}
        const vendorKey = request.operation === "CreateBIIntegration" ? "biVendorA" : "mdmVendorA"
        const vendor = sent[vendorKey]
        if (body.integration === undefined || vendor === null || typeof vendor !== "object") return
        const secrets = Object.fromEntries(
          ["apiKey", "apiSecret"]
            .filter((key) => typeof vendor[key] === "string" && vendor[key] !== "")
            .map((key) => [key, vendor[key]])
        )
        body.integration[vendorKey] = { ...body.integration[vendorKey], ...secrets }
      })
    )
  },
  {
    name: "control-chunked-with-extras",
    must: must(
      decisionsMd,
      "1. Wire rules, Unknown response fields",
      "Readers ignore them (forward compatibility)."
    ),
    fault: {
      response: (answer, _request, context) => {
        const count = (context.state.get("requests") ?? 0) + 1
        context.state.set("requests", count)
        const changed = withJsonAnswer(answer, (body) => {
          body.serverRevision = "2026-12-07"
          if (body.listMetadata !== undefined)
            body.listMetadata = { ...body.listMetadata, totalSizeHint: -1 }
        })
        return {
          ...changed,
          headers: {
            ...changed.headers,
            "x-request-id": `req-${count}`,
            "x-ratelimit-limit": "100000",
            "x-ratelimit-remaining": "99999",
            "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 60)
          },
          chunkSize: 7
        }
      }
    }
  }
]
