import * as Retry from "@data-access/core/Retry"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type { ClientError } from "../ClientError.js"

/**
 * @since 0.1.0
 * @category models
 */
export type RetryPolicy = Schedule.Schedule<unknown, ClientError>

/**
 * @since 0.1.0
 * @category models
 */
export interface ExponentialOptions {
  /** Retries after the first attempt (default 2). */
  readonly retries?: number | undefined
  /** First wait (default 500 ms). */
  readonly base?: Duration.Input | undefined
  /** Growth factor (default 2). */
  readonly factor?: number | undefined
  /** Longest wait (default 8 s). */
  readonly cap?: Duration.Input | undefined
  /** Randomise each wait (default true). */
  readonly jitter?: boolean | undefined
}

/**
 * Exponential backoff with a cap and a number of retries.
 *
 * @since 0.1.0
 * @category constructors
 */
export const exponential = (options: ExponentialOptions = {}): RetryPolicy => {
  const { baseMillis, capMillis, factor, jitter, retries } = Retry.exponentialPlan(options, (d) =>
    Duration.toMillis(Duration.fromInputUnsafe(d))
  )
  const delays = Schedule.exponential(Duration.millis(baseMillis), factor)
  const limited = Schedule.modifyDelay(
    jitter ? Schedule.jittered(delays) : delays,
    ({ duration }) => Effect.succeed(Duration.min(duration, Duration.millis(capMillis)))
  )
  return Schedule.upTo(limited, { times: retries }) as RetryPolicy
}

/**
 * 2 retries, from 500 ms, doubling, capped at 8 s, jittered.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultPolicy: RetryPolicy = exponential()

/**
 * No retry.
 *
 * @since 0.1.0
 * @category constructors
 */
export const none: RetryPolicy = Schedule.recurs(0) as RetryPolicy

/**
 * The longest wait `Retry-After` may ask for: 60 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_RETRY_AFTER: Duration.Duration = Duration.millis(Retry.MAX_RETRY_AFTER_MILLIS)

/**
 * Reads `retry-after-ms` or `Retry-After` (seconds or HTTP date) in milliseconds, capped at
 * `MAX_RETRY_AFTER`: `Retry.parseRetryAfter` of `@data-access/core`, the same on both Effect lines.
 *
 * @since 0.1.0
 * @category retries
 */
export const parseRetryAfter = Retry.parseRetryAfter
