/**
 * Generated requests: valid ones from `Arbitrary.make(op.request)` with references to existing
 * objects, names carrying the run prefix and sometimes unknown extra fields; invalid ones from
 * the mutations of a valid one.
 */
import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as fc from "effect/FastCheck"
import { Decode, Filter, type Operations, SchemaWalk, Secrets } from "@data-access/schema"
import * as Mutations from "./mutations.js"
import { OPERATORS } from "./filterReadings.js"
import {
  alwaysSentEnums,
  booleanProperties,
  normalizeKeys,
  withNestedNulls
} from "./requestShape.js"
import {
  identityValues,
  type Pools,
  referenceOf,
  requestPropertyNames,
  valuesOf,
  describeReference
} from "./pools.js"
import * as TextLength from "./textLength.js"
import { numberFields, withNumber } from "./numberEdges.js"
import { CASED_PIECE, MAX_TEXT, UNICODE_PIECES, withUnicode } from "./unicodeText.js"
import { asRecord } from "./json.js"
import { accepts } from "./schemas.js"

type Op = Operations.Operation

export {
  absentNestedFields,
  alwaysSentEnums,
  hasSnakeCase,
  hasUnknownFields,
  normalizeKeys,
  plainForm,
  sameBody,
  withNestedNulls,
  withoutUnknownFields
} from "./requestShape.js"
export { numberEdges, numberFields } from "./numberEdges.js"
export {
  CASED_PIECE,
  hasCaseBeyondAscii,
  swappedCase,
  UNICODE_PIECES,
  withPiece
} from "./unicodeText.js"

type Body = Record<string, unknown>

/** Generated cases, or why they cannot be made. */
export type Generated<A> =
  | { readonly _tag: "Ok"; readonly arbitrary: fc.Arbitrary<A> }
  | { readonly _tag: "Skip"; readonly reason: string }

/** Unknown field names: never a field of the interface, in either spelling. */
const EXTRA_KEYS = ["ctUnknownField", "ct_unknown_extra", "xCtExtra"] as const

const extras: fc.Arbitrary<Body> = fc.dictionary(
  fc.constantFrom(...EXTRA_KEYS),
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
    fc.dictionary(fc.constantFrom("a", "b"), fc.integer(), { maxKeys: 2 })
  ),
  { maxKeys: 2 }
)

/**
 * Unknown fields at the top of a request and in its nested objects (vendor objects; not the filter,
 * whose values are `Any` messages): proto3 JSON ignores them at every depth.
 */
const withExtra = (body: Body, extra: Body): Body => {
  const out: Body = { ...extra }
  for (const [k, v] of Object.entries(body)) {
    out[k] =
      v !== null && typeof v === "object" && !Array.isArray(v) && k !== "filter"
        ? { ...extra, ...(v as Body) }
        : v
  }
  return out
}

const encodedRequestCache = new WeakMap<Op["request"], fc.Arbitrary<Body>>()

/**
 * Encoded requests straight from the request schema, before any fix-up. Deriving an arbitrary
 * from a schema builds fast-check's pattern machinery (`stringMatching`), which costs more than a
 * whole narrowed run's requests; arbitraries are immutable, so each schema's is built once.
 */
export const encodedRequests = (op: Op): fc.Arbitrary<Body> => {
  let arbitrary = encodedRequestCache.get(op.request)
  if (arbitrary === undefined) {
    // The compiled encoder gives what `Schema.encodeSync` gives, without Effect's interpreted parser.
    const encode = Decode.makeEncoder(op.request)
    arbitrary = Arbitrary.make(op.request).map((a) => Either.getOrThrow(encode(a)) as Body)
    encodedRequestCache.set(op.request, arbitrary)
  }
  return arbitrary
}

/** The 26-character random suffix of a made-up id (built once, like `encodedRequests`). */
export const idSuffix: fc.Arbitrary<string> = fc.stringMatching(/^[0-9a-z]{26}$/)

const requiredFields = (op: Op): ReadonlySet<string> =>
  new Set([...SchemaWalk.requestFields(op).values()].filter((f) => f.required).map((f) => f.name))

/** The run prefix of every name the runner creates: `ct-<runid>-`. */
export const namePrefix = (runId: string): string => `ct-${runId}-`

/**
 * The request with `CASED_PIECE` right after the run prefix of its name (within 255 characters
 * under every count when the name was), where it still decodes; else the request as it is.
 */
