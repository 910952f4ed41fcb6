/**
 * The schemas of the `Timestamp` module, which re-exports them with the code of `timestamp.ts`.
 */
import * as Instant from "@data-access/core/Timestamp"
import type * as Arbitrary from "effect/Arbitrary"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { equivalence, format, isTimestamp, max, min, parse, Timestamp } from "./timestamp.js"

const arbitrary: Arbitrary.LazyArbitrary<Timestamp> = (fc) =>
  fc.oneof(
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        min,
        max,
        new Timestamp({ seconds: Instant.MIN_SECONDS, nanos: 999_999_999 }),
        new Timestamp({ seconds: Instant.MAX_SECONDS, nanos: 0 })
      )
    },
    {
      weight: 8,
      arbitrary: fc
        .record({
          seconds: fc.oneof(
            fc.integer({ min: Instant.MIN_SECONDS, max: Instant.MAX_SECONDS }),
            fc.integer({ min: 946684800, max: 2524608000 })
          ),
          nanos: fc.oneof(
            fc.constant(0),
            fc.integer({ min: 0, max: 999 }).map((ms) => ms * 1_000_000),
            fc.integer({ min: 0, max: 999_999 }).map((us) => us * 1000),
            fc.integer({ min: 0, max: 999_999_999 })
          )
        })
        .map((r) => new Timestamp(r))
    }
  )

/**
 * The decoded form: a `Timestamp` value.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TimestampFromSelf: Schema.Schema<Timestamp> = Schema.declare(isTimestamp, {
  identifier: "TimestampFromSelf",
  description: "a Timestamp",
  arbitrary: () => arbitrary,
  pretty: () => (t: Timestamp) => format(t),
  equivalence: () => equivalence
})

/**
 * An RFC 3339 string decoded to an exact `Timestamp` and encoded back in UTC with `Z`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TimestampString: Schema.Schema<Timestamp, string> = Schema.transformOrFail(
  Schema.String.annotations({
    jsonSchema: {
      type: "string",
      format: "date-time",
      description:
        "RFC 3339 timestamp, UTC with Z on output, other offsets accepted on input, 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, up to 9 fractional digits"
    }
  }),
  TimestampFromSelf,
  {
    strict: true,
    decode: (s, _, ast) => {
      const r = parse(s)
      return typeof r === "string"
        ? ParseResult.fail(new ParseResult.Type(ast, s, `${r}: ${JSON.stringify(s)}`))
        : ParseResult.succeed(r)
    },
    encode: (t) => ParseResult.succeed(format(t))
  }
).annotations({ identifier: "Timestamp" })
