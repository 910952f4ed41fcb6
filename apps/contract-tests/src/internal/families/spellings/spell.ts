/**
 * The spellings of one valid request that the standards make the same request: JSON escapes,
 * whitespace between every token, the JSON media type with a parameter, optional fields sent as
 * their zero values.
 */
import { ContractRules, SchemaWalk, Secrets } from "@data-access/schema"
import type { Body, Op } from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import * as Gen from "../../generate.js"
import { snakeToCamel } from "../../json.js"
import { sameRequestRules } from "../../oracles/valid-accepted.js"
import { literalsOfProperty } from "../shared/literals.js"
import { MEDIA_TYPE_SPELLINGS } from "../shared/mediaTypes.js"

/** A JSON string literal with its first ASCII letter as a `\u` escape and every `/` as `\/`. */
const escapedString = (s: string): string => {
  let escaped = false
  let out = ""
  for (const c of s) {
    if (!escaped && /^[A-Za-z]$/.test(c)) {
      out += `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
      escaped = true
    } else if (c === "/") out += "\\/"
    else out += JSON.stringify(c).slice(1, -1)
  }
  return `"${out}"`
}

/** JSON text of a value with every name and string escaped (`escapedString`). */
export const escapedJson = (v: unknown): string => {
  if (typeof v === "string") return escapedString(v)
  if (Array.isArray(v)) return `[${v.map(escapedJson).join(",")}]`
  if (v !== null && typeof v === "object") {
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${escapedString(k)}:${escapedJson(x)}`)
      .join(",")}}`
  }
  return JSON.stringify(v)
}

/** The whitespace JSON allows between tokens: space, tab, line feed, carriage return. */
const WS = " \t\r\n"

/** JSON text of a value with whitespace before and after every token. */
export const spacedJson = (v: unknown): string => {
  if (Array.isArray(v)) return `[${WS}${v.map(spacedJson).join(`${WS},${WS}`)}${WS}]`
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined)
    return `{${WS}${entries.map(([k, x]) => `${JSON.stringify(k)}${WS}:${WS}${spacedJson(x)}`).join(`${WS},${WS}`)}${WS}}`
  }
  return JSON.stringify(v)
}

/** The zero value of a field's wire type, when it is a scalar or an array; `undefined` for an enum, an object or a one-of. */
const zeroOfType = (shape: SchemaWalk.Shape): unknown => {
  const s = SchemaWalk.nonNullish(shape)
  if (s !== shape) return zeroOfType(s)
  switch (s._tag) {
    case "String":
      return s.literals === undefined ? "" : undefined
    case "Boolean":
      return false
    case "Number":
      return 0
    case "Array":
      return s.minItems === 0 ? [] : undefined
    default:
      return undefined
  }
}

/**
 * Optional fields whose zero value and absence are one value for every faithful server: not in an
 * update (absent leaves a field as it is, decisions.md section 4), not an enum (a server may default
 * an absent one, section 10), an id (`spaceId: ""` may name no space), a one-of variant (proto3
 * tracks which is set), a secret, a format a server may validate (section 10) or the cursor (proto3
 * `optional` tracks its presence).
 */
export const zeroValueFields = (
  op: Op,
  body: Body
): { readonly absent: Body; readonly zeros: Body } => {
  const none = { absent: body, zeros: {} }
  if (op.kind === "update") return none
  const zeros: Body = {}
  for (const [k, field] of SchemaWalk.requestFields(op)) {
    if (
      field.required ||
      /(^id|Id)$/.test(k) ||
      k === "cursor" ||
      Secrets.fieldNames.has(k) ||
      (op.oneOf ?? []).includes(k) ||
      ContractRules.formatFields.has(k)
    )
      continue
    const zero = zeroOfType(field.shape)
    if (zero !== undefined) zeros[k] = zero
  }
  const absent = Object.fromEntries(Object.entries(body).filter(([k]) => !(k in zeros)))
  return Object.keys(zeros).length > 0 &&
    Gen.isValid(op, absent) &&
    Gen.isValid(op, { ...absent, ...zeros })
    ? { absent, zeros }
    : none
}

export interface Spelling {
  readonly label: string
  readonly rule: ContractRules.RuleId
  /** The request in its plainest spelling. */
  readonly plain: Body
  /** The request's text in this spelling. */
  readonly text: (body: Body) => string
  /** The request's `Content-Type` in this spelling, when not the plainest. */
  readonly contentType?: string
  /** The fields and dimensions it exercises on the valid side, counted in the run's coverage when sent. */
  readonly tags: ReadonlyArray<Dimensions.Tag>
}

/**
 * A List's request with a filter whose condition leaves its optional `value` out (`empty` on
 * `name`, which every faithful server reads alike and which selects no item, where a filter read
 * as empty selects every one), when the request has none: a nested object every List with a filter
 * can send.
 */
const withValuelessFilter = (op: Op, body: Body): Body => {
  if (
    op.kind !== "list" ||
    body.filter !== undefined ||
    !literalsOfProperty(op, "filter", "key").includes("name")
  )
    return body
  // Without `search`, which may select nothing itself.
  const { search: _, ...rest } = body
  return { ...rest, filter: { field: { key: "name", operator: "empty" } } }
}

/**
 * The request with `null` for each optional field its nested objects leave out (`mdmVendorA.apiUrl`,
 * a filter condition's `value`), which proto3 JSON reads as not set at every depth.
 */
const nestedNullSpellings = (op: Op, body: Body): ReadonlyArray<Spelling> => {
  const absent = Gen.absentNestedFields(op, body)
  return absent.length === 0 ||
    !Gen.isValid(op, body) ||
    !Gen.isValid(op, Gen.withNestedNulls(op, body))
    ? []
    : [
        {
          label: `${absent.map((f) => Dimensions.fieldOf([...f.path, f.name])).join(", ")} sent as null`,
          rule: "wire.null-is-unset",
          plain: body,
          text: (b: Body) => JSON.stringify(Gen.withNestedNulls(op, b)),
          tags: absent.flatMap((f) =>
            Dimensions.valid(Dimensions.fieldOf([...f.path, f.name]), "zero-value")
          )
        }
      ]
}

/** The path of every field a body names, nested ones too (each name, and its string value, is escaped). */
const fieldPaths = (v: unknown, path: ReadonlyArray<string | number> = []): Array<string> =>
  Array.isArray(v)
    ? v.flatMap((x, i) => fieldPaths(x, [...path, i]))
    : v !== null && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) => {
          const at = [...path, snakeToCamel(k)]
          return [Dimensions.fieldOf(at), ...fieldPaths(x, at)]
        })
      : []

export const spellingsOf = (op: Op, body: Body): ReadonlyArray<Spelling> => {
  const { absent, zeros } = zeroValueFields(op, body)
  // A List's request with a nested object (a filter condition), for the spellings below the top level.
  const nested = withValuelessFilter(op, body)
  return [
    {
      label: "JSON escapes (\\u0061, \\/)",
      rule: sameRequestRules.escapes,
      plain: nested,
      text: escapedJson,
      tags: [...new Set(["(body)", ...fieldPaths(nested)])].flatMap((f) =>
        Dimensions.valid(f, "escapes")
      )
    },
    {
      label: "whitespace between every token",
      rule: sameRequestRules.whitespace,
      plain: body,
      text: spacedJson,
      tags: Dimensions.valid("(body)", "whitespace")
    },
    ...(Object.keys(zeros).length === 0
      ? []
      : [
          {
            label: `${Object.keys(zeros).join(", ")} sent as zero values`,
            rule: sameRequestRules.zeroValues,
            plain: absent,
            text: (b: Body) => JSON.stringify({ ...b, ...zeros }),
            tags: Object.keys(zeros).flatMap((k) => Dimensions.valid(k, "zero-value"))
          } satisfies Spelling
        ]),
    ...nestedNullSpellings(op, nested),
    // Last, so that a small create allowance still sends the spellings above.
    {
      label: `Content-Type ${MEDIA_TYPE_SPELLINGS[0]}`,
      rule: "protocol.content-type",
      plain: body,
      text: (b: Body) => JSON.stringify(b),
      contentType: MEDIA_TYPE_SPELLINGS[0],
      tags: Dimensions.valid("(body)", "media-type")
    }
  ]
}

/**
 * The spellings whose objects (one for the spelling, one for a plain body not yet sent) fit in
 * `left` creates, each rule's first spelling before the others, so that a small allowance still
 * tells every rule.
 */
export const spellingsWithin = (
  all: ReadonlyArray<Spelling>,
  left: number
): ReadonlyArray<Spelling> => {
  let rest = left
  const plains = new Set<Body>()
  const out: Array<Spelling> = []
  const firsts = all.filter((s, i) => all.findIndex((t) => t.rule === s.rule) === i)
  for (const s of [...firsts, ...all.filter((s) => !firsts.includes(s))]) {
    const cost = plains.has(s.plain) ? 1 : 2
    if (cost > rest) break
    rest -= cost
    plains.add(s.plain)
    out.push(s)
  }
  return out
}
