// What the faults of the catalogue are made of: the must a fault names, and small transforms of a
// front's requests and answers (JSON bodies, timestamps, List pages, filter trees).
import { jsonBody, readJson } from "./front.mjs"

export const interfaceMd = "interface.md"
export const decisionsMd = "decisions.md"

/** The must a fault breaks: the document, its section and the sentence quoted. */
export const must = (document, section, quote) => ({ document, section, quote })

/**
 * The request with its JSON body changed by `change` (which may edit the object in place); the
 * same bytes when `change` changes nothing.
 */
export const withJson = (request, change) => {
  const body = readJson(request.body)
  if (body === null || typeof body !== "object" || Array.isArray(body)) return request
  const before = JSON.stringify(body)
  const changed = change(body) ?? body
  return JSON.stringify(changed) === before ? request : { ...request, body: jsonBody(changed) }
}

/**
 * The answer with its JSON body changed by `change`, when it is a 200 with a JSON object body;
 * the same bytes when `change` changes nothing.
 */
export const withJsonAnswer = (answer, change) => {
  if (answer.status !== 200) return answer
  const body = readJson(answer.body)
  if (body === null || typeof body !== "object") return answer
  const before = JSON.stringify(body)
  const changed = change(body) ?? body
  return JSON.stringify(changed) === before ? answer : { ...answer, body: jsonBody(changed) }
}

/** The Connect code of an error answer, or undefined. */
export const codeOf = (answer) => (answer.status === 200 ? undefined : readJson(answer.body)?.code)

/** A fault that changes requests of the given operations only. */
export const onRequest = (operations, change) => ({
  request: (request, context) =>
    operations.includes(request.operation) ? change(request, context) : request
})

/** A fault that changes answers of the given operations only. */
export const onAnswer = (operations, change) => ({
  response: (answer, request, context) =>
    operations.includes(request.operation) ? change(answer, request, context) : answer
})

export const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/** Every timestamp string inside `value`, changed by `change`. */
export const mapTimestamps = (value, change, keys) => {
  if (Array.isArray(value)) return value.map((item) => mapTimestamps(item, change, keys))
  if (value === null || typeof value !== "object") return value
  const out = {}
  for (const [key, field] of Object.entries(value)) {
    out[key] =
      typeof field === "string" &&
      timestampPattern.test(field) &&
      (keys === undefined || keys.includes(key))
        ? change(field)
        : mapTimestamps(field, change, keys)
  }
  return out
}

/** The item array of a List answer (the one array at the top of its body). */
export const itemsKey = (body) => Object.keys(body).find((key) => Array.isArray(body[key]))

/** A List answer's body with its items kept by `keep`, its count, after and before said again. */
export const keepItems = (body, keep) => {
  const key = itemsKey(body)
  if (key === undefined) return body
  const items = body[key].filter(keep)
  const metadata = { ...body.listMetadata }
  metadata.count = items.length
  metadata.after = items.at(-1)?.id ?? ""
  metadata.before = items[0]?.id ?? ""
  return { ...body, [key]: items, listMetadata: metadata }
}

/** Every condition of a filter tree, changed by `change` (which returns a filter). */
export const mapConditions = (filter, change) => {
  if (filter === null || typeof filter !== "object") return filter
  if (filter.field !== undefined && filter.field !== null) return change(filter.field, filter)
  if (filter.group !== undefined && filter.group !== null && Array.isArray(filter.group.filters)) {
    return {
      ...filter,
      group: { ...filter.group, filters: filter.group.filters.map((f) => mapConditions(f, change)) }
    }
  }
  return filter
}

/** Whether a filter tree has a condition that `test` holds for. */
export const someCondition = (filter, test) => {
  if (filter === null || typeof filter !== "object") return false
  if (filter.field !== undefined && filter.field !== null) return test(filter.field)
  return (
    Array.isArray(filter.group?.filters) && filter.group.filters.some((f) => someCondition(f, test))
  )
}

export const asciiLower = (text) => text.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** The text a List's `search` looks in, per the searched field of an item. */
export const searchedTexts = (item, fields, types) =>
  fields.map((field) => (field === "type" ? (types ?? "") : String(item[field] ?? "")))

export const searchFieldsOf = (body) =>
  Array.isArray(body.searchFields) && body.searchFields.length > 0 ? body.searchFields : ["name"]

export const apiKeyOf = (request) => {
  const value = request.headers["x-api-key"]
  return Array.isArray(value) ? value[0] : value
}
