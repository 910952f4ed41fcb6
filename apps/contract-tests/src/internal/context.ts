/**
 * What every check family shares: the run context, the suite shape, and small helpers over the
 * operation table (objects of a response, property names, the `skipped` suite).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { type Operations, SchemaWalk, Secrets } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import * as Decode from "@data-access/schema/Decode"
import type * as Dimensions from "./dimensions.js"
import type { BudgetExhausted, Exchange, RawRequest, Target } from "./http.js"
import { asRecord } from "./json.js"
import type { Verdict } from "./outcome.js"
import type { Pools } from "./pools.js"
import { accepts } from "./schemas.js"
import * as TextLength from "./textLength.js"

/** An operation of the table, with its schemas widened. */
export type Op = Operations.Operation
export type Body = Record<string, unknown>

/** What every suite needs: the target, the pools, the run's settings. */
export interface Context {
  readonly target: Target
  readonly pools: Pools
  readonly runId: string
  readonly skewMillis: number
  readonly readOnly: boolean
  readonly examples: number
  /** Valid examples of a Create operation (each makes an object). */
  readonly createExamples: number
  /** The run seed. */
  readonly seed: number
  /** The dimensions of each field's inputs sent so far, counted as each input is sent. */
  readonly dimensions: Dimensions.Tally
}

/** Generated cases (fast-check, shrinkable) or a fixed list (replayed by index). */
export type Cases =
  | {
      readonly _tag: "Property"
      readonly arbitrary: fc.Arbitrary<any>
      readonly examples: number
      /** Values run first, within `examples` (the arbitrary's own draws follow). */
      readonly first?: ReadonlyArray<any> | undefined
    }
  | { readonly _tag: "Enumerated"; readonly count: number; readonly at: (i: number) => any }

/** How many cases a suite's cases are: a property's examples, or the enumerated count. */
export const casesOf = (cases: Cases): number =>
  cases._tag === "Property" ? cases.examples : cases.count

/** A family of cases of one operation and the checks they give outcomes for. */
export interface Suite {
  readonly family: string
  /** The operation's method, or `_` for cases of the whole API. */
  readonly method: string
  readonly checks: ReadonlyArray<CheckId>
  /** Whether its requests can create or change objects. */
  readonly writes: boolean
  /**
   * Whether its cases go one after the other because one case may change what another reads
   * (default: `writes`). A suite of refusals of a write operation (invalid input, a wrong key or
   * protocol) judges each answer alone: its cases overlap.
   */
  readonly ordered?: boolean | undefined
  /** Why it does not run (missing prerequisites, read-only mode). */
  readonly skip: string | undefined
  readonly cases: Cases
  readonly run: (a: any) => Effect.Effect<ReadonlyArray<Verdict>, BudgetExhausted>
}

/**
 * A check family: the checks it reports on and how it makes its suites, per operation and for
 * the whole API. The registry of families is `families/index.ts`.
 */
export interface Family {
  readonly name: string
  readonly checks: ReadonlyArray<CheckId>
  readonly suites: (op: Op, ctx: Context) => ReadonlyArray<Suite>
  readonly global?: (ctx: Context) => ReadonlyArray<Suite>
}

/** A value as shown in a finding: JSON, secret fields redacted, long text cut. */
export const show = (v: unknown): string => {
  const text = JSON.stringify(Secrets.redact(v)) ?? "absent"
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}

export const isWrite = (op: Op) => op.kind === "create" || op.kind === "update"

const nonce = { n: 0 }

/**
 * A create's `name` made unique at send time (a server may reject duplicates, decisions.md
 * section 10), kept valid for the request schema; other bodies are sent as they are.
 */
export const uniqueNames = (op: Op, body: unknown): unknown => {
  const b = asRecord(body)
  if (op.kind !== "create" || b === undefined || typeof b.name !== "string" || b.name === "")
    return body
  const suffix = `-${(++nonce.n).toString(36)}`
  const decodes = accepts(op.request)
  if (!decodes(b)) return body
  // Within 255 characters under every count when the name was (a server may refuse longer: string-limits).
  const fits =
    b.name.length > 255 ||
    TextLength.longest(b.name) > 255 ||
    TextLength.longest(b.name + suffix) <= 255
  const first = fits ? b.name + suffix : TextLength.cutTo(b.name, 255 - suffix.length) + suffix
  for (const name of [
    first,
    b.name.slice(0, Math.max(3, b.name.length - suffix.length)) + suffix
  ]) {
    if (decodes({ ...b, name })) return { ...b, name }
  }
  return body
}

/** Sends a request. */
export const send = (ctx: Context, request: RawRequest) => ctx.target.send(request)

const none: Cases = { _tag: "Enumerated", count: 0, at: () => undefined }

export const skipped = (
  family: string,
  method: string,
  checks: ReadonlyArray<CheckId>,
  writes: boolean,
  reason: string
): Suite => ({
  family,
  method,
  checks,
  writes,
  skip: reason,
  cases: none,
  run: () => Effect.succeed([])
})

export const scaled = (ctx: Context, divisor: number, min: number) =>
  Math.max(min, Math.ceil(ctx.examples / divisor))

export const objectOf = (op: Op, json: unknown): unknown => {
  const r = asRecord(json)
  return op.wrapperKey === undefined ? r : r?.[op.wrapperKey]
}

