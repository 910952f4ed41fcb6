/**
 * Retry policies: an Effect `Schedule` fed with the error of each failed attempt. The client
 * decides which errors may be retried at all (reads and writes differ, see
 * `ClientError.isRetryable`); the policy decides how often and how long to wait. A `Retry-After`
 * (or `retry-after-ms`) from the service lengthens the wait, up to `MAX_RETRY_AFTER`.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Schedule from "effect/Schedule"
import type { ClientError } from "./ClientError.js"
import * as internal from "./internal/retryPolicy.js"

/**
 * A retry policy: a `Schedule` whose input is the error of the failed attempt. Any `Schedule`
 * that accepts a `ClientError` (or `unknown`) fits, e.g. `Schedule.recurs(3)`.
 *
 * @example
 * ```ts
 * import { RetryPolicy, Services } from "@data-access/client"
 * import { Effect, Schedule } from "effect"
 *
 * // a fixed 1 s wait, at most 3 retries, for one call
 * const everySecond: RetryPolicy.RetryPolicy = Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(3)))
 * const program = Effect.gen(function*() {
 *   const resources = yield* Services.ResourceService
 *   return yield* resources.getResource({ id: "resource_01h45ytscbebyvny4gc8cr8ma2" }, { retryPolicy: everySecond })
 * })
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type RetryPolicy = Schedule.Schedule<unknown, ClientError>

/**
 * Options of `exponential`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExponentialOptions {
  /** Retries after the first attempt (default 2). */
  readonly retries?: number | undefined
  /** First wait (default 500 ms). */
  readonly base?: Duration.DurationInput | undefined
  /** Growth factor (default 2). */
  readonly factor?: number | undefined
  /** Longest wait (default 8 s). */
  readonly cap?: Duration.DurationInput | undefined
  /** Randomise each wait by 0.8 to 1.2 times (default true). */
  readonly jitter?: boolean | undefined
}

/**
 * Exponential backoff: `base`, `base * factor`, ... capped at `cap`, optionally jittered, at most
 * `retries` retries.
 *
 * @example
 * ```ts
 * import { DataAccessClient, RetryPolicy } from "@data-access/client"
 * import { Redacted } from "effect"
 *
 * // every call of this client: up to 5 retries, waiting 200 ms, 400 ms, ... at most 5 s
 * const Client = DataAccessClient.layer({
 *   baseUrl: "https://api.example.com",
 *   apiKey: Redacted.make("key"),
 *   retryPolicy: RetryPolicy.exponential({ retries: 5, base: "200 millis", cap: "5 seconds" })
 * })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const exponential: (options?: ExponentialOptions) => RetryPolicy = internal.exponential

/**
 * The default policy: 2 retries, exponential backoff from 500 ms doubling up to 8 s, with jitter.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultPolicy: RetryPolicy = internal.defaultPolicy

/**
 * Never retry.
 *
 * @example
 * ```ts
 * import { RetryPolicy, Services } from "@data-access/client"
 * import { Effect } from "effect"
 *
 * // this call only: one attempt, no retry, whatever the layer's policy
 * const program = Effect.gen(function*() {
 *   const resources = yield* Services.ResourceService
 *   return yield* resources.getResource({ id: "resource_01h45ytscbebyvny4gc8cr8ma2" }, { retryPolicy: RetryPolicy.none })
 * })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const none: RetryPolicy = internal.none

/**
 * The longest `Retry-After` the client honours (60 s); a longer one is cut to this.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_RETRY_AFTER: Duration.Duration = internal.MAX_RETRY_AFTER

/**
 * Reads the wait a response asks for, in milliseconds: `retry-after-ms` (milliseconds), else
 * `Retry-After` as seconds or as an HTTP date (relative to `nowMillis`). Capped at
 * `MAX_RETRY_AFTER`; `undefined` when absent or unreadable (`-1`, a date that is not an HTTP date).
 * It is `Retry.parseRetryAfter` of `@data-access/core`, the same on both Effect lines.
 *
 * @since 0.1.0
 * @category retries
 */
export const parseRetryAfter: (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
) => number | undefined = internal.parseRetryAfter
