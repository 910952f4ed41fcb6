/**
 * The Connect error codes and their HTTP statuses (interface.md, decisions.md section 2): the table
 * every reader and writer of an error uses, the code a reader assumes from a bare status, and the
 * codes that say the service did not act.
 *
 * @since 0.1.0
 */

/**
 * The HTTP status of each Connect code.
 *
 * @since 0.1.0
 * @category codes
 */
export const statusByCode = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401
} as const

/**
 * A Connect error code.
 *
 * @since 0.1.0
 * @category codes
 */
export type Code = keyof typeof statusByCode

/**
 * Every code, in the order of the table.
 *
 * @since 0.1.0
 * @category codes
 */
export const codes = Object.keys(statusByCode) as ReadonlyArray<Code>

const codeSet: ReadonlySet<string> = new Set(codes)

/**
 * Whether a value is one of the codes.
 *
 * @since 0.1.0
 * @category codes
 */
export const isCode = (u: unknown): u is Code => typeof u === "string" && codeSet.has(u)

/**
 * The HTTP status of a code.
 *
 * @since 0.1.0
 * @category codes
 */
export const statusOf = (code: Code): number => statusByCode[code]

/**
 * Whether an HTTP status may carry a code: the status of the code, or 404 for `unimplemented`
 * on an unknown route.
 *
 * @since 0.1.0
 * @category codes
 */
export const statusAgrees = (code: Code, status: number): boolean =>
  statusByCode[code] === status || (code === "unimplemented" && status === 404)

/**
 * The code a reader assumes when the body is not a valid Connect error: 401 unauthenticated,
 * 403 permission_denied, 404 unimplemented, 429/502/503/504 unavailable, anything else unknown.
 *
 * @since 0.1.0
 * @category codes
 */
export const codeFromStatus = (status: number): Code => {
  switch (status) {
    case 401:
      return "unauthenticated"
    case 403:
      return "permission_denied"
    case 404:
      return "unimplemented"
    case 429:
    case 502:
    case 503:
    case 504:
      return "unavailable"
    default:
      return "unknown"
  }
}

/**
 * Codes that say the service did not act and the call may be tried again.
 *
 * @since 0.1.0
 * @category codes
 */
export const transientCodes: ReadonlySet<Code> = new Set<Code>([
  "unavailable",
  "resource_exhausted",
  "deadline_exceeded",
  "aborted",
  "internal",
  "unknown"
])
