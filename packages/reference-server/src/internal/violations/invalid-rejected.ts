/**
 * The violations of the `invalid-rejected` check: the records whose rule `ContractRules` gives to
 * that check, and the helpers only they use.
 *
 * @internal
 */
import { Operations, Requests, SchemaWalk } from "@data-access/schema"
import * as Effect from "effect/Effect"
import { decodeCursor } from "../cursor.js"
import type { Body, Op, Relax, RouteHook } from "../pipeline-types.js"
import { STAND_IN } from "../jsonBodies.js"
import {
  type Shape,
  type Fields,
  fieldsOf,
  hasType,
  eachField,
  valueShape
} from "../requestShapes.js"
import { relaxing } from "../violationHooks.js"
import {
  filterKeysOf,
  acceptUnknownKeys,
  acceptEmptyGroups,
  conditionOverGroup,
  foreignKeysAsEmpty
} from "../filterRewrites.js"
import { violation } from "../violationRecord.js"

/** ignored-json-type: a field of the wrong JSON type is taken as not set when optional; a fractional int is truncated. */
const ignoreJsonTypes = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { required, shape }) => {
    const value = b[key]
    if (value === undefined || value === null) return
    if (!hasType(shape, value)) {
      if (!required) delete b[key]
    } else if (
      shape._tag === "Number" &&
      shape.int &&
      typeof value === "number" &&
      !Number.isInteger(value)
    ) {
      b[key] = Math.trunc(value)
    } else if (shape._tag === "Array" && Array.isArray(value)) {
      b[key] = value.filter((x) => hasType(shape.item, x))
    }
  })

/** ignored-required (and the bodies read as `{}`): a missing required field takes a stand-in. */
const fillRequired = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { required, shape }) => {
    if (!required || (b[key] !== undefined && b[key] !== null)) return
    switch (shape._tag) {
      case "String":
        b[key] = "missing"
        return
      case "Number":
        b[key] = 100
        return
      case "Boolean":
        b[key] = false
        return
      case "Object":
        b[key] = {}
        return
      case "Array":
        b[key] = []
        return
      default:
        return
    }
  })

/** ignored-enum: a string outside an enum is taken as the enum's first value. */
const ignoreEnums = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { shape }) => {
    const value = b[key]
    const fix = (item: Shape, x: unknown) => {
      const s = valueShape(item)
      return s._tag === "String" &&
        s.literals !== undefined &&
        typeof x === "string" &&
        !s.literals.includes(x)
        ? s.literals[0]
        : x
    }
    if (shape._tag === "Array" && Array.isArray(value))
      b[key] = value.map((x) => fix(shape.item, x))
    else b[key] = fix(shape, value)
    if (b[key] === undefined) delete b[key]
  })

/** ignored-min-length: a string under its min length is padded with `x`. */
const padMinLengths = (fields: Fields, body: Body): void =>
  eachField(fields, body, (b, key, { shape }) => {
    const value = b[key]
    if (
      shape._tag === "String" &&
      shape.minLength > 0 &&
      typeof value === "string" &&
      value.length < shape.minLength
    ) {
      b[key] = value + "x".repeat(shape.minLength - value.length)
    }
  })

/**
 * ignored-one-of with none of email, username and id set: the request stands for the first user
 * (printable, so that a latitude switch that rejects control characters lets it through).
 */
const FIRST_USER = "~first-user~"

/** A stand-in body takes its required fields as ignored-required takes them. */
const standInFilled: RouteHook<Relax> = (next, op) => (body, ex) => {
  if (ex.sent !== STAND_IN) return next(body, ex)
  const filled: Body = {}
  fillRequired(fieldsOf(op), filled)
  return next(filled, ex)
}

/** The request fields that are a connector name (`Requests.ConnectorName`: shapes are read once per schema node, so such a field has its very shape). */
const connectorNameFields = (op: Op): ReadonlyArray<string> => {
  const connectorName = SchemaWalk.shapeOf(Requests.ConnectorName.ast)
  return [...fieldsOf(op).values()].filter((f) => f.shape === connectorName).map((f) => f.name)
}

const listOps = (Operations.all as ReadonlyArray<Op>).filter((o) => o.kind === "list")

/** The literals of a list's `searchFields` entries (none when it has no `searchFields`). */
const searchFieldsOf = (op: Op): ReadonlyArray<string> => {
  const field = fieldsOf(op).get("searchFields")
  const shape = field === undefined ? undefined : valueShape(field.shape)
  const item = shape?._tag === "Array" ? valueShape(shape.item) : undefined
  return item?._tag === "String" ? (item.literals ?? []) : []
}

/** shared-search-fields: the `searchFields` entries another list allows and this one does not. */
const foreignSearchFields = (op: Op): ReadonlySet<string> => {
  const own = new Set(searchFieldsOf(op))
  return new Set(
    listOps
      .filter((o) => o !== op)
      .flatMap(searchFieldsOf)
      .filter((f) => !own.has(f))
  )
}

