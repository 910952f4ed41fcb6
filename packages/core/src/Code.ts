/**
 * The Connect error codes and their HTTP statuses (interface.md, decisions.md section 2): the table
 * every reader and writer of an error uses, the code a reader assumes from a bare status, and the
 * codes that say the service did not act.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/code.js"

/**
 * The HTTP status of each Connect code.
 *
 * @since 0.1.0
 * @category codes
 */
export const statusByCode: {
  readonly canceled: 499
  readonly unknown: 500
  readonly invalid_argument: 400
  readonly deadline_exceeded: 504
  readonly not_found: 404
  readonly already_exists: 409
  readonly permission_denied: 403
  readonly resource_exhausted: 429
  readonly failed_precondition: 400
  readonly aborted: 409
  readonly out_of_range: 400
  readonly unimplemented: 501
  readonly internal: 500
  readonly unavailable: 503
  readonly data_loss: 500
  readonly unauthenticated: 401
} = internal.statusByCode

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
export const codes: ReadonlyArray<Code> = internal.codes

/**
 * Whether a value is one of the codes.
 *
 * @since 0.1.0
 * @category codes
 */
export const isCode: (u: unknown) => u is Code = internal.isCode

/**
 * The HTTP status of a code.
 *
 * @since 0.1.0
 * @category codes
 */
export const statusOf: (code: Code) => number = internal.statusOf

/**
 * Whether an HTTP status may carry a code: the status of the code, or 404 for `unimplemented`
 * on an unknown route.
 *
 * @since 0.1.0
 * @category codes
 */
export const statusAgrees: (code: Code, status: number) => boolean = internal.statusAgrees

/**
 * The code a reader assumes when the body is not a valid Connect error: 401 unauthenticated,
 * 403 permission_denied, 404 unimplemented, 429/502/503/504 unavailable, anything else unknown.
 *
 * @since 0.1.0
 * @category codes
 */
export const codeFromStatus: (status: number) => Code = internal.codeFromStatus

/**
 * Codes that say the service did not act and the call may be tried again.
 *
 * @since 0.1.0
 * @category codes
 */
export const transientCodes: ReadonlySet<Code> = internal.transientCodes
