/**
 * The code of the `Primitives` module, which re-exports it.
 */
import type * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { states } from "./ruleAnnotations.js"
import { TimestampString } from "./timestampSchemas.js"

/**
 * A string with at least one character.
 *
 * @since 0.1.0
 * @category primitives
 */
export const NonEmptyString = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty (min length 1)" })
).annotations({ identifier: "NonEmptyString", ...states("fields.min-length") })

/**
 * The arbitrary of an id, built once per fast-check module: building its pattern costs more than
 * drawing from it, and a schema holds many ids (an arbitrary draws the same values however shared).
 */
const idArbitraries = new WeakMap<object, FastCheck.Arbitrary<string>>()

/**
 * An opaque object identifier (at least 1 character). Readers never parse it.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Id = NonEmptyString.annotations({
  identifier: "Id",
  description: "opaque identifier, at least 1 character",
  arbitrary: () => (fc) => {
    let arbitrary = idArbitraries.get(fc)
    if (arbitrary === undefined)
      idArbitraries.set(
        fc,
        (arbitrary = fc.oneof(
          fc.stringMatching(/^[a-z]{3,12}_[0-9a-hjkmnp-tv-z]{26}$/),
          fc.string({ minLength: 1, maxLength: 40 })
        ))
      )
    return arbitrary
  }
})

/**
 * A 32-bit signed integer, a JSON number.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Int32 = Schema.Int.pipe(Schema.between(-2147483648, 2147483647)).annotations({
  identifier: "Int32"
})

/**
 * A TCP port, 1 to 65535.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Port = Schema.Int.pipe(
  Schema.between(1, 65535, { message: () => "must be a port from 1 to 65535" })
).annotations({
  identifier: "Port",
  arbitrary: () => (fc) => fc.oneof(fc.constantFrom(1, 65535), fc.integer({ min: 1, max: 65535 }))
})

/**
 * A port that may be 0 (its zero value): 0 to 65535.
 *
 * @since 0.1.0
 * @category primitives
 */
export const PortOrZero = Schema.Int.pipe(
  Schema.between(0, 65535, { message: () => "must be a port of at most 65535" })
).annotations({
  identifier: "PortOrZero",
  arbitrary: () => (fc) =>
    fc.oneof(fc.constantFrom(0, 1, 65535), fc.integer({ min: 0, max: 65535 }))
})

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/**
 * A 64-bit integer, read from a JSON string (`"3600"`) or a JSON number, written as a string.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Int64: Schema.Schema<bigint, string | number> = Schema.transformOrFail(
  Schema.Union(Schema.String, Schema.Number).annotations({
    jsonSchema: {
      oneOf: [{ type: "string", pattern: "^-?[0-9]+$" }, { type: "integer" }],
      description: "int64, written as a string"
    }
  }),
  Schema.BigIntFromSelf.pipe(Schema.betweenBigInt(INT64_MIN, INT64_MAX)),
  {
    strict: true,
    decode: (u, _, ast) => {
      if (typeof u === "number") {
        return Number.isSafeInteger(u)
          ? ParseResult.succeed(BigInt(u))
          : ParseResult.fail(new ParseResult.Type(ast, u, `expected an int64, got ${u}`))
      }
      if (!/^-?[0-9]{1,19}$/.test(u)) {
        return ParseResult.fail(
          new ParseResult.Type(
            ast,
            u,
            `expected an int64 as a decimal string, got ${JSON.stringify(u)}`
          )
        )
      }
      const n = BigInt(u)
      return n < INT64_MIN || n > INT64_MAX
        ? ParseResult.fail(new ParseResult.Type(ast, u, `${u} is outside the int64 range`))
        : ParseResult.succeed(n)
    },
    encode: (n) => ParseResult.succeed(n.toString())
  }
).annotations({ identifier: "Int64" })

// A failed decode must not print a secret either (decisions.md section 8): the wire string of a
// secret carries a message that leaves out the actual value.
const SecretString = Schema.String.annotations({
  message: () => "expected a string (a secret: its value is not shown)"
})

/**
 * A secret string: decoded to `Redacted`, so that it never prints.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Secret = Schema.Redacted(
  SecretString.annotations({
    jsonSchema: { type: "string", writeOnly: false, description: "secret" }
  })
)

/**
 * A non-empty secret string.
 *
 * @since 0.1.0
 * @category primitives
 */
export const NonEmptySecret = Schema.Redacted(
  SecretString.pipe(
    Schema.minLength(1, { message: () => "must not be empty (min length 1)" })
  ).annotations({
    identifier: "NonEmptyString",
    ...states("fields.min-length")
  })
)

/**
 * What proto3 JSON's reader of a `bytes` field takes (protobuf-es, the official codec): characters of
 * the standard or URL-safe alphabet, `=` padding anywhere (it ends a group), spaces, tabs and line
 * breaks skipped; refused only for another character, or a last group of a single character. Each
 * `=` ends the repeated prefix, so the pattern runs in linear time.
 */
