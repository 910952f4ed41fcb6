/**
 * `Connect-Timeout-Ms`: the header that carries a call's deadline, read by servers and written by
 * clients.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/timeout.js"

/**
 * The header that carries a call's deadline, in milliseconds.
 *
 * @since 0.1.0
 * @category headers
 */
export const TIMEOUT_HEADER: "connect-timeout-ms" = internal.TIMEOUT_HEADER

/**
 * The largest deadline `Connect-Timeout-Ms` can carry: 10 digits of milliseconds (about 115 days).
 *
 * @since 0.1.0
 * @category headers
 */
export const MAX_TIMEOUT_MILLIS: 9999999999 = internal.MAX_TIMEOUT_MILLIS

/**
 * A `Connect-Timeout-Ms` header as read: absent, a deadline in milliseconds, or invalid.
 *
 * @since 0.1.0
 * @category headers
 */
export type Timeout =
  | { readonly _tag: "None" }
  | { readonly _tag: "Millis"; readonly millis: number }
  | { readonly _tag: "Invalid"; readonly value: string }

/**
 * Reads a `Connect-Timeout-Ms` header: 1 to 10 ASCII digits, nothing else (no sign, no space, no
 * fraction). `"0"` is a deadline that has already passed.
 *
 * @example
 * ```ts
 * import { Timeout } from "@data-access/core"
 *
 * Timeout.parseTimeout("250") // { _tag: "Millis", millis: 250 }
 * Timeout.parseTimeout("+250") // { _tag: "Invalid", value: "+250" }
 * ```
 *
 * @since 0.1.0
 * @category headers
 */
export const parseTimeout: (header: string | undefined) => Timeout = internal.parseTimeout

/**
 * Writes a deadline as a `Connect-Timeout-Ms` value: whole milliseconds rounded up, at least 1 (a
 * deadline not yet passed is never sent as 0) and at most `MAX_TIMEOUT_MILLIS` (a longer or
 * infinite one is sent as the longest; `NaN` as 1).
 *
 * @since 0.1.0
 * @category headers
 */
export const formatTimeout: (millis: number) => string = internal.formatTimeout