const fullObjects = new WeakMap<
  Schema.Schema.AnyNoContext,
  WeakMap<object, Record<string, unknown> | null>
>()

/**
 * Full forms by schema and JSON text: the same stored object comes back in many answers (every
 * page, search and filter that lists it), each parsed anew, and writing it as text costs a sixth
 * of decoding and encoding it. Bounded by the characters of its keys: emptied when they pass
 * `MAX_FULL_TEXT_CHARS`.
 */
const fullTexts = new Map<string, Record<string, unknown> | null>()
const MAX_FULL_TEXT_CHARS = 4_000_000
let fullTextChars = 0
const schemaIds = new WeakMap<Schema.Schema.AnyNoContext, number>()
let nextSchemaId = 0

/**
 * The text a JSON value is known by, or `undefined` for one that holds a negative zero (which
 * JSON.stringify writes as `0`, though `-0` parses to it).
 */
const textKey = (schema: Schema.Schema.AnyNoContext, raw: object): string | undefined => {
  let id = schemaIds.get(schema)
  if (id === undefined) schemaIds.set(schema, (id = nextSchemaId++))
  return holdsNegativeZero(raw) ? undefined : `${id}\u0000${JSON.stringify(raw)}`
}

/** Whether a JSON value holds a negative zero anywhere (a walk costs less than a replacer in `JSON.stringify`). */
const holdsNegativeZero = (v: unknown): boolean => {
  if (typeof v === "number") return v === 0 && Object.is(v, -0)
  if (v === null || typeof v !== "object") return false
  if (Array.isArray(v)) {
    for (const x of v) if (holdsNegativeZero(x)) return true
    return false
  }
  for (const k in v) if (holdsNegativeZero((v as Record<string, unknown>)[k])) return true
  return false
}

/** A schema's compiled decoder and encoder, made once per schema. */
interface Codec {
  readonly decode: (u: unknown) => Either.Either<unknown, unknown>
  readonly encode: (a: unknown) => Either.Either<unknown, unknown>
}
const codecs = new WeakMap<Schema.Schema.AnyNoContext, Codec>()
const codecOf = (schema: Schema.Schema.AnyNoContext): Codec => {
  let codec = codecs.get(schema)
  if (codec === undefined) {
    codec = {
      decode: Decode.makeDecoder(schema as Schema.Schema<unknown, unknown>),
      encode: Decode.makeEncoder(schema as Schema.Schema<unknown, unknown>)
    }
    codecs.set(schema, codec)
  }
  return codec
}

/**
 * The object with every default filled in (absent zero values read as their zero value). An
 * answer's objects are read by several oracles and rows: each is decoded once per schema (keyed by
 * the parsed object, which nobody changes, and by its JSON text).
 */
export const fullObject = (
  schema: Schema.Schema.AnyNoContext,
  raw: unknown
): Record<string, unknown> | undefined => {
  const compute = () => {
    const codec = codecOf(schema)
    return Either.getOrUndefined(Either.flatMap(codec.decode(raw), codec.encode)) as
      Record<string, unknown> | undefined
  }
  if (raw === null || typeof raw !== "object") return compute()
  let cache = fullObjects.get(schema)
  if (cache === undefined) fullObjects.set(schema, (cache = new WeakMap()))
  const known = cache.get(raw)
  if (known !== undefined) return known ?? undefined
  const key = textKey(schema, raw)
  const byText = key === undefined ? undefined : fullTexts.get(key)
  const full = byText !== undefined ? (byText ?? undefined) : compute()
  cache.set(raw, full ?? null)
  if (key !== undefined && byText === undefined) {
    if (fullTextChars >= MAX_FULL_TEXT_CHARS) {
      fullTexts.clear()
      fullTextChars = 0
    }
    fullTexts.set(key, full ?? null)
    fullTextChars += key.length
  }
  return full
}

/** The object of a 200 answer, every default filled in. */
export const objectIn = (op: Op, e: Exchange): Record<string, unknown> | undefined =>
  Option.getOrUndefined(
    Option.flatMap(e.response, (r) =>
      r.status === 200
        ? Option.map(r.json, (j) => fullObject(op.object, objectOf(op, j)))
        : Option.none()
    )
  ) ?? undefined

/** A field's name, or its path in nested objects and arrays. */
export type FieldPath = string | ReadonlyArray<string | number>

/** A field's path as findings word it: its names, dotted. */
export const pathText = (field: FieldPath): string =>
  typeof field === "string" ? field : field.filter((p) => typeof p === "string").join(".")

/** The stored value of a field in a create's or update's answer, defaults filled in. */
export const storedValue = (op: Op, e: Exchange, field: FieldPath): unknown => {
  const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
  const path = typeof field === "string" ? [field] : field
  return path.reduce<unknown>(
    (v, k) => (Array.isArray(v) ? v[Number(k)] : asRecord(v)?.[k]),
    fullObject(op.object, objectOf(op, json))
  )
}

export const objectPropertyNames = (op: Op): ReadonlySet<string> => {
  const shape = SchemaWalk.shapeOf(op.object.ast)
  return new Set(shape._tag === "Object" ? shape.fields.keys() : [])
}

export const requiredFieldsOf = (op: Op): ReadonlyArray<string> =>
  [...SchemaWalk.requestFields(op).values()].filter((f) => f.required).map((f) => f.name)
