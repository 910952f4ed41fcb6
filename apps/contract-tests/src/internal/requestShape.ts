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

type ObjectShape = Extract<SchemaWalk.Shape, { readonly _tag: "Object" }>

/** Whether a shape holds some value other than `null` (not a one-of's other member, which only `null` or absence fills: `Never`). */
const holdsValue = (shape: SchemaWalk.Shape): boolean =>
  shape._tag === "Union"
    ? shape.members.some(holdsValue)
    : shape._tag !== "Undefined" &&
      shape.ast._tag !== "NeverKeyword" &&
      !(shape._tag === "Literal" && shape.value === null)

/**
 * The object schema (not a map) that reads an object value: its own, through lazies, or the member
 * of a union that knows the most of its names (a one-of: `field` or `group`); with `deep`, members
 * of unions inside the union too (an optional one-of: the one-of or `null`).
 */
const objectShapeOf = (
  shape: SchemaWalk.Shape,
  v: Body,
  deep: boolean
): ObjectShape | undefined => {
  switch (shape._tag) {
    case "Object":
      return shape.values === undefined ? shape : undefined
    case "Union": {
      const names = new Set(Object.keys(v).map(snakeToCamel))
      const members = deep
        ? shape.members.flatMap((m) => {
            const o = m._tag === "Union" || m._tag === "Lazy" ? objectShapeOf(m, v, deep) : m
            return o === undefined ? [] : [o]
          })
        : shape.members
      // Deep, only names whose field holds a value count: `group` is no name of the `field` member.
      const shared = (m: SchemaWalk.Shape) =>
        m._tag === "Object"
          ? [...m.fields.values()].filter(
              (f) => names.has(f.name) && (!deep || holdsValue(f.shape))
            ).length
          : -1
      const best = [...members].sort((a, b) => shared(b) - shared(a))[0]
      return best === undefined || shared(best) < 0 ? undefined : objectShapeOf(best, v, deep)
    }
    case "Lazy":
      return objectShapeOf(shape.get(), v, deep)
    default:
      return undefined
  }
}

/** The fields of an object (in its encoded form, names in either spelling) the schema knows, at every depth; what it cannot place is kept. */
const knownFields = (shape: SchemaWalk.Shape, v: unknown): unknown => {
  if (!isObject(v)) return v
  const object = objectShapeOf(shape, v, false)
  if (object === undefined) return v
  return Object.fromEntries(
    Object.entries(v).flatMap(([k, x]) => {
      const field = object.fields.get(k) ?? object.fields.get(snakeToCamel(k))
      return field === undefined ? [] : [[k, knownFields(field.shape, x)]]
    })
  )
}

/**
 * The object values below the top level of a request, each with its schema and path: the nested
 * objects of a request (a vendor object, a filter's condition), through arrays.
 */
export const nestedObjects = (
  op: Op,
  body: Body
): ReadonlyArray<{
  readonly path: ReadonlyArray<string | number>
  readonly value: Body
  readonly shape: ObjectShape
}> => {
  const out: Array<{
    readonly path: ReadonlyArray<string | number>
    readonly value: Body
    readonly shape: ObjectShape
  }> = []
  const go = (shape: SchemaWalk.Shape, v: unknown, path: ReadonlyArray<string | number>) => {
    if (Array.isArray(v)) {
      const s = SchemaWalk.nonNullish(shape)
      const item = s._tag === "Array" ? s.item : s._tag === "Lazy" ? s.get() : undefined
      if (item !== undefined) v.forEach((x, i) => go(item, x, [...path, i]))
      return
    }
    if (!isObject(v)) return
    const object = objectShapeOf(shape, v, true)
    if (object === undefined) return
    if (path.length > 0) out.push({ path, value: v, shape: object })
    for (const [k, x] of Object.entries(v)) {
      const field = object.fields.get(k) ?? object.fields.get(snakeToCamel(k))
      if (field !== undefined) go(field.shape, x, [...path, k])
    }
  }
  go(SchemaWalk.requestShape(op), body, [])
  return out
}

/**
 * The optional fields the nested objects of a request leave out, each with its object and path (not
 * a one-of's other member: proto3 JSON refuses `null` beside the member set).
 */
export const absentNestedFields = (
  op: Op,
  body: Body
): ReadonlyArray<{
  readonly object: Body
  readonly path: ReadonlyArray<string | number>
  readonly name: string
}> =>
  nestedObjects(op, body).flatMap(({ path, shape, value }) =>
    [...shape.fields.values()]
      .filter((f) => !f.required && !(f.name in value) && holdsValue(f.shape))
      .map((f) => ({ object: value, path, name: f.name }))
  )

/** The same request with `null` ("not set") for the optional fields its nested objects leave out, at every depth. */
export const withNestedNulls = (op: Op, body: Body): Body => {
  const nulls = new Map<Body, Array<string>>()
  for (const { name, object } of absentNestedFields(op, body))
    nulls.set(object, [...(nulls.get(object) ?? []), name])
  if (nulls.size === 0) return body
  const copy = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(copy)
      : isObject(v)
        ? {
            ...Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)])),
            ...Object.fromEntries((nulls.get(v) ?? []).map((k) => [k, null]))
          }
        : v
  return copy(body) as Body
}

/** A value without its `null` fields, at every depth. */
const withoutNulls = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(withoutNulls)
    : isObject(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([, x]) => x !== null)
            .map(([k, x]) => [k, withoutNulls(x)])
        )
      : v

/** The same request in its plain form: lowerCamelCase names, no unknown field and no `null` at any depth. */
export const plainForm = (op: Op, body: Body): Body => {
  const props = new Set(requestPropertyNames(op))
  const normalized = (normalizeKeys(body) ?? {}) as Body
  const top = Object.fromEntries(
    Object.entries(normalized).filter(([k, v]) => props.has(k) && v !== null && v !== undefined)
  )
  return withoutNulls(knownFields(SchemaWalk.requestShape(op), top)) as Body
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

/** Whether a body sends `null` for a field, at any depth. */
export const hasNulls = (body: Body): boolean => {
  const go = (v: unknown, depth: number): boolean =>
    depth <= 16 &&
    v !== null &&
    typeof v === "object" &&
    Object.values(v).some((x) => x === null || go(x, depth + 1))
  return go(body, 0)
}

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
