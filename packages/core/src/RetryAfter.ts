/**
 * `Retry-After`: how long an answer asks the caller to wait before trying again. A server writes
 * it in seconds with its rate-limit answers (decisions.md section 2: resource_exhausted with
 * `Retry-After` in seconds); a client also reads an HTTP date and the `retry-after-ms` header of
 * some gateways.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/retryAfter.js"

/**
 * The header, lower case.
 *
 * @since 0.1.0
 * @category headers
 */
export const HEADER: "retry-after" = internal.HEADER

/**
 * The millisecond form some gateways send, lower case; it wins over `Retry-After`.
 *
 * @since 0.1.0
 * @category headers
 */
export const MILLIS_HEADER: "retry-after-ms" = internal.MILLIS_HEADER

/**
 * Reads a `Retry-After` value in seconds: digits, optionally with a fraction, nothing else (no
 * sign, no exponent, no date). This is the form the contract requires of a server. A value too long
 * for a double reads as `Infinity`: callers cap the wait.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseSeconds: (value: string | undefined) => number | undefined = internal.parseSeconds

/**
 * Reads an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, or one of the two obsolete forms) as epoch
 * milliseconds; `undefined` for anything else (`Date.parse` alone reads `-1` or `2026` as dates).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseHttpDate: (value: string) => number | undefined = internal.parseHttpDate

/**
 * The wait an answer asks for, in milliseconds: `retry-after-ms` (milliseconds), else
 * `Retry-After` in seconds or as an HTTP date (the time from `nowMillis` to it, 0 when it has
 * passed). `undefined` when neither header is there or readable. Header names are lower case.
 *
 * @example
 * ```ts
 * import { RetryAfter } from "@data-access/core"
 *
 * RetryAfter.parse({ "retry-after": "1.5" }, Date.now()) // 1500
 * RetryAfter.parse({ "retry-after": "-1" }, Date.now()) // undefined
 * ```
 *
 * @since 0.1.0
 * @category parsing
 */
export const parse: (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
) => number | undefined = internal.parse

/**
 * Writes a wait as a `Retry-After` value: whole seconds, rounded up, never negative.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format: (seconds: number) => string = internal.format
