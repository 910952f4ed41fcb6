/**
 * The violations of the `valid-accepted` check: the records whose rule `ContractRules` gives to
 * that check, and the helpers only they use.
 *
 * @internal
 */
import * as ConnectError from "../connectError.js"
import type { Body } from "../pipeline-types.js"
import { isObject, lenientText, STAND_IN } from "../jsonBodies.js"
import { type Fields, fieldsOf, valueShape } from "../requestShapes.js"
import { refusing, writesFields } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

const snakeToCamel = (key: string) =>
  key.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())

/** rejects-snake-case: the first field named in snake_case, as sent (before the names are normalised). */
const snakeCaseField = (fields: Fields, raw: Body): string | undefined => {
  for (const [key, value] of Object.entries(raw)) {
    const field = fields.get(snakeToCamel(key))
    if (field === undefined) continue
    if (key.includes("_")) return key
    const shape = valueShape(field.shape)
    if (shape._tag === "Object" && isObject(value)) {
      const inner = snakeCaseField(shape.fields, value)
      if (inner !== undefined) return `${key}.${inner}`
    }
  }
  return undefined
}

/** rejects-null: the path of the first `null` field, at any depth. */
const nullField = (value: unknown, path: string): string | undefined => {
  if (Array.isArray(value)) {
    for (const [i, x] of value.entries()) {
      const found = nullField(x, `${path}[${i}]`)
      if (found !== undefined) return found
    }
  } else if (isObject(value)) {
    for (const [k, x] of Object.entries(value)) {
      const p = path === "" ? k : `${path}.${k}`
      if (x === null) return p
      const found = nullField(x, p)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** zero-value-refused: the zero values of proto3 JSON (`""`, `false`, `0`, `[]`). */
const isZeroValue = (v: unknown): boolean =>
  v === "" || v === false || v === 0 || (Array.isArray(v) && v.length === 0)

export const rejectsUnknownField = violation({
  name: "rejects-unknown-field",
  rule: "wire.unknown-fields-ignored",
  description: "A request with a field the operation does not know gets invalid_argument.",
  hooks: {
    relax: refusing((body, _, fields) => {
      const unknown = Object.keys(body).find((k) => !fields.has(k))
      return unknown === undefined
        ? undefined
        : ConnectError.make("invalid_argument", `${unknown}: unknown field`)
    })
  }
})

export const rejectsSnakeCase = violation({
  name: "rejects-snake-case",
  rule: "wire.snake-case",
  description:
    "A request that names one of its fields in snake_case (`resource_id`) gets invalid_argument.",
  hooks: {
    parse: (next, op) => {
      const fields = fieldsOf(op)
      return (bytes) => {
        const parsed = next(bytes)
        if (
          typeof parsed === "string" ||
          parsed instanceof ConnectError.ConnectError ||
          parsed === STAND_IN
        )
          return parsed
        // The names as sent: the faithful parser has already turned them into lowerCamelCase.
        const raw: unknown = JSON.parse(lenientText.decode(bytes))
        const snake = isObject(raw) ? snakeCaseField(fields, raw) : undefined
        return snake === undefined
          ? parsed
          : ConnectError.make(
              "invalid_argument",
              `${snake}: unknown field name; use lowerCamelCase`
            )
      }
    }
  }
})

export const rejectsNull = violation({
  name: "rejects-null",
  rule: "wire.null-is-unset",
  description: "A request with `null` for a field gets invalid_argument.",
  hooks: {
    relax: refusing((body) => {
      const path = nullField(body, "")
      return path === undefined
        ? undefined
        : ConnectError.make("invalid_argument", `${path}: null is not a value`)
    })
  }
})

export const requiresOptionalField = violation({
  name: "requires-optional-field",
  rule: "fields.valid-accepted",
  description: "A create or update that leaves out an optional field gets invalid_argument.",
  hooks: {
    relax: refusing(
      (body, op) => {
        const missing = [...fieldsOf(op)].find(
          ([k, f]) => !f.required && valueShape(f.shape)._tag === "Boolean" && body[k] === undefined
        )
        return missing === undefined
          ? undefined
          : ConnectError.make("invalid_argument", `${missing[0]}: required`)
      },
      (op) => op.kind === "create"
    )
  }
})

export const limitOffByOne = violation({
  name: "limit-off-by-one",
  rule: "lists.limit-accepted",
  description: "`limit: 500` gets invalid_argument.",
  hooks: {
    relax: refusing(
      (body) =>
        body.limit === 500
          ? ConnectError.make("invalid_argument", "limit must be from 1 to 499")
          : undefined,
      (op) => op.kind === "list"
    )
  }
})

export const jsonEscapesLiteral = violation({
  name: "json-escapes-literal",
  rule: "wire.json-spellings",
  description:
    "The body's JSON is read with `\\uXXXX` escapes kept as the six characters written: an escaped name or value is another name or value.",
  hooks: {
    parse: (next) => (bytes) =>
      next(
        new TextEncoder().encode(
          new TextDecoder().decode(bytes).replace(/\\u([0-9a-fA-F]{4})/g, "\\\\u$1")
        )
      )
  }
})

/**
 * json-escapes-nested-literal: JSON text with the `\uXXXX` and `\/` escapes of the strings inside
 * nested objects and arrays (depth 2 and more) turned into escaped backslashes, so that a parser
 * reads them as the characters written.
 */
const nestedEscapesLiteral = (text: string): string => {
  let out = ""
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inString) {
      if (c === "\\") {
        const next = text[i + 1] ?? ""
        out += depth >= 2 && (next === "u" || next === "/") ? `\\\\${next}` : `${c}${next}`
        i++
        continue
      }
      if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === "{" || c === "[") depth++
    else if (c === "}" || c === "]") depth--
    out += c
  }
  return out
}

export const jsonEscapesNestedLiteral = violation({
  name: "json-escapes-nested-literal",
  rule: "wire.json-spellings",
  description:
    "Inside nested objects (a vendor object, a filter), the body's JSON is read with `\\uXXXX` and `\\/` escapes kept as the characters written: an escaped name or value there is another name or value. At the top level escapes are decoded.",
  hooks: {
    parse: (next) => (bytes) =>
      next(new TextEncoder().encode(nestedEscapesLiteral(new TextDecoder().decode(bytes))))
  }
})

export const zeroValueRefused = violation({
  name: "zero-value-refused",
  rule: "wire.zero-is-unset",
  description:
    'A request (but an update) that sends an optional field as its zero value (`""`, `false`, `0`, `[]`) gets invalid_argument, where the field left out is accepted.',
  hooks: {
    relax: (next, op) =>
      op.kind === "update"
        ? next
        : (body, ex) => {
            const zero = [...fieldsOf(op)].find(([k, f]) => !f.required && isZeroValue(body[k]))
            return zero === undefined
              ? next(body, ex)
              : ConnectError.make("invalid_argument", `${zero[0]} must not be empty`)
          }
  }
})

export const nestedNullRefused = violation({
  name: "nested-null-refused",
  rule: "wire.null-is-unset",
  description:
    "A request with `null` for a field of a nested object (`mdmVendorA.apiUrl`, a filter condition's `value`) gets invalid_argument; `null` at the top level is read as not set.",
  hooks: {
    relax: refusing((body) => {
      for (const [k, v] of Object.entries(body)) {
        const path = v === null ? undefined : nullField(v, k)
        if (path !== undefined)
          return ConnectError.make("invalid_argument", `${path}: null is not a value`)
      }
      return undefined
    })
  }
})

export const limitOneRefused = violation({
  name: "limit-one-refused",
  rule: "lists.limit-accepted",
  description: "`limit: 1` gets invalid_argument (the range read as 2 to 500).",
  hooks: {
    relax: refusing(
      (body) =>
        body.limit === 1
          ? ConnectError.make("invalid_argument", "limit must be from 2 to 500")
          : undefined,
      (op) => op.kind === "list"
    )
  }
})

export const shortParentIdRefused = violation({
  name: "short-parent-id-refused",
  rule: "fields.valid-accepted",
  description:
    "A List's required parent id of one character (ListNativeUsers' `resourceId`: `x`, `😀`) gets invalid_argument (its min length read as 2).",
  hooks: {
    relax: (next, op, fields) => {
      const field = op.parent?.required === true ? op.parent.field : undefined
      if (field === undefined) return next
      return refusing((body) =>
        typeof body[field] === "string" && Array.from(body[field]).length === 1
          ? ConnectError.make("invalid_argument", `${field} must be at least 2 characters`)
          : undefined
      )(next, op, fields)
    }
  }
})

export const leadingDigitNameRefused = violation({
  name: "leading-digit-name-refused",
  rule: "fields.valid-accepted",
  description:
    "A create or update whose `name` starts with a digit gets invalid_argument (a pattern read as starting with a letter, where `^[0-9a-z-]+$` allows a digit first).",
  hooks: {
    relax: refusing(
      (body) =>
        typeof body.name === "string" && /^[0-9]/.test(body.name)
          ? ConnectError.make("invalid_argument", "name must start with a letter")
          : undefined,
      writesFields
    )
  }
})

export const name255Refused = violation({
  name: "name-255-refused",
  rule: "fields.valid-accepted",
  description:
    "A create or update whose `name` is 255 characters long or more gets invalid_argument (the limit read as under 255, where decisions.md section 10 lets a server refuse only longer names).",
  hooks: {
    relax: refusing(
      (body) =>
        typeof body.name === "string" && body.name.length >= 255
          ? ConnectError.make("invalid_argument", "name must be under 255 characters")
          : undefined,
      writesFields
    )
  }
})