/** shared-filter-keys: the filter keys another list allows and this one does not. */
const foreignFilterKeys = (op: Op): ReadonlySet<string> => {
  const own = filterKeysOf(op)
  return new Set(
    listOps
      .filter((o) => o !== op)
      .flatMap((o) => [...filterKeysOf(o)])
      .filter((k) => !own.has(k))
  )
}

export const ignoredMinLength = violation({
  name: "ignored-min-length",
  rule: "fields.min-length",
  description:
    "Strings under their min length (1; 9 for `workerSchedule`) are accepted, padded with `x`.",
  hooks: { relax: relaxing((body, op) => padMinLengths(fieldsOf(op), body)) }
})

export const ignoredLimitRange = violation({
  name: "ignored-limit-range",
  rule: "lists.limit-range",
  description: "List `limit` outside 1 to 500 (or absent) is clamped instead of rejected.",
  hooks: {
    relax: relaxing(
      (body) => {
        const limit = body.limit
        body.limit =
          typeof limit === "number" && Number.isFinite(limit)
            ? Math.min(500, Math.max(1, Math.trunc(limit)))
            : 100
      },
      (op) => op.kind === "list"
    )
  }
})

export const ignoredEnum = violation({
  name: "ignored-enum",
  rule: "fields.enum",
  description:
    "A request enum value outside its list (`status`, `workerRuntime`, `deletionPolicy`, `identityType`, `order`, `searchFields` entries) is taken as the first listed value.",
  hooks: { relax: relaxing((body, op) => ignoreEnums(fieldsOf(op), body)) }
})

export const ignoredJsonType = violation({
  name: "ignored-json-type",
  rule: "fields.json-type",
  description:
    "An optional request field of the wrong JSON type is taken as not set, and a fractional `limit` is truncated.",
  hooks: { relax: relaxing((body, op) => ignoreJsonTypes(fieldsOf(op), body)) }
})

export const listEntryTypeDropped = violation({
  name: "list-entry-type-dropped",
  rule: "fields.json-type",
  description:
    "An entry of the wrong JSON type in a request list (`searchFields: [12345]`) is dropped; the rest of the request is served.",
  hooks: {
    relax: relaxing((body, op) =>
      eachField(fieldsOf(op), body, (b, key, { shape }) => {
        const value = b[key]
        if (shape._tag === "Array" && Array.isArray(value))
          b[key] = value.filter((x) => hasType(shape.item, x))
      })
    )
  }
})

export const booleanStringsCoerced = violation({
  name: "boolean-strings-coerced",
  rule: "fields.json-type",
  description:
    'A boolean request field spelled as the string `"true"` or `"false"` is read as that boolean (the official codec refuses it).',
  hooks: {
    relax: relaxing((body, op) =>
      eachField(fieldsOf(op), body, (b, key, { shape }) => {
        const value = b[key]
        if (shape._tag === "Boolean" && (value === "true" || value === "false"))
          b[key] = value === "true"
      })
    )
  }
})

export const ignoredRequired = violation({
  name: "ignored-required",
  rule: "fields.required",
  description:
    'A missing or `null` required string field is taken as `"missing"` (a required object as `{}`, a missing `limit` as 100).',
  hooks: { relax: relaxing((body, op) => fillRequired(fieldsOf(op), body)) }
})

export const ignoredOneOf = violation({
  name: "ignored-one-of",
  rule: "fields.one-of",
  description:
    "CreateHumanUserPassword with two or none of `email`, `username`, `id` uses the first one set (none: the first user).",
  hooks: {
    relax: (next, op, fields) => {
      const oneOf = op.oneOf
      if (oneOf === undefined) return next
      return relaxing((body) => {
        const set = oneOf.filter((k) => body[k] !== undefined && body[k] !== null)
        if (set.length === 0) body[oneOf[oneOf.length - 1]!] = FIRST_USER
        for (const k of set.slice(1)) delete body[k]
      })(next, op, fields)
    },
    handler: (next, op) => {
      const oneOf = op.oneOf
      if (oneOf === undefined) return next
      // The stand-in goes in the last of the fields (CreateHumanUserPassword's `id`).
      const last = oneOf[oneOf.length - 1]!
      return (request, ctx) =>
        request[last] !== FIRST_USER
          ? next(request, ctx)
          : Effect.flatMap(ctx.store.all("users"), (users) =>
              users[0] === undefined ? next(request, ctx) : next({ [last]: users[0][last] }, ctx)
            )
    }
  }
})

