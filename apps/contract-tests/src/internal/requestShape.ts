/**
 * Facts about a request's shape that generation and the oracles both read: the enums a request
 * always sends, its plain form, and whether it has unknown fields, snake_case names or `null`s.
 */
import * as Schema from "effect/Schema"
import { type Operations, ProtoJson, SchemaWalk } from "@data-access/schema"
import { snakeToCamel } from "./json.js"
import { requestPropertyNames } from "./pools.js"

type Op = Operations.Operation
type Body = Record<string, unknown>

/** The lowerCamelCase form of a request, as a server reads it. */
export const normalizeKeys = (b: unknown): unknown => ProtoJson.normalizeKeys(b)

/** The string literals of an optional enum field with no empty value (`status`, `identityType`...). */
const enumLiterals = (shape: SchemaWalk.Shape): ReadonlyArray<string> | undefined => {
  const s = SchemaWalk.nonNullish(shape)
  return s._tag === "String" && s.literals !== undefined && !s.literals.includes("")
    ? s.literals
    : undefined
}

/**
 * Request enums with no empty value: a faithful server may reject them when absent or apply a
 * default (decisions.md section 10), so requests expected to be accepted always send them.
 */
export const alwaysSentEnums = (op: Op): ReadonlyMap<string, ReadonlyArray<string>> => {
  const out = new Map<string, ReadonlyArray<string>>()
  for (const [name, field] of SchemaWalk.requestFields(op)) {
    const values = field.required ? undefined : enumLiterals(field.shape)
    if (values !== undefined) out.set(name, values)
  }
  return out
}

const isObject = (v: unknown): v is Body => v !== null && typeof v === "object" && !Array.isArray(v)

/** The fields of an object (in its encoded form, names in either spelling) the schema knows, at every depth; what it cannot place is kept. */
const knownFields = (shape: SchemaWalk.Shape, v: unknown): unknown => {
  if (!isObject(v)) return v
  switch (shape._tag) {
    case "Object": {
      if (shape.values !== undefined) return v
      const fields = shape.fields
      return Object.fromEntries(
        Object.entries(v).flatMap(([k, x]) => {
          const field = fields.get(k) ?? fields.get(snakeToCamel(k))
          return field === undefined ? [] : [[k, knownFields(field.shape, x)]]
        })
      )
    }
    case "Union": {
      // The member that knows the most of the object's names (a one-of: `field` or `group`).
      const names = new Set(Object.keys(v).map(snakeToCamel))
      const shared = (m: SchemaWalk.Shape) =>
        m._tag === "Object" ? [...m.fields.keys()].filter((k) => names.has(k)).length : -1
      const best = [...shape.members].sort((a, b) => shared(b) - shared(a))[0]
      return best === undefined || shared(best) < 0 ? v : knownFields(best, v)
    }
    case "Lazy":
      return knownFields(shape.get(), v)
    default:
      return v
  }
}

/** The same request in its plain form: lowerCamelCase names, no unknown field at any depth, no `null`. */
export const plainForm = (op: Op, body: Body): Body => {
  const props = new Set(requestPropertyNames(op))
  const normalized = (normalizeKeys(body) ?? {}) as Body
  const top = Object.fromEntries(
    Object.entries(normalized).filter(([k, v]) => props.has(k) && v !== null && v !== undefined)
  )
  return knownFields(SchemaWalk.requestShape(op), top) as Body
}

/** Whether two bodies are the same JSON. */
export const sameBody = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The request without the fields the operation does not know, at any depth, spelled as it was. */
export const withoutUnknownFields = (op: Op, body: Body): Body =>
  knownFields(SchemaWalk.requestShape(op), body) as Body

/** Whether a body has a field the operation does not know (in either spelling), at any depth. */
export const hasUnknownFields = (op: Op, body: Body): boolean => {
  const props = new Set(requestPropertyNames(op))
  const normalized = (normalizeKeys(body) ?? {}) as Body
  if (Object.keys(normalized).some((k) => !props.has(k))) return true
  return !sameBody(knownFields(SchemaWalk.requestShape(op), normalized), normalized)
}

/** Whether a body spells a field name in snake_case, at any depth. */
export const hasSnakeCase = (body: Body): boolean => {
  const go = (v: unknown, depth: number): boolean =>
    depth <= 16 &&
    v !== null &&
    typeof v === "object" &&
    (Array.isArray(v)
      ? v.some((x) => go(x, depth + 1))
      : Object.entries(v).some(([k, x]) => k.includes("_") || go(x, depth + 1)))
  return go(body, 0)
}

/** Whether a body sends `null` for a field (at the top level). */
export const hasNulls = (body: Body): boolean => Object.values(body).some((v) => v === null)

/** Whether a property of an object schema holds booleans. */
export const booleanProperties = (schema: Schema.Schema.Any): ReadonlySet<string> => {
  const out = new Set<string>()
  const holdsBoolean = (s: SchemaWalk.Shape): boolean =>
    s._tag === "Boolean" || (s._tag === "Union" && s.members.some(holdsBoolean))
  const shape = SchemaWalk.shapeOf(schema.ast)
  if (shape._tag === "Object")
    for (const [name, field] of shape.fields) if (holdsBoolean(field.shape)) out.add(name)
  return out
}