export const withCasedName = (op: Op, body: Body, runId: string): Body => {
  const prefix = namePrefix(runId)
  const name = body.name
  if (typeof name !== "string" || !name.startsWith(prefix)) return body
  const longer = `${prefix}${CASED_PIECE}-${name.slice(prefix.length)}`
  const out = {
    ...body,
    name: TextLength.longest(name) > MAX_TEXT ? longer : TextLength.cutTo(longer, MAX_TEXT)
  }
  return accepts(op.request)(out) ? out : body
}

const camelToSnake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The same request with snake_case keys at the top level (servers accept both spellings). */
const toSnake = (body: Body): Body =>
  Object.fromEntries(Object.entries(body).map(([k, v]) => [camelToSnake(k), v]))

/**
 * The same request with `null` ("not set") for every field it leaves out, in its nested objects too
 * when the schema reads them so.
 */
const withNulls = (
  op: Op,
  body: Body,
  props: ReadonlyArray<string>,
  decodes: (b: unknown) => boolean
): Body => {
  const out: Body = { ...body }
  for (const p of props) if (!(p in out)) out[p] = null
  const nested = withNestedNulls(op, out)
  return nested !== out && decodes(normalizeKeys(nested)) ? nested : out
}

const pick = <A>(xs: ReadonlyArray<A>, n: number): A => xs[n % xs.length]!

/** Values of the formats a server may validate (decisions.md section 7), for fields sent with any string. */
const seenFormats: Readonly<Record<string, string>> = {
  apiUrl: "https://mdm.example.com/api",
  decryptorUri: "https://decryptor.example.com/decrypt"
}

/**
 * A generated value made safe under every faithful choice: strings without control characters,
 * at most 255 characters under every count a server may use (`TextLength`), not blank; format fields from the values seen in use; secrets long and
 * distinctive (so that a leak is recognisable).
 */
const tame = (v: unknown, key: string | undefined, n: number): unknown => {
  if (typeof v === "string") {
    if (key !== undefined && Secrets.fieldNames.has(key))
      return v === ""
        ? v
        : `ctsecret${n.toString(36)}${key}${v.replace(/[^A-Za-z0-9]/g, "")}`.slice(0, 64)
    if (key !== undefined && key in seenFormats && v !== "") return seenFormats[key]
    // eslint-disable-next-line no-control-regex
    const clean = TextLength.cutTo(v.replace(/[\u0000-\u001f\u007f]/g, ""), MAX_TEXT)
    return clean !== "" && clean.trim() === "" ? "ct" : clean
  }
  if (Array.isArray(v)) return v.map((x) => tame(x, undefined, n))
  if (v !== null && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tame(x, k, n)]))
  return v
}

const SAMPLE_TIMES = [
  "2025-01-01T00:00:00Z",
  "2024-06-30T12:00:00.5Z",
  "2030-12-31T23:59:59Z"
] as const

/**
 * A filter every faithful server accepts (decisions.md section 10: a server may reject an empty
 * filter, a time key compared with a value that is not a timestamp, string operators on time and
 * boolean keys, order operators on booleans): conditions keep their key and get an operator and a
 * value of the key's kind; empty filters and empty groups go. Undefined when nothing is left.
 */
const acceptedFilter = (
  filter: unknown,
  isBoolean: (key: string) => boolean,
  n: number
): unknown => {
  const f = asRecord(filter)
  if (f === undefined) return undefined
  const group = asRecord(f.group)
  if (group !== undefined) {
    const filters = (Array.isArray(group.filters) ? group.filters : [])
      .map((x) => acceptedFilter(x, isBoolean, n))
      .filter((x) => x !== undefined)
    return filters.length === 0 ? undefined : { group: { ...group, filters } }
  }
  const field = asRecord(f.field)
  if (field === undefined || typeof field.key !== "string" || typeof field.operator !== "string")
    return undefined
  const key = field.key
  const kind = /_at$/.test(key)
    ? "time"
    : isBoolean(key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()))
      ? "boolean"
      : "string"
  const allowed = OPERATORS[kind]
  const operator = (allowed as ReadonlyArray<string>).includes(field.operator)
    ? (field.operator as Filter.Operator)
    : pick(allowed, n)
  if (Filter.valueless.has(operator)) return { field: { key, operator } }
  const sent = asRecord(field.value)?.value
  const value =
    kind === "time"
      ? pick(SAMPLE_TIMES, n)
      : kind === "boolean"
        ? pick(["true", "false"], n)
        : typeof sent === "string"
          ? sent
          : ""
  return { field: { key, operator, value: { "@type": Filter.STRING_VALUE_TYPE, value } } }
}

