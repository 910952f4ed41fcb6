/**
 * Exact RFC 3339 timestamps with nanosecond precision, for Effect 4 (the same parser, writer and
 * range as `@data-access/schema/Timestamp`; only the Effect-specific parts differ).
 *
 * A JS `Date` keeps milliseconds only, so a `Timestamp` keeps the whole seconds since the Unix
 * epoch and the nanoseconds within that second, like `google.protobuf.Timestamp`. Its range is
 * `0001-01-01T00:00:00Z` to `9999-12-31T23:59:59.999999999Z`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as SchemaTransformation from "effect/SchemaTransformation"
import {
  equivalence,
  format,
  isTimestamp,
  parse,
  type Timestamp
} from "./generated/internal/timestamp.js"

export * from "./generated/internal/timestamp.js"

/**
 * The decoded form: a `Timestamp` value.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TimestampFromSelf: Schema.declare<Timestamp> = Schema.declare(isTimestamp, {
  identifier: "TimestampFromSelf",
  description: "a Timestamp",
  toEquivalence: () => equivalence,
  toFormatter: () => (t: Timestamp) => format(t)
})

/**
 * An RFC 3339 string decoded to an exact `Timestamp` and encoded back in UTC with `Z`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TimestampString: Schema.Codec<Timestamp, string> = Schema.String.pipe(
  Schema.decodeTo(
    TimestampFromSelf,
    SchemaTransformation.transformEffect({
      decode: (s) => {
        const r = parse(s)
        return typeof r === "string"
          ? Effect.fail(new SchemaIssue.InvalidValue({ message: `${r}: ${JSON.stringify(s)}` }, s))
          : Effect.succeed(r)
      },
      encode: (t) => Effect.succeed(format(t))
    })
  )
).annotate({ identifier: "Timestamp" })
