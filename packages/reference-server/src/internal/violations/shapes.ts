/**
 * The request shapes the violations read: the JSON types, required fields, enums and min lengths of
 * a request, read once per operation from its schema (the encoded side, refinements kept).
 *
 * @internal
 */
import * as SchemaAST from "effect/SchemaAST"
import type { Body, Op } from "../pipeline-types.js"
import { isObject } from "./bodies.js"

export type Shape =
  | {
      readonly _tag: "string"
      readonly minLength: number
      readonly literals: ReadonlyArray<string> | undefined
    }
  | { readonly _tag: "number"; readonly int: boolean }
  | { readonly _tag: "boolean" }
  | { readonly _tag: "object"; readonly fields: Fields }
  | { readonly _tag: "array"; readonly item: Shape }
  | { readonly _tag: "other" }

export type Fields = ReadonlyMap<string, { readonly required: boolean; readonly shape: Shape }>

const OTHER: Shape = { _tag: "other" }

const shapeOf = (ast: SchemaAST.AST): Shape => {
  switch (ast._tag) {
    case "StringKeyword":
      return { _tag: "string", minLength: 0, literals: undefined }
    case "NumberKeyword":
      return { _tag: "number", int: false }
    case "BooleanKeyword":
      return { _tag: "boolean" }
    case "Literal":
      return typeof ast.literal === "string"
        ? { _tag: "string", minLength: 0, literals: [ast.literal] }
        : OTHER
    case "Refinement": {
      const from = shapeOf(ast.from)
      const json = ast.annotations[SchemaAST.JSONSchemaAnnotationId] as
        { readonly minLength?: unknown; readonly type?: unknown } | undefined
      if (from._tag === "string" && typeof json?.minLength === "number")
        return { ...from, minLength: Math.max(from.minLength, json.minLength) }
      if (from._tag === "number" && json?.type === "integer") return { _tag: "number", int: true }
      return from
    }
    case "Union": {
      // `null` and `undefined` members are how optional request fields are written.
      const members = ast.types.filter(
        (t) => !(t._tag === "Literal" && t.literal === null) && t._tag !== "UndefinedKeyword"
      )
      const literals = members.flatMap((t) =>
        t._tag === "Literal" && typeof t.literal === "string" ? [t.literal] : []
      )
      if (members.length > 1 && literals.length === members.length)
        return { _tag: "string", minLength: 0, literals }
      return members.length === 1 ? shapeOf(members[0]!) : OTHER
    }
    case "TypeLiteral":
      return {
        _tag: "object",
        fields: new Map(
          ast.propertySignatures.map((p) => [
            String(p.name),
            { required: !p.isOptional, shape: shapeOf(p.type) }
          ])
        )
      }
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1
        ? { _tag: "array", item: shapeOf(ast.rest[0]!.type) }
        : OTHER
    default:
      return OTHER
  }
}

const fieldsCache = new Map<Op, Fields>()

/** The top-level fields of an operation's request. */
export const fieldsOf = (op: Op): Fields => {
  let fields = fieldsCache.get(op)
  if (fields === undefined) {
    const shape = shapeOf(SchemaAST.encodedBoundAST(op.request.ast))
    fields = shape._tag === "object" ? shape.fields : new Map()
    fieldsCache.set(op, fields)
  }
  return fields
}

export const hasType = (shape: Shape, value: unknown): boolean => {
  switch (shape._tag) {
    case "string":
      return typeof value === "string"
    case "number":
      return typeof value === "number"
    case "boolean":
      return typeof value === "boolean"
    case "object":
      return isObject(value)
    case "array":
      return Array.isArray(value)
    case "other":
      return true
  }
}

/** Applies `f` to every field of `body` the shape knows, and to the fields of its nested objects. */
export const eachField = (
  fields: Fields,
  body: Body,
  f: (body: Body, key: string, field: { readonly required: boolean; readonly shape: Shape }) => void
): void => {
  for (const [key, field] of fields) {
    f(body, key, field)
    const value = body[key]
    if (field.shape._tag === "object" && isObject(value)) eachField(field.shape.fields, value, f)
  }
}
