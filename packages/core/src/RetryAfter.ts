/**
 * `Retry-After`: how long an answer asks the caller to wait before trying again. A server writes
 * it in seconds with its rate-limit answers (decisions.md section 2: resource_exhausted with
 * `Retry-After` in seconds); a client also reads an HTTP date and the `retry-after-ms` header of
 * some gateways.
 *
 * @since 0.1.0
 */

/**
 * The header, lower case.
 *
 * @since 0.1.0
 * @category headers
 */
export const HEADER = "retry-after"

/**
 * The millisecond form some gateways send, lower case; it wins over `Retry-After`.
 *
 * @since 0.1.0
 * @category headers
 */
export const MILLIS_HEADER = "retry-after-ms"

// Digits with an optional fraction, surrounding whitespace allowed: `7`, `1.5`, ` 30 `. No sign,
// no exponent. (RFC 9110's delay-seconds is digits only; a fraction is read rather than refused.)
const numberPattern = /^\s*\d+(\.\d+)?\s*$/

/**
 * Reads a `Retry-After` value in seconds: digits, optionally with a fraction, nothing else (no
 * sign, no exponent, no date). This is the form the contract requires of a server. A value too long
 * for a double reads as `Infinity`: callers cap the wait.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseSeconds = (value: string | undefined): number | undefined =>
  value !== undefined && numberPattern.test(value) ? Number(value) : undefined

const days = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
const longDays = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
const months = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
const time = "\\d{2}:\\d{2}:\\d{2}"
// RFC 9110 section 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a reader accepts.
const httpDatePattern = new RegExp(
  `^(${days}, \\d{2} ${months} \\d{4} ${time} GMT|${longDays}, \\d{2}-${months}-\\d{2} ${time} GMT|${days} ${months} ( \\d|\\d{2}) ${time} \\d{4})$`
)

/**
 * Reads an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`, or one of the two obsolete forms) as epoch
 * milliseconds; `undefined` for anything else (`Date.parse` alone reads `-1` or `2026` as dates).
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseHttpDate = (value: string): number | undefined => {
  const trimmed = value.trim()
  if (!httpDatePattern.test(trimmed)) return undefined
  // Date.parse reads the asctime form in local time: it has no zone, and HTTP dates are GMT.
  const millis = Date.parse(/\d{4}$/.test(trimmed) ? `${trimmed} GMT` : trimmed)
  return Number.isNaN(millis) ? undefined : millis
}

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
export const parse = (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
): number | undefined => {
  const millis = parseSeconds(headers[MILLIS_HEADER])
  if (millis !== undefined) return millis
  const value = headers[HEADER]
  if (value === undefined) return undefined
  const seconds = parseSeconds(value)
  if (seconds !== undefined) return seconds * 1000
  const date = parseHttpDate(value)
  return date === undefined ? undefined : Math.max(0, date - nowMillis)
}

/**
 * Writes a wait as a `Retry-After` value: whole seconds, rounded up, never negative.
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (seconds: number): string => String(Math.max(0, Math.ceil(seconds)))
