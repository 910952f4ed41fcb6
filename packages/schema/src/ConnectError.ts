/**
 * Connect errors (decisions.md section 2): the 16 codes, the error body, the code/status table in
 * both directions and the typed `ConnectError`.
 *
 * @since 0.1.0
 */

export {
  /**
   * Each Connect code with its HTTP status (the current Connect mapping).
   *
   * @since 0.1.0
   * @category codes
   */
  statusByCode,
  /**
   * The 16 codes.
   *
   * @since 0.1.0
   * @category codes
   */
  codes,
  /**
   * The HTTP status of a code. `unimplemented` is 501, except for an unknown route (404).
   *
   * @since 0.1.0
   * @category codes
   */
  statusOf,
  /**
   * Whether an HTTP status may carry a code: the status of the code, or 404 for `unimplemented`
   * on an unknown route.
   *
   * @since 0.1.0
   * @category codes
   */
  statusAgrees,
  /**
   * The code a reader assumes when the body is not a valid Connect error: 401 unauthenticated,
   * 403 permission_denied, 404 unimplemented, 429/502/503/504 unavailable, anything else unknown.
   *
   * @since 0.1.0
   * @category codes
   */
  codeFromStatus,
  /**
   * Codes that say the service did not act and the call may be tried again.
   *
   * @since 0.1.0
   * @category codes
   */
  transientCodes
} from "@data-access/core/Code"

export * from "./internal/errorBody.js"
export * from "./internal/connectError.js"
