/**
 * The rate-limit headers a response may carry (decisions.md section 2: `X-Ratelimit-Limit`,
 * `X-Ratelimit-Remaining` and `X-Ratelimit-Reset` in Unix seconds). A server need not send them
 * (section 10); the ones it sends say what the contract says they say.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/rateLimit.js"

/**
 * The headers, lower case.
 *
 * @since 0.1.0
 * @category headers
 */
export const LIMIT_HEADER: "x-ratelimit-limit" = internal.LIMIT_HEADER

/**
 * @since 0.1.0
 * @category headers
 */
export const REMAINING_HEADER: "x-ratelimit-remaining" = internal.REMAINING_HEADER

/**
 * @since 0.1.0
 * @category headers
 */
export const RESET_HEADER: "x-ratelimit-reset" = internal.RESET_HEADER

/**
 * The three headers.
 *
 * @since 0.1.0
 * @category headers
 */
export const HEADERS: ReadonlyArray<string> = internal.HEADERS

/**
 * The headers of a rate window: its size, the calls left in it, and the Unix second it resets at.
 *
 * @since 0.1.0
 * @category writing
 */
export const headers: (
  limit: number,
  remaining: number,
  resetEpochSeconds: number
) => Record<string, string> = internal.headers

/**
 * What is wrong with the rate-limit headers an answer carries, received at `nowMillis`: the
 * limit and the calls remaining are whole numbers, and the reset is a Unix time in seconds. A
 * count of seconds to wait (`60`) or a Unix time in milliseconds lies far from the answer's time,
 * so a reset more than an hour before it or more than 400 days after it is not one. Headers that
 * are absent are not judged.
 *
 * @since 0.1.0
 * @category reading
 */
export const problems: (
  read: (header: string) => string | undefined,
  nowMillis: number
) => ReadonlyArray<string> = internal.problems
