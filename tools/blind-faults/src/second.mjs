// The second batch of faulty servers, written apart from the first batch and from the checks, from
// interface.md and decisions.md alone: kinds of bug the first batch has not (page walks, orders,
// cursors, filter semantics, enum spellings, nested shapes, deadlines, coercions, stale state).
import { Buffer } from "node:buffer"
import { setTimeout as sleep } from "node:timers/promises"
import { connectError, jsonAnswer, jsonBody, readJson } from "./front.mjs"
import {
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

/** The item array's key of each List answer (interface.md, Endpoints). */
export const itemKeys = {
  ListSatellites: "satellites",
  ListIntegrationsMDM: "integrations",
  ListNativeUsers: "nativeUsers",
  ListScenarioMonitors: "monitors",
  ListPolicyStageConfigurations: "policyStageConfigurations",
  ListLogQueries: "savedQueries"
}

/** A Map the front keeps across exchanges under `name`. */
export const stateMap = (context, name) => {
  if (!context.state.has(name)) context.state.set(name, new Map())
  return context.state.get(name)
}

/** A request's JSON object body, or undefined. */
export const objectBody = (request) => {
  const body = readJson(request.body)
  return body !== null && typeof body === "object" && !Array.isArray(body) ? body : undefined
}

/** A body without the named fields. */
export const without = (body, ...names) =>
  Object.fromEntries(Object.entries(body).filter(([name]) => !names.includes(name)))

const isSet = (value) => value !== undefined && value !== null && value !== ""

/** Every item the server lists for `body` (its filter, search and order), walked 500 a page. */
export const listAll = async (request, body, context) => {
  const key = itemKeys[request.operation]
  const items = []
  let cursor
  do {
    const answer = await context.forward({
      ...request,
      body: jsonBody({ ...without(body, "cursor"), limit: 500, ...(cursor ? { cursor } : {}) })
    })
    const page = answer.status === 200 ? readJson(answer.body) : undefined
    if (page === undefined) return []
    items.push(...(page[key] ?? []))
    cursor = page.listMetadata?.nextCursor
  } while (cursor)
  return items
}

/**
 * A List the front pages itself, over every item the server lists: `source(body, page)` is the
 * body whose items page `page` (1 for the first) is cut from, `arrange(items, body, page, list)`
 * orders or selects them (it may be async; `list(body)` lists every item the server has for
 * another body), `start(index, limit, previous)` is where a later page starts, given the index of
 * the previous page's last item (index + 1 when faithful) and that page's number, and
 * `shape(shown)` is the page as answered (its order), the walk going on from the last item cut.
 * `applies(body)` says which first pages it takes; the others are forwarded untouched. The server
 * judges each request as a first page (limit, order, filter), and the front's cursors are its
 * own, kept in its state.
 */
export const frontPaged = (
  operations,
  {
    applies = () => true,
    source = (body) => body,
    arrange = (items) => items,
    start = (index) => index + 1,
    shape = (shown) => shown
  }
) => ({
  request: async (request, context) => {
    const body = operations.includes(request.operation) ? objectBody(request) : undefined
    if (body === undefined) return request
    const cursors = stateMap(context, "cursors")
    const walk = typeof body.cursor === "string" ? cursors.get(body.cursor) : undefined
    if (walk === undefined && (isSet(body.cursor) || !applies(body))) return request
    const first = without(body, "cursor")
    const judged = await context.forward({ ...request, body: jsonBody(first) })
    if (judged.status !== 200) return { answer: judged }
    const page = walk === undefined ? 1 : walk.page + 1
    const limit = Number(first.limit)
    const list = (body) => listAll(request, body, context)
    const items = await arrange(await list(source(first, page)), first, page, list)
    let from = 0
    if (walk !== undefined) {
      const index = items.findIndex((item) => item.id === walk.after)
      if (index < 0) {
        return { answer: connectError("invalid_argument", "cursor: not of this request") }
      }
      from = start(index, limit, walk.page)
    }
    const shown = items.slice(from, from + limit)
    const answered = shape(shown)
    const metadata = {
      count: answered.length,
      after: answered.at(-1)?.id ?? "",
      before: answered[0]?.id ?? ""
    }
    if (from + limit < items.length && shown.length > 0) {
      const cursor = Buffer.from(`front-page-${cursors.size + 1}`).toString("base64url")
      cursors.set(cursor, { page, after: shown.at(-1).id })
      metadata.nextCursor = cursor
    }
    return {
      answer: jsonAnswer(200, { [itemKeys[request.operation]]: answered, listMetadata: metadata })
    }
  }
})

/** Every group of a filter tree, changed by `change(group, depth)` (the top group is at depth 0). */
const mapGroups = (filter, change, depth = 0) => {
  const group = filter?.group
  if (group === undefined || group === null || !Array.isArray(group.filters)) return filter
  const filters = group.filters.map((f) => mapGroups(f, change, depth + 1))
  return { ...filter, group: change({ ...group, filters }, depth) }
}

/** Changes the JSON body of an operation's 200 answers, when the request's body passes `test`. */
const onAnswerWhen = (operation, test, change) =>
  onAnswer([operation], (answer, request) => {
    const body = objectBody(request)
    return body !== undefined && test(body) ? withJsonAnswer(answer, change) : answer
  })

/**
 * Before an update is forwarded, reads the object as it is by an update that sends only its id
 * (the one read every update operation offers), and keeps that answer's body on the request.
 */
const readBefore = (operation) => async (request, context) => {
  const body = objectBody(request)
  if (request.operation !== operation || typeof body?.id !== "string") return request
  const read = await context.forward({ ...request, body: jsonBody({ id: body.id }) })
  return read.status === 200 ? { ...request, before: readJson(read.body) } : request
}

const timeKeys = ["created_at", "updated_at"]

const likePattern = (term) =>
  new RegExp(
    term
      .split("")
      .map((c) => (c === "%" ? ".*" : c === "_" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join(""),
    "is"
  )

/** The second batch: name, the kind of bug, the must it breaks, and its transform of the front. */
export const second = [
  // Page walks: boundaries, directions and the request a cursor carries.
  {
    name: "page-boundary-item-repeated",
    kind: "walk-boundary",
    must: must(
      decisionsMd,
      "3. Lists, paging",
      "walking every page once yields every item exactly once, when nothing is created meanwhile."
    ),
    fault: frontPaged(["ListNativeUsers"], {
      start: (index, limit) => (limit > 1 ? index : index + 1)
    })
  },
  {
    name: "page-boundary-item-skipped",
    kind: "walk-boundary",
    must: must(
      decisionsMd,
      "3. Lists, paging",
      "walking every page once yields every item exactly once, when nothing is created meanwhile."
    ),
    fault: frontPaged(["ListIntegrationsMDM"], { start: (index) => index + 2 })
  },
  {
    name: "desc-walk-later-pages-ascending",
    kind: "walk-direction",
    must: must(
      decisionsMd,
      "3. Lists, order",
      "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`."
    ),
    fault: frontPaged(["ListSatellites"], {
      applies: (body) => body.order === "desc",
      source: (body, page) => (page > 1 ? without(body, "order") : body)
    })
  },
  {
    name: "filter-lost-on-later-pages",
    kind: "cursor-binding",
    must: must(
      interfaceMd,
      "Endpoints, List request fields",
      "filter | object | ListSatellites and ListIntegrationsMDM only; comparison operators: ..."
    ),
    fault: frontPaged(["ListIntegrationsMDM"], {
      applies: (body) => body.filter != null,
      source: (body, page) => (page > 1 ? without(body, "filter") : body)
    })
  },
  {
    name: "monitors-ordered-by-updated-at",
    kind: "order-key",
    must: must(
      decisionsMd,
      "3. Lists, order",
      "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`."
    ),
    fault: frontPaged(["ListScenarioMonitors"], {
      arrange: (items, body) => {
        const sign = body.order === "desc" ? -1 : 1
        return [...items].sort(
          (a, b) =>
            sign *
            (Date.parse(a.updatedAt ?? 0) - Date.parse(b.updatedAt ?? 0) ||
              (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        )
      }
    })
  },
  {
    name: "log-queries-desc-ignored",
    kind: "order-direction",
    must: must(
      decisionsMd,
      "3. Lists, order",
      "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`."
    ),
    fault: onRequest(["ListLogQueries"], (request) =>
      withJson(request, (body) => {
        if (body.order === "desc") delete body.order
      })
    )
  },
  {
    name: "unknown-cursor-restarts",
    kind: "cursor-validation",
    must: must(
      decisionsMd,
      "3. Lists, cursor",
      "Opaque string; pass back `listMetadata.nextCursor`. An unknown cursor is invalid_argument."
    ),
    fault: {
      request: (request, context) =>
        request.operation === "ListPolicyStageConfigurations"
          ? withJson(request, (body) => {
              if (isSet(body.cursor) && !stateMap(context, "issued").has(body.cursor))
                delete body.cursor
            })
          : request,
      response: (answer, request, context) => {
        if (request.operation === "ListPolicyStageConfigurations" && answer.status === 200) {
          const cursor = readJson(answer.body)?.listMetadata?.nextCursor
          if (isSet(cursor)) stateMap(context, "issued").set(cursor, true)
        }
        return answer
      }
    }
  },
  {
    name: "after-before-swapped-desc",
    kind: "metadata-direction",
    must: must(
      decisionsMd,
      "3. Lists, listMetadata.after / before",
      "The id of the last / first item in this page (empty when the page is empty)."
    ),
    fault: onAnswerWhen(
      "ListNativeUsers",
      (body) => body.order === "desc",
      (page) => {
        const metadata = page.listMetadata
        if (isSet(metadata?.after) && isSet(metadata?.before)) {
          page.listMetadata = { ...metadata, after: metadata.before, before: metadata.after }
        }
      }
    )
  },
  // Search and filter: the fields searched, the meaning of an operator, a key or a value.
  {
    name: "search-like-wildcards",
    kind: "search-pattern",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: frontPaged(["ListSatellites"], {
      applies: (body) => typeof body.search === "string" && /[%_]/.test(body.search),
      source: (body) => without(body, "search", "searchFields", "search_fields"),
      arrange: (items, body) => {
        const pattern = likePattern(body.search)
        const fields = searchFieldsOf(body)
        return items.filter((item) =>
          fields.some((field) => pattern.test(String(item[field] ?? "")))
        )
      }
    })
  },
  {
    name: "search-fields-id-searches-name",
    kind: "search-fields",
    must: must(
      decisionsMd,
      "3. Lists, search",
      "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
    ),
    fault: onRequest(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        for (const key of ["searchFields", "search_fields"]) {
          const fields = body[key]
          if (Array.isArray(fields) && fields.length === 1 && fields[0] === "id")
            body[key] = ["name"]
        }
      })
    )
  },
  {
    name: "filter-not-equals-excludes-empty",
    kind: "filter-null",
    must: must(
      interfaceMd,
      "Endpoints, List request fields",
      "comparison operators: `equals`, `not_equals`, ..."
    ),
    fault: onRequest(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) =>
          condition.operator === "not_equals"
            ? {
                group: {
                  operator: "and",
                  filters: [filter, { field: { key: condition.key, operator: "not_empty" } }]
                }
              }
            : filter
        )
      })
    )
  },
  {
    name: "filter-nested-or-as-and",
    kind: "filter-group",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      'group: `{"group": {"operator": "and" | "or", "filters": [<filter>, ...]}}` ... nestable to any depth'
    ),
    fault: onRequest(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapGroups(body.filter, (group, depth) =>
          depth > 0 && group.operator === "or" ? { ...group, operator: "and" } : group
        )
      })
    )
  },
  {
    name: "filter-updated-at-reads-created-at",
    kind: "filter-key",
    must: must(
      decisionsMd,
      "3. Lists, Filter object",
      "`lower_than` / `greater_than` compare strings, or timestamps for `created_at` / `updated_at`."
    ),
    fault: onRequest(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) =>
          condition.key === "updated_at" ? { field: { ...condition, key: "created_at" } } : filter
        )
      })
    )
  },
  {
    name: "filter-time-offset-ignored",
    kind: "filter-value",
    must: must(
      interfaceMd,
      "Common conventions, 5",
      "A parser accepts other offsets; a serializer always writes `Z`."
    ),
    fault: onRequest(["ListIntegrationsMDM"], (request) =>
      withJson(request, (body) => {
        if (body.filter == null) return
        body.filter = mapConditions(body.filter, (condition, filter) => {
          const text = condition.value?.value
          return timeKeys.includes(condition.key) &&
            typeof text === "string" &&
            /[+-]\d{2}:\d{2}$/.test(text)
            ? {
                field: {
                  ...condition,
                  value: { ...condition.value, value: text.replace(/[+-]\d{2}:\d{2}$/, "Z") }
                }
              }
            : filter
        })
      })
    )
  },
  // Values of answers: nested types, precision, enum spellings, variants.
  {
    name: "nested-space-times-epoch-millis",
    kind: "nested-type",
    must: must(
      interfaceMd,
      "Common conventions, 5",
      "A timestamp is a JSON string in RFC 3339 format, always UTC with the suffix `Z`."
    ),
    fault: onAnswer(["GetResource"], (answer) =>
      withJsonAnswer(answer, (body) => {
        const space = body.resource?.space
        if (space === undefined) return
        for (const key of ["createdAt", "updatedAt"]) {
          if (typeof space[key] === "string") space[key] = Date.parse(space[key])
        }
      })
    )
  },
  {
    name: "timestamp-seven-fraction-digits",
    kind: "precision",
    must: must(
      decisionsMd,
      "1. Wire rules, Timestamps",
      "Writers emit 0, 3, 6 or 9 fractional digits."
    ),
    fault: onAnswer(["GetEncryptionKeysByKeyId"], (answer) =>
      withJsonAnswer(answer, (body) =>
        mapTimestamps(body, (t) =>
          t.replace(/(?:\.(\d+))?Z$/, (_, digits = "") => `.${`${digits}0000000`.slice(0, 7)}Z`)
        )
      )
    )
  },
  {
    name: "runtime-enum-misspelled",
    kind: "enum-spelling",
    must: must(
      interfaceMd,
      "Resources, PolicyDataLoader",
      "workerRuntime | string enum | `python3.11`, `nodejs18.x`"
    ),
    fault: onAnswer(["CreatePolicyDataLoader"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (body.policyDataLoader?.workerRuntime === "nodejs18.x")
          body.policyDataLoader.workerRuntime = "nodejs18"
      })
    )
  },
  {
    name: "dns-status-enum-renamed",
    kind: "enum-spelling",
    must: must(
      interfaceMd,
      "Resources, ConnectorHostname",
      "dnsRecordStatus | string enum | `none`, `pending`, `success`, `failed`"
    ),
    fault: onAnswer(["UpdateConnectorHostname"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (body.connectorHostname?.dnsRecordStatus === "success")
          body.connectorHostname.dnsRecordStatus = "succeeded"
      })
    )
  },
  {
    name: "password-groups-as-ids",
    kind: "nested-shape",
    must: must(interfaceMd, "Resources, HumanUserPassword", "groups | array of Group objects"),
    fault: onAnswer(["CreateHumanUserPassword"], (answer) =>
      withJsonAnswer(answer, (body) => {
        if (Array.isArray(body.groups)) body.groups = body.groups.map((group) => group?.id ?? "")
      })
    )
  },
  {
    name: "password-empty-for-username-variant",
    kind: "variant",
    must: must(interfaceMd, "Resources, HumanUserPassword", "password | string | min length 1"),
    fault: onAnswerWhen(
      "CreateHumanUserPassword",
      (body) => isSet(body.username) && !isSet(body.email) && !isSet(body.id),
      (page) => {
        if (typeof page.password === "string") page.password = ""
      }
    )
  },
  {
    name: "identity-link-group-omitted",
    kind: "variant",
    must: must(
      decisionsMd,
      "6. Request fields, CreateNativeUserIdentityLink",
      "The response of CreateNativeUserIdentityLink names the linked identity: `group` when `identityType` is `group`"
    ),
    fault: onAnswerWhen(
      "CreateNativeUserIdentityLink",
      (body) => (body.identityType ?? body.identity_type) === "group",
      (page) => {
        if (page.link !== undefined) delete page.link.group
      }
    )
  },
  // Protocol, deadlines and error paths.
  {
    name: "protocol-version-any-accepted",
    kind: "header-value",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "`Connect-Protocol-Version` missing or not `1` on CreatePermission | invalid_argument"
    ),
    fault: onRequest(["CreatePermission"], (request) => {
      const version = request.headers["connect-protocol-version"]
      return version !== undefined && version !== "1"
        ? { ...request, headers: { ...request.headers, "connect-protocol-version": "1" } }
        : request
    })
  },
  {
    name: "timeout-read-as-microseconds",
    kind: "deadline-unit",
    must: must(
      interfaceMd,
      "Limits",
      "optional header `Connect-Timeout-Ms` (number, milliseconds) | call timeout, documented on CreatePermission"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["CreatePermission"], (request) =>
        /^\d{4,10}$/.test(String(request.headers["connect-timeout-ms"] ?? ""))
          ? { answer: connectError("deadline_exceeded", "the call's deadline passed") }
          : request
      )
    }
  },
  {
    name: "deadline-overrun-answered",
    kind: "deadline-ignored",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "The deadline from `Connect-Timeout-Ms` passed | deadline_exceeded"
    ),
    fault: {
      inHandler: true,
      request: async (request) => {
        const timeout = String(request.headers["connect-timeout-ms"] ?? "")
        if (!/^\d{1,4}$/.test(timeout) || Number(timeout) > 2000) return request
        await sleep(Number(timeout) + 250)
        const headers = { ...request.headers }
        delete headers["connect-timeout-ms"]
        return { ...request, headers }
      }
    }
  },
  {
    name: "unknown-route-not-found-code",
    kind: "route-code",
    must: must(
      decisionsMd,
      "1. Wire rules, Unknown service or method",
      "`404` with Connect code `unimplemented`."
    ),
    fault: {
      response: (answer) =>
        answer.status === 404 && codeOf(answer) === "unimplemented"
          ? connectError("not_found", "no such route")
          : answer
    }
  },
  {
    name: "wrong-method-as-unknown-route",
    kind: "method-routing",
    must: must(
      decisionsMd,
      "1. Wire rules, Wrong HTTP method",
      "`405`, with an `Allow: POST` header."
    ),
    fault: {
      request: (request) =>
        request.operation !== undefined && !["POST", "GET"].includes(request.method)
          ? { answer: connectError("unimplemented", "no such route") }
          : request
    }
  },
  {
    name: "identity-link-unknown-reference-internal",
    kind: "error-code-path",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
    ),
    fault: onAnswer(["CreateNativeUserIdentityLink"], (answer) =>
      codeOf(answer) === "not_found"
        ? connectError("internal", "insert failed: foreign key constraint")
        : answer
    )
  },
  {
    name: "validation-message-object",
    kind: "error-body",
    must: must(
      decisionsMd,
      "2. Errors",
      'Every non-200 response carries a Connect error body: `{"code": "<code>", "message": "<text>", ...}`'
    ),
    fault: onAnswer(["CreatePolicyDataLoader"], (answer) => {
      const body = codeOf(answer) === "invalid_argument" ? readJson(answer.body) : undefined
      return body === undefined
        ? answer
        : { ...answer, body: jsonBody({ ...body, message: { reason: body.message ?? "" } }) }
    })
  },
  {
    name: "body-limit-decimal-megabyte",
    kind: "size-limit",
    must: must(
      decisionsMd,
      "10. Latitude, Body size limit",
      "be any size of at least 1 MiB; above it, resource_exhausted."
    ),
    fault: {
      request: (request) =>
        request.operation !== undefined && request.body.length > 1_000_000
          ? { answer: connectError("resource_exhausted", "request body over 1 MB") }
          : request
    }
  },
  // Inputs: coercions and enum and name rules.
  {
    name: "limit-fraction-truncated",
    kind: "coercion",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "A field breaks a rule of the interface (... wrong JSON type) | invalid_argument"
    ),
    fault: onRequest(["ListSatellites"], (request) =>
      withJson(request, (body) => {
        if (typeof body.limit === "number" && !Number.isInteger(body.limit))
          body.limit = Math.trunc(body.limit)
      })
    )
  },
  {
    name: "bool-string-coerced",
    kind: "coercion",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "A field breaks a rule of the interface (... wrong JSON type) | invalid_argument"
    ),
    fault: onRequest(["UpdateSatellite"], (request) =>
      withJson(request, (body) => {
        for (const key of ["terminationProtection", "termination_protection"]) {
          if (body[key] === "true" || body[key] === "false") body[key] = body[key] === "true"
        }
      })
    )
  },
  {
    name: "identity-type-unknown-as-user",
    kind: "enum-input",
    must: must(
      decisionsMd,
      "2. Errors, Which condition gives which code",
      "A field breaks a rule of the interface (min length, enum value, ...) | invalid_argument"
    ),
    fault: onRequest(["CreateNativeUserIdentityLink"], (request) =>
      withJson(request, (body) => {
        for (const key of ["identityType", "identity_type"]) {
          const value = body[key]
          if (
            typeof value === "string" &&
            value !== "" &&
            !["user", "group", "resource_hostname"].includes(value)
          )
            body[key] = "user"
        }
      })
    )
  },
  {
    name: "connector-name-leading-digit-refused",
    kind: "name-charset",
    must: must(
      decisionsMd,
      "6. Request fields, ConnectorService/CreateConnector",
      "`name` (3 to 63 characters, `^[0-9a-z-]+$`)"
    ),
    fault: {
      inHandler: true,
      ...onRequest(["CreateConnector"], (request) =>
        /^[0-9]/.test(String(objectBody(request)?.name ?? ""))
          ? { answer: connectError("invalid_argument", "name: must start with a letter") }
          : request
      )
    }
  },
  // State: what a later request sees of an earlier one.
  {
    name: "mdm-created-not-listed",
    kind: "stale-list",
    must: must(
      decisionsMd,
      "3. Lists, paging",
      "walking every page once yields every item exactly once, when nothing is created meanwhile."
    ),
    fault: {
      response: (answer, request, context) => {
        const created = stateMap(context, "created")
        if (request.operation === "CreateIntegrationMDM" && answer.status === 200) {
          const id = readJson(answer.body)?.integration?.id
          if (typeof id === "string") created.set(id, true)
          return answer
        }
        return request.operation === "ListIntegrationsMDM" && created.size > 0
          ? withJsonAnswer(answer, (page) => keepItems(page, (item) => !created.has(item.id)))
          : answer
      }
    }
  },
  {
    name: "hostname-updated-at-frozen",
    kind: "stale-timestamp",
    must: must(
      decisionsMd,
      "4. Updates",
      "An update returns the whole object and moves `updatedAt` forward."
    ),
    fault: onAnswer(["UpdateConnectorHostname"], (answer, _request, context) =>
      withJsonAnswer(answer, (body) => {
        const hostname = body.connectorHostname
        if (typeof hostname?.id !== "string" || typeof hostname.updatedAt !== "string") return
        const first = stateMap(context, "updatedAt")
        if (first.has(hostname.id)) hostname.updatedAt = first.get(hostname.id)
        else first.set(hostname.id, hostname.updatedAt)
      })
    )
  },
  {
    name: "listener-link-update-returns-old",
    kind: "read-before-write",
    must: must(
      decisionsMd,
      "4. Updates",
      "Update requests change only the fields present in the request ... An update returns the whole object"
    ),
    fault: {
      inHandler: true,
      request: readBefore("UpdateConnectorListenerLink"),
      response: (answer, request) =>
        request.before !== undefined && answer.status === 200
          ? { ...answer, body: jsonBody(request.before) }
          : answer
    }
  },
  {
    name: "satellite-space-stale-after-move",
    kind: "stale-nested",
    must: must(
      interfaceMd,
      "Endpoints",
      "Create and update responses return the complete object wrapped under the key shown in the table."
    ),
    fault: {
      inHandler: true,
      request: async (request, context) => {
        const body = objectBody(request)
        return isSet(body?.spaceId ?? body?.space_id)
          ? readBefore("UpdateSatellite")(request, context)
          : request
      },
      response: (answer, request) => {
        const old = request.before?.satellite
        if (old?.space === undefined) return answer
        return withJsonAnswer(answer, (body) => {
          if (body.satellite !== undefined && body.satellite.spaceId !== old.spaceId)
            body.satellite.space = old.space
        })
      }
    }
  }
]
