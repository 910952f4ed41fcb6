/**
 * The request shapes the violations read: an operation's request fields as `SchemaWalk` reads
 * them once per operation, each value's shape without its `null` and `undefined` members (how
 * optional request fields are written).
 *
 * @internal
 */
import { SchemaWalk } from "@data-access/schema"
import type { Body, Op } from "./pipeline-types.js"
import { isObject } from "./jsonBodies.js"

export type Shape = SchemaWalk.Shape

export type Fields = ReadonlyMap<string, SchemaWalk.Field>

/** What a field or an array item holds when it is set: its shape without `null` and `undefined`. */
export const valueShape = (shape: Shape): Shape => SchemaWalk.nonNullish(shape)

/** The top-level fields of an operation's request. */
export const fieldsOf = (op: Op): Fields => SchemaWalk.requestFields(op)

/** Whether `value` has the JSON type of the shape (anything for a shape of no single JSON type). */
export const hasType = (shape: Shape, value: unknown): boolean => {
  switch (valueShape(shape)._tag) {
    case "String":
      return typeof value === "string"
    case "Number":
      return typeof value === "number"
    case "Boolean":
      return typeof value === "boolean"
    case "Object":
      return isObject(value)
    case "Array":
      return Array.isArray(value)
    default:
      return true
  }
}

/**
 * Applies `f` to every field of `body` the shape knows (with its value's shape), and to the fields
 * of its nested objects.
 */
export const eachField = (
  fields: Fields,
  body: Body,
  f: (body: Body, key: string, field: { readonly required: boolean; readonly shape: Shape }) => void
): void => {
  for (const [key, field] of fields) {
    const shape = valueShape(field.shape)
    f(body, key, { required: field.required, shape })
    const value = body[key]
    if (shape._tag === "Object" && isObject(value)) eachField(shape.fields, value, f)
  }
}