export const ignoredConnectorNamePattern = violation({
  name: "ignored-connector-name-pattern",
  rule: "fields.connector-name",
  description: "CreateConnector accepts any non-empty `name`.",
  hooks: {
    // A stand-in takes the name's place for decoding; the request then gets the name sent.
    relax: (next, op, fields) => {
      const names = connectorNameFields(op)
      if (names.length === 0) return next
      return relaxing((body) => {
        for (const k of names)
          if (typeof body[k] === "string" && body[k] !== "") body[k] = "connector"
      })(next, op, fields)
    },
    prepare: (next, op) => {
      const names = connectorNameFields(op)
      if (names.length === 0) return next
      return (request, ex) => {
        const named: Record<string, unknown> = { ...request }
        for (const k of names)
          if (typeof ex.sent[k] === "string" && ex.sent[k] !== "") named[k] = ex.sent[k]
        return next(named, ex)
      }
    }
  }
})

export const emptyBodyAccepted = violation({
  name: "empty-body-accepted",
  rule: "wire.empty-body",
  description:
    "A zero-length body is read as `{}`, its required fields taken as `ignored-required` takes them.",
  hooks: {
    parse: (next) => (bytes) => (bytes.length === 0 ? STAND_IN : next(bytes)),
    relax: standInFilled
  }
})

export const nonObjectBodyAccepted = violation({
  name: "non-object-body-accepted",
  rule: "wire.json-object-body",
  description:
    "A body that is malformed JSON, an array or a string is read as `{}`, its required fields taken as `ignored-required` takes them.",
  hooks: {
    parse: (next) => (bytes) => {
      const parsed = next(bytes)
      return typeof parsed === "string" && bytes.length > 0 ? STAND_IN : parsed
    },
    relax: standInFilled
  }
})

export const unknownCursorAccepted = violation({
  name: "unknown-cursor-accepted",
  rule: "lists.unknown-cursor",
  description: "A cursor the server never gave starts at the first page.",
  hooks: {
    relax: relaxing((body) => {
      if (
        typeof body.cursor === "string" &&
        body.cursor !== "" &&
        decodeCursor(body.cursor) === undefined
      )
        delete body.cursor
    })
  }
})

export const unknownFilterKeyAccepted = violation({
  name: "unknown-filter-key-accepted",
  rule: "filter.unknown-key",
  description: "A filter condition with an unknown key or operator matches every item.",
  hooks: {
    relax: relaxing((body, op) => {
      if (body.filter !== undefined) body.filter = acceptUnknownKeys(body.filter, filterKeysOf(op))
    })
  }
})

export const emptyGroupAccepted = violation({
  name: "empty-group-accepted",
  rule: "filter.group-not-empty",
  description: "A filter group with no filters matches every item.",
  hooks: {
    relax: relaxing((body) => {
      if (body.filter !== undefined) body.filter = acceptEmptyGroups(body.filter)
    })
  }
})

export const ignoredFilterOneOf = violation({
  name: "ignored-filter-one-of",
  rule: "filter.one-of",
  description:
    "A filter with both a condition (`field`) and a group, at any depth, is read as its condition.",
  hooks: {
    relax: relaxing((body) => {
      if (body.filter !== undefined) body.filter = conditionOverGroup(body.filter)
    })
  }
})

export const sharedSearchFields = violation({
  name: "shared-search-fields",
  rule: "fields.enum",
  description:
    "Every List with `searchFields` accepts the entries any List allows (one enum for all): ListSatellites takes `type`, which it reads as a field no satellite has.",
  hooks: {
    relax: relaxing(
      (body, op) => {
        const foreign = foreignSearchFields(op)
        if (Array.isArray(body.searchFields))
          body.searchFields = body.searchFields.filter((f) => !foreign.has(f as string))
      },
      (op) => foreignSearchFields(op).size > 0
    )
  }
})

export const sharedFilterKeys = violation({
  name: "shared-filter-keys",
  rule: "filter.unknown-key",
  description:
    'Every filtered List accepts the filter keys of any List (one key list for all): ListIntegrationsMDM takes `satellite_type`, `space_id`... and reads them as `""` on every item.',
  hooks: {
    relax: relaxing(
      (body, op) => {
        if (body.filter !== undefined)
          body.filter = foreignKeysAsEmpty(body.filter, foreignFilterKeys(op))
      },
      (op) => foreignFilterKeys(op).size > 0
    )
  }
})

export const minLengthInBytes = violation({
  name: "min-length-in-bytes",
  rule: "fields.min-length",
  description:
    "A string's min length (9 for `workerSchedule`) is counted in UTF-8 bytes: 8 characters of 3 bytes each are accepted (padded with `x`).",
  hooks: {
    relax: relaxing((body, op) =>
      eachField(fieldsOf(op), body, (b, key, { shape }) => {
        const value = b[key]
        if (
          shape._tag === "String" &&
          typeof value === "string" &&
          value.length < shape.minLength &&
          new TextEncoder().encode(value).length >= shape.minLength
        )
          b[key] = value + "x".repeat(shape.minLength - value.length)
      })
    )
  }
})
