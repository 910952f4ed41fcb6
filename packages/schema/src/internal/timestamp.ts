/**
 * Exact RFC 3339 timestamps with nanosecond precision: the value, its parser and writer, its
 * conversions and ordering. The part of `Timestamp` that is the same code on both Effect lines
 * (`@data-access/schema-effect4` generates its copy from this file by renaming the few APIs Effect
 * 4 renamed); the schemas, which differ, are in `../Timestamp.ts`.
 *
 * @since 0.1.0
 */
import * as Instant from "@data-access/core/Timestamp"
import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Equivalence from "effect/Equivalence"
import * as Ord from "effect/Order"

/**
 * @since 0.1.0
 * @category models
 */
export class Timestamp extends Data.TaggedClass("Timestamp")<{
  /** Whole seconds since 1970-01-01T00:00:00Z (negative before it). */
  readonly seconds: number
  /** Nanoseconds within the second, 0 to 999,999,999. */
  readonly nanos: number
}> {
  /** The RFC 3339 text, in UTC with `Z`, with 0, 3, 6 or 9 fractional digits. */
  override toString(): string {
    return format(this)
  }
  toJSON(): string {
    return format(this)
  }
}

export {
  /**
   * Smallest timestamp of the interface: `0001-01-01T00:00:00Z`.
   *
   * @since 0.1.0
   * @category constants
   */
  MIN_SECONDS,
  /**
   * Largest whole second of the interface: `9999-12-31T23:59:59Z`.
   *
   * @since 0.1.0
   * @category constants
   */
  MAX_SECONDS
} from "@data-access/core/Timestamp"

/**
 * @since 0.1.0
 * @category constants
 */
export const min: Timestamp = new Timestamp({ seconds: Instant.MIN_SECONDS, nanos: 0 })
/**
 * @since 0.1.0
 * @category constants
 */
export const max: Timestamp = new Timestamp({ seconds: Instant.MAX_SECONDS, nanos: 999_999_999 })

/**
 * @since 0.1.0
 * @category guards
 */
export const isTimestamp = (u: unknown): u is Timestamp => u instanceof Timestamp

/**
 * Builds a timestamp, or `undefined` when it is outside the range of the interface.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (seconds: number, nanos = 0): Timestamp | undefined =>
  Instant.inRange(seconds, nanos) ? unsafeMake(seconds, nanos) : undefined

/**
 * `new Timestamp({ seconds, nanos })` without the constructor chain of `Data.TaggedClass` (an
 * `Object.assign` of the argument, then the `_tag` field): the same prototype and the same own
 * enumerable properties in the same order (`seconds`, `nanos`, `_tag`), so equality, hashing,
 * printing and `instanceof` are unchanged. Decoding builds two per object, so it matters.
 */
const unsafeMake = (seconds: number, nanos: number): Timestamp => {
  const t = Object.create(Timestamp.prototype) as {
    seconds: number
    nanos: number
    _tag: "Timestamp"
  }
  t.seconds = seconds
  t.nanos = nanos
  t._tag = "Timestamp"
  return t as Timestamp
}

/**
 * Parses RFC 3339 text. Any offset is accepted; the result is the same instant in UTC. `T` and `Z`
 * are upper case, as proto3 JSON readers require. Returns a message explaining the rejection when
 * the text is not a valid timestamp of the interface.
 *
 * The layout `YYYY-MM-DDTHH:MM:SS[.f+](Z|±HH:MM)` is read by position, character by character
 * (the same grammar as the regex
 * `^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$`,
 * several times faster: responses carry two timestamps per object).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse = (text: string): Timestamp | string => Instant.parse(text, unsafeMake)

/**
 * Writes RFC 3339 text in UTC with `Z` and 0, 3, 6 or 9 fractional digits (the fewest that keep
 * every digit).
 *
 * @since 0.1.0
 * @category formatting
 */
export const format: (t: Timestamp) => string = Instant.format

/**
 * Writes the instant as RFC 3339 text in another form than `format`'s, all of which a parser reads
 * as the same instant: at an offset from UTC in minutes (`+02:00`; 0 writes `Z`), and with a
 * given number of fractional digits (0 to 9; more when fewer would lose a digit). `undefined` when
 * the wall clock at that offset falls outside the years 0001 to 9999.
 *
 * @since 0.3.0
 * @category formatting
 */
export const formatAt: (
  t: Timestamp,
  options: { readonly offsetMinutes?: number; readonly digits?: number }
) => string | undefined = Instant.formatAt

/**
 * @since 0.1.0
 * @category conversions
 */
export const toEpochMillis: (t: Timestamp) => number = Instant.toEpochMillis

/**
 * The timestamp as a `Date` (precision below a millisecond is dropped).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toDate = (t: Timestamp): Date => new Date(toEpochMillis(t))

/**
 * The timestamp as a UTC `DateTime` (precision below a millisecond is dropped).
 *
 * @since 0.1.0
 * @category conversions
 */
export const toDateTime = (t: Timestamp): DateTime.Utc => DateTime.unsafeMake(toEpochMillis(t))

/**
 * @since 0.1.0
 * @category conversions
 */
export const fromEpochMillis = (millis: number): Timestamp | undefined =>
  Instant.fromEpochMillis(millis, unsafeMake)

/**
 * @since 0.1.0
 * @category conversions
 */
export const fromDate = (date: Date): Timestamp | undefined => fromEpochMillis(date.getTime())

/**
 * @since 0.1.0
 * @category conversions
 */
export const fromDateTime = (dt: DateTime.DateTime): Timestamp | undefined =>
  fromEpochMillis(DateTime.toEpochMillis(dt))

/**
 * Builds a timestamp from nanoseconds since the epoch.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromEpochNanos = (nanos: bigint): Timestamp | undefined =>
  Instant.fromEpochNanos(nanos, unsafeMake)

/**
 * @since 0.1.0
 * @category conversions
 */
export const toEpochNanos: (t: Timestamp) => bigint = Instant.toEpochNanos

/**
 * The current time from the `Clock`, with nanosecond precision where the clock has it. A clock
 * that keeps only milliseconds (`TestClock`) gives exact milliseconds.
 *
 * @since 0.1.0
 * @category constructors
 */
export const now: Effect.Effect<Timestamp> = Clock.clockWith((clock) =>
  Effect.sync(() => {
    // A TestClock's nanos are its millis times 1e6 in floating point: `clockNanos` reads those exactly.
    return fromEpochNanos(
      Instant.clockNanos(clock.unsafeCurrentTimeNanos(), clock.unsafeCurrentTimeMillis())
    )!
  })
)

/**
 * @since 0.1.0
 * @category instances
 */
export const Order: Ord.Order<Timestamp> = Ord.make(Instant.compare)

/**
 * @since 0.1.0
 * @category instances
 */
export const equivalence: Equivalence.Equivalence<Timestamp> = Instant.equals

/**
 * @since 0.1.0
 * @category ordering
 */
export const isBefore = (self: Timestamp, that: Timestamp): boolean => Order(self, that) < 0

/**
 * @since 0.1.0
 * @category ordering
 */
export const isAfter = (self: Timestamp, that: Timestamp): boolean => Order(self, that) > 0

/**
 * Adds whole nanoseconds (positive or negative), clamped to the range of the interface.
 *
 * @since 0.1.0
 * @category math
 */
export const addNanos = (t: Timestamp, delta: bigint): Timestamp =>
  Instant.addNanos(t, delta, unsafeMake)
