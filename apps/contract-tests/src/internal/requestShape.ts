/**
 * Facts about a request's shape that generation and the oracles both read: the enums a request
 * always sends, its plain form, and whether it has unknown fields, snake_case names or `null`s.
 */
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { type Operations, ProtoJson } from "@data-access/schema"
import { snakeToCamel } from "./json.js"
import { requestPropertyNames } from "./pools.js"
import { encodedAst, encodedOf } from "./schemas.js"

type Op = Operations.Operation
type Body = Record<string, unknown>

/** The lowerCamelCase form of a request, as a server reads it. */
export const normalizeKeys = (b: unknown): unknown => ProtoJson.normalizeKeys(b)

/** The string literals of an optional enum field with no empty value (`status`, `identityType`...). */
const enumLiterals = (ast: AST.AST): ReadonlyArray<string> | undefined => {
  const flatten = (a: AST.AST): ReadonlyArray<AST.AST> =>
    a._tag === "Union" ? a.types.flatMap(flatten) : [a]
  const members = flatten(ast)
  const literals = members.filter(
    (m) => !(m._tag === "Literal" && m.literal === null) && m._tag !== "UndefinedKeyword"
  )
  if (
    literals.length === 0 ||
    !literals.every((m) => m._tag === "Literal" && typeof m.literal === "string")
  )
    return undefined
  const values = literals.map((m) => (m as AST.Literal).literal as string)
  return values.includes("") ? undefined : values
}

/**
 * Request enums with no empty value: a faithful server may reject them when absent or apply a
 * default (decisions.md section 10), so requests expected to be accepted always send them.
 */
export const alwaysSentEnums = (op: Op): ReadonlyMap<string, ReadonlyArray<string>> => {
  const ast = encodedOf(op.request)
  const tl = ast._tag === "Refinement" ? ast.from : ast
  const out = new Map<string, ReadonlyArray<string>>()
  if (tl._tag !== "TypeLiteral") return out
  for (const p of tl.propertySignatures) {
    const values = p.isOptional ? enumLiterals(p.type) : undefined
    if (values !== undefined) out.set(String(p.name), values)
  }
  return out
}

const isObject = (v: unknown): v is Body => v !== null && typeof v === "object" && !Array.isArray(v)

/** The fields of an object (in its encoded form, names in either spelling) the schema knows, at every depth; what it cannot place is kept. */
const knownFields = (ast: AST.AST, v: unknown): unknown => {
  if (!isObject(v)) return v
  switch (ast._tag) {
    case "TypeLiteral": {
      if (ast.indexSignatures.length > 0) return v
      const types = new Map(ast.propertySignatures.map((p) => [String(p.name), p.type]))
      return Object.fromEntries(
        Object.entries(v).flatMap(([k, x]) => {
          const type = types.get(k) ?? types.get(snakeToCamel(k))
          return type === undefined ? [] : [[k, knownFields(type, x)]]
        })
      )
    }
    case "Union": {
      // The member that knows the most of the object's names (a one-of: `field` or `group`).
      const names = new Set(Object.keys(v).map(snakeToCamel))
      const shared = (t: AST.AST) =>
        t._tag === "TypeLiteral"
          ? t.propertySignatures.filter((p) => names.has(String(p.name))).length
          : -1
      const best = [...ast.types].sort((a, b) => shared(b) - shared(a))[0]
      return best === undefined || shared(best) < 0 ? v : knownFields(best, v)
    }
    case "Refinement":
      return knownFields(ast.from, v)
    case "Transformation":
      return knownFields(ast.from, v)
    case "Suspend":
      return knownFields(ast.f(), v)
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
  return knownFields(encodedOf(op.request), top) as Body
}

/** Whether two bodies are the same JSON. */
export const sameBody = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b)

/** The request without the fields the operation does not know, at any depth, spelled as it was. */
export const withoutUnknownFields = (op: Op, body: Body): Body =>
  knownFields(encodedOf(op.request), body) as Body

/** Whether a body has a field the operation does not know (in either spelling), at any depth. */
export const hasUnknownFields = (op: Op, body: Body): boolean => {
  const props = new Set(requestPropertyNames(op))
  const normalized = (normalizeKeys(body) ?? {}) as Body
  if (Object.keys(normalized).some((k) => !props.has(k))) return true
  return !sameBody(knownFields(encodedOf(op.request), normalized), normalized)
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
  const holdsBoolean = (a: AST.AST): boolean =>
    a._tag === "BooleanKeyword" ||
    (a._tag === "Union" && a.types.some(holdsBoolean)) ||
    (a._tag === "Refinement" && holdsBoolean(a.from))
  const ast = encodedAst(schema.ast)
  const tl = ast._tag === "Refinement" ? ast.from : ast
  if (tl._tag === "TypeLiteral")
    for (const p of tl.propertySignatures) if (holdsBoolean(p.type)) out.add(String(p.name))
  return out
}
