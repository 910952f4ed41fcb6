/**
 * The Effect 4 mechanics the generated schemas are built from: each field kind of
 * `@data-access/schema/Primitives` (a default for an absent field, `null` as "not set"), the
 * one-of rule and the int64 transformation. The facts (which field, which default, which keys)
 * come from the generator; only the way Effect 4 spells them is written here.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as SchemaGetter from "effect/SchemaGetter"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"

// The defaults are pure getters (`transformOptional`), not `Schema.withDecodingDefault*`, whose
// default is an Effect: a page of objects has a dozen defaulted fields per object, and the
// effectful getter made decoding several times slower.

/** A response field: absent (or `undefined`) reads as `value`; encoding writes the field. */
export const withDefault = <S extends Schema.Top>(schema: S, value: S["Type"]) =>
  Schema.optional(schema).pipe(
    Schema.decodeTo(Schema.toType(schema), {
      decode: SchemaGetter.transformOptional((o: Option.Option<S["Type"] | undefined>) =>
        Option.some(Option.isSome(o) && o.value !== undefined ? (o.value as S["Type"]) : value)
      ),
      encode: SchemaGetter.passthroughSubtype<S["Type"] | undefined, S["Type"]>()
    })
  )

/** A response field: absent reads as `value` (`undefined` is rejected); encoding writes the field. */
export const withDefaultKey = <S extends Schema.Top>(schema: S, value: S["Type"]) =>
  Schema.optionalKey(schema).pipe(
    Schema.decodeTo(Schema.toType(schema), {
      decode: SchemaGetter.transformOptional((o: Option.Option<S["Type"]>) =>
        Option.isSome(o) ? o : Option.some(value)
      ),
      encode: SchemaGetter.passthrough()
    })
  )

/** An optional request field: absent or `null` on the wire is "not set" (an absent key). */
export const nullable = <S extends Schema.Top>(schema: S) =>
  Schema.optionalKey(Schema.NullOr(schema)).pipe(
    Schema.decodeTo(Schema.optionalKey(Schema.toType(schema)), {
      decode: SchemaGetter.transformOptional((o: Option.Option<S["Type"] | null>) =>
        Option.filter(o, (v): v is S["Type"] => v !== null)
      ),
      encode: SchemaGetter.passthroughSubtype<S["Type"] | null, S["Type"]>()
    })
  )

/** Exactly one of `keys` is set (present and not `undefined`). */
export const exactlyOne = (keys: ReadonlyArray<string>) =>
  Schema.makeFilter((r: { readonly [k: string]: unknown }) => {
    const set = keys.filter((k) => r[k] !== undefined)
    if (set.length === 1) return undefined
    return {
      path: [set.length === 0 ? keys[0]! : set[1]!],
      issue:
        set.length === 0
          ? `exactly one of ${keys.join(", ").replace(/, ([^,]*)$/, " or $1")} must be set; none is`
          : `exactly one of ${keys.join(", ").replace(/, ([^,]*)$/, " or $1")} must be set; ${set.join(" and ")} are`
    }
  })

/** A wire shape that decodes to the empty object and is written as `{}`. */
export const toEmptyObject = <S extends Schema.Top>(schema: S) =>
  schema.pipe(
    Schema.decodeTo(Schema.Struct({}), {
      decode: SchemaGetter.transform(() => ({})),
      encode: SchemaGetter.transform(() => ({}) as S["Type"])
    })
  )

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

const int64Issue = (input: unknown, message: string) =>
  new SchemaIssue.InvalidValue({ message }, input)

/** A 64-bit integer, read from a JSON string (`"3600"`) or a safe-integer number, written as a string. */
export const Int64: Schema.Codec<bigint, string | number> = Schema.Union([
  Schema.String,
  Schema.Number
])
  .pipe(
    Schema.decodeTo(
      Schema.BigInt,
      SchemaTransformation.transformEffect({
        decode: (u: string | number) => {
          if (typeof u === "number") {
            return Number.isSafeInteger(u)
              ? Effect.succeed(BigInt(u))
              : Effect.fail(int64Issue(u, `expected an int64, got ${u}`))
          }
          if (!/^-?[0-9]{1,19}$/.test(u)) {
            return Effect.fail(
              int64Issue(u, `expected an int64 as a decimal string, got ${JSON.stringify(u)}`)
            )
          }
          const n = BigInt(u)
          return n < INT64_MIN || n > INT64_MAX
            ? Effect.fail(int64Issue(u, `${u} is outside the int64 range`))
            : Effect.succeed(n)
        },
        encode: (n: bigint) => Effect.succeed(n.toString())
      })
    )
  )
  .annotate({ identifier: "Int64" })
