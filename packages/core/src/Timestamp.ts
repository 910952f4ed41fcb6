/**
 * Exact RFC 3339 timestamps with nanosecond precision, as plain whole seconds and nanoseconds
 * (like `google.protobuf.Timestamp`): the range of the interface, the parser, the writers and the
 * arithmetic. Each Effect line's `Timestamp` class and schema are built on these.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/timestamp.js"

/**
 * An instant: whole seconds since 1970-01-01T00:00:00Z (negative before it) and the nanoseconds
 * within the second (0 to 999,999,999).
 *
 * @since 0.1.0
 * @category models
 */
export interface Parts {
  readonly seconds: number
  readonly nanos: number
}

/**
 * Smallest timestamp of the interface: `0001-01-01T00:00:00Z`.
 *
 * @since 0.1.0
 * @category constants
 */
export const MIN_SECONDS: -62135596800 = internal.MIN_SECONDS

/**
 * Largest whole second of the interface: `9999-12-31T23:59:59Z`.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_SECONDS: 253402300799 = internal.MAX_SECONDS

/**
 * Whether whole seconds and nanoseconds make an instant of the interface's range.
 *
 * @since 0.1.0
 * @category guards
 */
export const inRange: (seconds: number, nanos: number) => boolean = internal.inRange

/**
 * Parses RFC 3339 text into what `make` builds of its seconds and nanoseconds. Any offset is
 * accepted; the result is the same instant in UTC. `T` and `Z` are upper case, as proto3 JSON
 * readers require. Returns a message explaining the rejection when the text is not a valid
 * timestamp of the interface.
 *
 * The layout `YYYY-MM-DDTHH:MM:SS[.f+](Z|±HH:MM)` is read by position, character by character
 * (the same grammar as the regex
 * `^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$`,
 * several times faster: responses carry two timestamps per object).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse: <T>(text: string, make: (seconds: number, nanos: number) => T) => T | string =
  internal.parse

/**
 * Writes RFC 3339 text in UTC with `Z` and 0, 3, 6 or 9 fractional digits (the fewest that keep
 * every digit).
 *
 * @since 0.1.0
 * @category formatting
 */
export const format: (t: Parts) => string = internal.format

/**
 * Writes the instant as RFC 3339 text in another form than `format`'s, all of which a parser reads
 * as the same instant: at an offset from UTC in minutes (`+02:00`; 0 writes `Z`), and with a
 * given number of fractional digits (0 to 9; more when fewer would lose a digit). `undefined` when
 * the wall clock at that offset falls outside the years 0001 to 9999.
 *
 * @since 0.1.0
 * @category formatting
 */
export const formatAt: (
  t: Parts,
  options: {
    readonly offsetMinutes?: number
    readonly digits?: number
  }
) => string | undefined = internal.formatAt

/**
 * @since 0.1.0
 * @category conversions
 */
export const toEpochMillis: (t: Parts) => number = internal.toEpochMillis

/**
 * @since 0.1.0
 * @category conversions
 */
export const toEpochNanos: (t: Parts) => bigint = internal.toEpochNanos

/**
 * The instant of nanoseconds since the epoch, built by `make`; `undefined` outside the range.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromEpochNanos: <T>(
  nanos: bigint,
  make: (seconds: number, nanos: number) => T
) => T | undefined = internal.fromEpochNanos

/**
 * The instant of milliseconds since the epoch (a fraction rounded to the nanosecond), built by
 * `make`; `undefined` when not finite or outside the range.
 *
 * @since 0.1.0
 * @category conversions
 */
export const fromEpochMillis: <T>(
  millis: number,
  make: (seconds: number, nanos: number) => T
) => T | undefined = internal.fromEpochMillis

/**
 * The nanoseconds of a clock reading: `nanos`, unless they were derived from `millis` in floating
 * point (a `TestClock` does that, off by up to a few hundred nanoseconds at today's dates:
 * 2030-01-02T03:04:05.678Z reads as .678000128Z), then exact milliseconds.
 *
 * @since 0.1.0
 * @category conversions
 */
export const clockNanos: (nanos: bigint, millis: number) => bigint = internal.clockNanos

/**
 * The order of two instants: -1, 0 or 1.
 *
 * @since 0.1.0
 * @category ordering
 */
export const compare: (a: Parts, b: Parts) => -1 | 0 | 1 = internal.compare

/**
 * Whether two instants are the same.
 *
 * @since 0.1.0
 * @category ordering
 */
export const equals: (a: Parts, b: Parts) => boolean = internal.equals

/**
 * Adds whole nanoseconds (positive or negative), clamped to the range of the interface; the result
 * built by `make`.
 *
 * @since 0.1.0
 * @category math
 */
export const addNanos: <T>(
  t: Parts,
  delta: bigint,
  make: (seconds: number, nanos: number) => T
) => T = internal.addNanos
