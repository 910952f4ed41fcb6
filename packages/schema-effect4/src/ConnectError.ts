/**
 * Connect errors: the wire body, the code table (generated from `@data-access/schema`) and the
 * `ConnectError` class (generated from `@data-access/schema`'s, with Effect 4's names).
 *
 * @since 0.1.0
 */
import { type Code, transientCodes } from "./generated/ConnectError.js"

export {
  codes,
  Code,
  ErrorBody,
  ErrorDetail,
  RateLimit,
  statusByCode
} from "./generated/ConnectError.js"

/**
 * Codes that say the service did not act and the call may be tried again.
 *
 * @since 0.1.0
 * @category codes
 */
export const transient: ReadonlySet<Code> = transientCodes as ReadonlySet<Code>

export {
  /**
   * The HTTP status of a code.
   *
   * @since 0.1.0
   * @category codes
   */
  statusOf,
  /**
   * Whether an HTTP status agrees with a code (`unimplemented` may also come as a 404).
   *
   * @since 0.1.0
   * @category codes
   */
  statusAgrees,
  /**
   * The code a response without a Connect body stands for, from its HTTP status.
   *
   * @since 0.1.0
   * @category codes
   */
  codeFromStatus
} from "@data-access/core/Code"

export * from "./generated/internal/connectError.js"
