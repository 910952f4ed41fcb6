/**
 * Connect deadlines (`Connect-Timeout-Ms`) as Effect combinators that both sides of a call use:
 * the client bounds each attempt, the server bounds each handler. The header's reading and writing
 * are `@data-access/core/Timeout`'s, re-exported here.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as internal from "./internal/deadline.js"

export {
  /**
   * The header that carries a call's deadline, in milliseconds.
   *
   * @since 0.3.0
   * @category headers
   */
  TIMEOUT_HEADER,
  /**
   * The largest deadline `Connect-Timeout-Ms` can carry: 10 digits of milliseconds.
   *
   * @since 0.3.0
   * @category headers
   */
  MAX_TIMEOUT_MILLIS,
  /**
   * Reads a `Connect-Timeout-Ms` header: 1 to 10 ASCII digits, nothing else.
   *
   * @since 0.3.0
   * @category headers
   */
  parseTimeout,
  /**
   * Writes a deadline as a `Connect-Timeout-Ms` value: whole milliseconds rounded up, 1 to
   * `MAX_TIMEOUT_MILLIS`.
   *
   * @since 0.3.0
   * @category headers
   */
  formatTimeout
} from "@data-access/core/Timeout"

export type {
  /**
   * A `Connect-Timeout-Ms` header as read: absent, a deadline in milliseconds, or invalid.
   *
   * @since 0.3.0
   * @category headers
   */
  Timeout
} from "@data-access/core/Timeout"

/**
 * Whether a deadline of `millis` on `clock` can be kept by a plain JS timer: `clock` is Effect's
 * own real-time clock (not a `TestClock` or a user's clock) and `millis` fits a timer. The
 * combinators here use a timer exactly then, and fall back to Effect's own otherwise.
 *
 * @since 0.1.0
 * @category predicates
 */
export const usesRealTimer: (clock: Clock.Clock, millis: number) => boolean = internal.usesRealTimer

/**
 * `Effect.timeoutOption`, made cheap for a hot path: `Some` of the value of `self` if it ends
 * within `millis`, otherwise `None` once `self` has been interrupted. On Effect's own real-time
 * clock the work runs in one fiber and a plain timer races it; with any other clock (a
 * `TestClock`, a user's clock) it is `Effect.timeoutOption` itself.
 *
 * @since 0.1.0
 * @category combinators
 */
export const timeoutOption: <A, E, R>(
  self: Effect.Effect<A, E, R>,
  millis: number
) => Effect.Effect<Option.Option<A>, E, R> = internal.timeoutOption

/**
 * `Effect.timeoutFail`, made cheap for a hot path: the result of `self` if it ends within
 * `millis`, otherwise, once `self` has been interrupted, a failure with `onTimeout()`. The same
 * race as {@link timeoutOption}, without an `Option` to unwrap.
 *
 * @since 0.1.0
 * @category combinators
 */
export const timeoutFail: <A, E, R, E2>(
  self: Effect.Effect<A, E, R>,
  millis: number,
  onTimeout: () => E2
) => Effect.Effect<A, E | E2, R> = internal.timeoutFail