/** Base64 text of a secret, where the schema wants bytes. */
const asBase64 = (body: Body, decodes: (b: unknown) => boolean): Body => {
  if (decodes(body)) return body
  const out: Body = { ...body }
  for (const [k, v] of Object.entries(body))
    if (Secrets.fieldNames.has(k) && typeof v === "string")
      out[k] = Buffer.from(v).toString("base64")
  return out
}

/**
 * Valid encoded requests of an operation, or the reason they cannot be made (a referenced list is
 * empty).
 */
/**
 * The identity types valid requests use: the object kind a `resource_hostname` names is a server's
 * choice (decisions.md section 10), so links name groups and users.
 */
const IDENTITY_TYPES = ["group", "user"] as const

export const valid = (
  op: Op,
  pools: Pools,
  runId: string,
  options: { readonly unknownFields: boolean }
): Generated<Body> => {
  const props = requestPropertyNames(op)
  const required = requiredFields(op)
  const refs = props.flatMap((p) => {
    const ref = referenceOf(op, p)
    return ref === undefined ? [] : [{ field: p, ref }]
  })
  for (const { field, ref } of refs) {
    if (ref._tag === "User" && pools.users.length === 0)
      return { _tag: "Skip", reason: "no users in the fixtures" }
    if (ref._tag === "Identity") {
      if (IDENTITY_TYPES.every((t) => identityValues(pools, t).length === 0)) {
        return { _tag: "Skip", reason: "no groups or users for identityId" }
      }
    } else if (required.has(field) && valuesOf(pools, ref).length === 0) {
      return {
        _tag: "Skip",
        reason: `no ${describeReference(ref)} in the fixtures or discovered (needed for ${field})`
      }
    }
  }
  // The compiled decoder's verdict alone: a failed decode is common here.
  const decodes = accepts(op.request)
  const prefix = namePrefix(runId)
  const enums = alwaysSentEnums(op)
  const booleans = booleanProperties(op.object)
  const base = encodedRequests(op)
  const numbers = numberFields(op)
  const refFields: ReadonlySet<string> = new Set([...refs.map((r) => r.field), ...enums.keys()])
  const arbitrary = fc
    .record({
      base,
      picks: fc.tuple(fc.nat(), fc.nat(), fc.nat()),
      extra: options.unknownFields
        ? fc.option(extras, { nil: undefined, freq: 3 })
        : fc.constant(undefined),
      // Other spellings of the same request: snake_case keys, `null` for fields not set.
      spelling: options.unknownFields
        ? fc.constantFrom("plain", "plain", "plain", "snake", "nulls")
        : fc.constant("plain"),
      unicode: fc.option(fc.tuple(fc.constantFrom(...UNICODE_PIECES), fc.nat()), {
        nil: undefined,
        freq: 3
      }),
      // A quarter of the numbers sent are at an edge of their field's range, the rest as the schema gives them.
      edges: fc.tuple(
        ...numbers.map((f) =>
          fc.oneof(
            { weight: 3, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constantFrom(...f.edges) }
          )
        )
      )
    })
    .map(({ base, picks, extra, spelling, unicode, edges }) => {
      const edged = numbers.reduce(
        (b, f, i) => (edges[i] === undefined ? b : withNumber(b, f.path, edges[i])),
        tame(base, undefined, picks[2]) as Body
      )
      const tamed = asBase64(edged, decodes)
      const body: Body =
        unicode === undefined
          ? tamed
          : withUnicode(tamed, unicode[0], unicode[1], refFields, decodes)
      for (const [field, values] of enums)
        if (typeof body[field] !== "string") body[field] = pick(values, picks[0])
      if ("filter" in body) {
        const filter = acceptedFilter(body.filter, (k) => booleans.has(k), picks[1])
        if (filter === undefined) delete body.filter
        else body.filter = filter
      }
      for (const { field, ref } of refs) {
        if (ref._tag === "User") {
          if (field in body && body[field] !== undefined)
            body[field] = pick(pools.users, picks[0])[ref.field]
          continue
        }
        if (ref._tag === "Identity") {
          const types = IDENTITY_TYPES.filter((t) => identityValues(pools, t).length > 0)
          const type = types.find((t) => t === body.identityType) ?? pick(types, picks[1])
          body.identityType = type
          body[field] = pick(identityValues(pools, type), picks[2])
          continue
        }
        const values = valuesOf(pools, ref)
        if (values.length === 0) {
          delete body[field]
          continue
        }
        if (!required.has(field) && !(field in body)) continue
        body[field] = pick(values, field === "nativeUserId" ? picks[1] : picks[0])
      }
      // A native user of the chosen resource, when both are referenced and pairs are known.
      if (typeof body.resourceId === "string" && "nativeUserId" in body) {
        const users = pools.nativeUsersByResource.get(body.resourceId)
        if (users !== undefined && users.length > 0) body.nativeUserId = pick(users, picks[1])
        else {
          const withUsers = [...pools.nativeUsersByResource.entries()].filter(
            ([, us]) => us.length > 0
          )
          if (withUsers.length > 0) {
            const [resourceId, us] = pick(withUsers, picks[0])
            body.resourceId = resourceId
            body.nativeUserId = pick(us, picks[1])
          }
        }
      }
      // `linkedDbUserId` may or may not be checked as a reference (the documents do not say): an existing native user's id is right either way.
      if (typeof body.linkedDbUserId === "string" && body.linkedDbUserId !== "") {
        const users = pools.ids.nativeUsers ?? []
        if (users.length > 0) body.linkedDbUserId = pick(users, picks[0])
        else delete body.linkedDbUserId
      }
      if ((op.kind === "create" || op.kind === "update") && typeof body.name === "string") {
        const named = { ...body, name: prefix + body.name }
        const short = { ...body, name: (prefix + body.name).slice(0, 63) }
        body.name = decodes(named) ? named.name : decodes(short) ? short.name : body.name
      }
      const spelled =
        spelling === "snake"
          ? toSnake(body)
          : spelling === "nulls"
            ? withNulls(op, body, props, decodes)
            : body
      return extra === undefined ? spelled : withExtra(spelled, extra)
    })
    .filter((b) => decodes(normalizeKeys(b)))
  return { _tag: "Ok", arbitrary }
}