const PROTO_JSON_BASE64 =
  /^(?:[A-Za-z0-9+/_\-\t\n\r ]*=)*[\t\n\r ]*(?:(?:[A-Za-z0-9+/_-][\t\n\r ]*){4})*(?:(?:[A-Za-z0-9+/_-][\t\n\r ]*){2,3})?$/

/**
 * Base64 bytes held as a secret: read as proto3 JSON reads a `bytes` field (standard or URL-safe
 * alphabet, padding optional, whitespace skipped), so a value the official codec takes is taken.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Base64Secret = Schema.Redacted(
  SecretString.pipe(
    Schema.pattern(PROTO_JSON_BASE64, {
      message: () => "must be base64 bytes"
    })
  ).annotations({
    identifier: "Base64",
    // A value the bytes reader refuses is not of the field's JSON type.
    ...states("fields.json-type"),
    arbitrary: () => (fc) =>
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString("base64"))
  })
)

// ---------------------------------------------------------------------------------------------
// Response-side fields: absent reads as the zero value; present must be well typed.
// ---------------------------------------------------------------------------------------------

/**
 * A response string field: absent reads as `""`.
 *
 * @since 0.1.0
 * @category fields
 */
export const str = Schema.optionalWith(Schema.String, { default: () => "" })
/**
 * A response boolean field: absent reads as `false`.
 *
 * @since 0.1.0
 * @category fields
 */
export const bool = Schema.optionalWith(Schema.Boolean, { default: () => false })
/**
 * A response int32 field: absent reads as `0`.
 *
 * @since 0.1.0
 * @category fields
 */
export const int = <S extends Schema.Schema<number, number>>(schema: S) =>
  Schema.optionalWith(schema, { default: () => 0 as Schema.Schema.Type<S> })
/**
 * A response int64 field: absent reads as `0n`.
 *
 * @since 0.1.0
 * @category fields
 */
export const int64 = Schema.optionalWith(Int64, { default: () => 0n })
/**
 * A response array field: absent reads as `[]`.
 *
 * @since 0.1.0
 * @category fields
 */
export const array = <S extends Schema.Schema.Any>(item: S) =>
  Schema.optionalWith(Schema.Array(item), { default: () => [] })
/**
 * A response enum field: absent reads as the first listed value (the enum's zero value).
 *
 * @since 0.1.0
 * @category fields
 */
export const enumeration = <const L extends readonly [string, ...Array<string>]>(
  literals: Schema.Literal<L>
) => Schema.optionalWith(literals, { default: () => literals.literals[0] as L[number] })
/**
 * A response secret field: absent reads as an empty redacted string.
 *
 * @since 0.1.0
 * @category fields
 */
export const secret = Schema.optionalToRequired(
  Schema.UndefinedOr(Secret).annotations({
    // `override`: otherwise the `undefined` branch of the union prints the rejected value.
    message: () => ({
      message: "expected a string (a secret: its value is not shown)",
      override: true
    })
  }),
  Schema.typeSchema(Secret),
  {
    decode: (o) => (Option.isSome(o) && o.value !== undefined ? o.value : Redacted.make("")),
    encode: Option.some
  }
)
/**
 * A response timestamp field: a message type in proto3, so absent means unset.
 *
 * @since 0.1.0
 * @category fields
 */
export const timestamp = Schema.optionalWith(TimestampString, { exact: true })

/**
 * A response field holding a nested object: absent means unset.
 *
 * @since 0.1.0
 * @category fields
 */
export const nested = <S extends Schema.Schema.All>(schema: S) =>
  Schema.optionalWith(schema, { exact: true })

// ---------------------------------------------------------------------------------------------
// Request-side fields: `null` means "not set", the same as absent.
// ---------------------------------------------------------------------------------------------

/**
 * An optional request field: absent or `null` is "not set".
 *
 * @since 0.1.0
 * @category fields
 */
export const opt = <S extends Schema.Schema.All>(schema: S) =>
  Schema.optionalWith(schema, { nullable: true, exact: true })

/**
 * An optional secret request field: absent or `null` is "not set". A rejected value is reported
 * without printing it (decisions.md section 8).
 *
 * @since 0.1.0
 * @category fields
 */
export const optSecret = <A, I>(schema: Schema.Schema<A, I>, expected: string) =>
  Schema.optionalToOptional(
    Schema.NullOr(schema).annotations({
      message: () => ({
        message: `expected ${expected} or null (a secret: its value is not shown)`,
        override: true
      })
    }),
    Schema.typeSchema(schema),
    {
      decode: Option.filter((v: A | null): v is A => v !== null),
      encode: (o) => o
    }
  )
