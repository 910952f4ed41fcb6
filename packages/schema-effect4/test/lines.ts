/**
 * The two lines side by side: every schema of `@data-access/schema` (Effect 3) that this package
 * generates, paired with its Effect 4 counterpart by module and name, plus each operation's
 * request and response.
 */
import * as E3Model from "@data-access/schema/Model"
import * as E3Filter from "@data-access/schema/Filter"
import * as E3ConnectError from "@data-access/schema/ConnectError"
import * as E3KnownIds from "@data-access/schema/KnownIds"
import * as E3Operations from "@data-access/schema/Operations"
import * as E3Primitives from "@data-access/schema/Primitives"
import * as E3Requests from "@data-access/schema/Requests"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as Either3 from "effect3/Either"
import * as Redacted3 from "effect3/Redacted"
import * as Schema3 from "effect3/Schema"
import * as ConnectError from "../src/ConnectError.js"
import * as Filter from "../src/Filter.js"
import * as KnownIds from "../src/KnownIds.js"
import * as Model from "../src/Model.js"
import * as Operations from "../src/Operations.js"
import * as Primitives from "../src/Primitives.js"
import * as Requests from "../src/Requests.js"

export interface Pair {
  readonly name: string
  readonly e3: Schema3.Schema<any, any>
  readonly e4: Schema.Codec<any, any>
}

const modules: ReadonlyArray<readonly [string, Record<string, unknown>, Record<string, unknown>]> =
  [
    ["Primitives", E3Primitives, Primitives],
    ["Filter", E3Filter, Filter],
    ["Model", E3Model, Model],
    ["Requests", E3Requests, Requests],
    ["ConnectError", E3ConnectError, ConnectError],
    ["KnownIds", E3KnownIds, KnownIds]
  ]

/** Names the Effect 4 line writes by hand (not generated): compared elsewhere or not schemas of the wire. */
const handWritten = new Set(["ConnectError.ConnectError"])

export const schemaPairs: ReadonlyArray<Pair> = modules.flatMap(([m, e3, e4]) =>
  Object.entries(e3).flatMap(([name, s]) =>
    Schema3.isSchema(s) && !handWritten.has(`${m}.${name}`)
      ? [
          {
            name: `${m}.${name}`,
            e3: s as Schema3.Schema<any, any>,
            e4: e4[name] as Schema.Codec<any, any>
          }
        ]
      : []
  )
)

export const operationPairs: ReadonlyArray<Pair> = E3Operations.all.flatMap((op) => {
  const e4 = Operations.operations[
    op.method as Operations.MethodName
  ] as unknown as Operations.Operation
  return [
    { name: `${op.method} request`, e3: op.request as Schema3.Schema<any, any>, e4: e4.request },
    { name: `${op.method} response`, e3: op.response as Schema3.Schema<any, any>, e4: e4.response }
  ]
})

/** A decoded value of either line in one comparable form: secrets and timestamps made plain. */
export const normalize = (v: unknown): unknown => {
  if (Redacted3.isRedacted(v)) return { redacted: normalize(Redacted3.value(v)) }
  if (Redacted.isRedacted(v)) return { redacted: normalize(Redacted.value(v)) }
  if (typeof v === "bigint") return { bigint: v.toString() }
  if (Array.isArray(v)) return v.map(normalize)
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>
    if (o._tag === "Timestamp" && typeof o.seconds === "number" && typeof o.nanos === "number") {
      return { timestamp: [o.seconds, o.nanos] }
    }
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, normalize(o[k])])
    )
  }
  return v
}

export type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false }

export const decode3 = (pair: Pair, json: unknown): Outcome => {
  const r = Schema3.decodeUnknownEither(pair.e3)(json)
  return Either3.isRight(r) ? { ok: true, value: r.right } : { ok: false }
}
export const decode4 = (pair: Pair, json: unknown): Outcome => {
  const r = Schema.decodeUnknownResult(pair.e4)(json)
  return Result.isSuccess(r) ? { ok: true, value: r.success } : { ok: false }
}
/** Encodes and goes through JSON text, as the wire does. */
export const encode3 = (pair: Pair, value: unknown): unknown =>
  JSON.parse(JSON.stringify(Schema3.encodeSync(pair.e3)(value)))
export const encode4 = (pair: Pair, value: unknown): unknown =>
  JSON.parse(JSON.stringify(Schema.encodeSync(pair.e4)(value)))