/** An invalid request: one mutation of a valid one. */
export interface Invalid {
  readonly rule: string
  readonly body: unknown
}

/** Invalid requests: a valid request (without unknown fields) with one rule broken. */
export const invalid = (op: Op, pools: Pools, runId: string): Generated<Invalid> => {
  const v = valid(op, pools, runId, { unknownFields: false })
  if (v._tag === "Skip") {
    // Without existing ids, a placeholder still lets every rule be broken on its own.
    return { _tag: "Ok", arbitrary: mutate(op, encodedRequests(op)) }
  }
  return { _tag: "Ok", arbitrary: mutate(op, v.arbitrary) }
}

const mutate = (op: Op, bodies: fc.Arbitrary<Body>): fc.Arbitrary<Invalid> =>
  bodies
    .map((b) => ({ b, ms: Mutations.derive(op.request, b) }))
    .filter(({ ms }) => ms.length > 0)
    .chain(({ ms }) => fc.constantFrom(...ms))

/** A request whose id names nothing: the valid request with its `id` replaced. */
export const unknownId = (op: Op, pools: Pools, runId: string): Generated<Body> => {
  if (!requestPropertyNames(op).includes("id"))
    return { _tag: "Skip", reason: "the request has no id" }
  const v = valid(op, pools, runId, { unknownFields: false })
  const base = v._tag === "Ok" ? v.arbitrary : encodedRequests(op)
  return {
    _tag: "Ok",
    arbitrary: fc
      .tuple(base, idSuffix)
      .map(([b, suffix]) => ({ ...b, id: `ct-missing-${runId}-${suffix}` }))
  }
}

/** Whether the request schema accepts a body. */
export const isValid = (op: Op, body: unknown): boolean => accepts(op.request)(body)

/**
 * A valid request with every field it can do without left out (each optional field dropped unless
 * the request is no longer valid without it, as a one-of's variant; the enums a server may refuse
 * to default are kept, as every valid request sends them): a create that leaves every field to
 * its zero value at once. `undefined` when `body` is not valid.
 */
export const minimal = (op: Op, body: Body): Body | undefined => {
  if (!isValid(op, body)) return undefined
  const required = requiredFields(op)
  const enums = alwaysSentEnums(op)
  const out: Body = { ...body }
  for (const k of Object.keys(body)) {
    if (required.has(k) || enums.has(k)) continue
    const v = out[k]
    delete out[k]
    if (!isValid(op, out)) out[k] = v
  }
  return out
}
