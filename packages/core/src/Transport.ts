/**
 * Transport failures: no HTTP response arrived. Where it happened (`connect`: the connection never
 * opened, so the service certainly did not act; `exchange`: the request may have reached it) and
 * how the error says so.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/transport.js"

/**
 * Where a transport failure happened.
 *
 * @since 0.1.0
 * @category models
 */
export type Phase = "connect" | "exchange"

/**
 * Finds a system error code (`ECONNREFUSED`) in an error and its causes.
 *
 * @since 0.1.0
 * @category reading
 */
export const systemErrorCode: (u: unknown, depth?: number) => string | undefined =
  internal.systemErrorCode

/**
 * Whether a system error code means the connection never opened.
 *
 * @since 0.1.0
 * @category reading
 */
export const isConnectPhase: (code: string | undefined) => boolean = internal.isConnectPhase

/**
 * The fields of a `TransportError` from the cause of a failed send. `sending` is true when the
 * HTTP client failed while sending (then a connect-phase code means the connection never opened);
 * false when the response failed.
 *
 * @since 0.1.0
 * @category reading
 */
export const failure: (
  operation: string,
  sending: boolean,
  cause: unknown
) => {
  readonly operation: string
  readonly phase: Phase
  readonly message: string
  readonly errorCode?: string
} = internal.failure

/**
 * The message of a request that could not be built (an invalid URL, a body that could not be
 * encoded).
 *
 * @since 0.1.0
 * @category reading
 */
export const unbuildableMessage: (operation: string, reason: string) => string =
  internal.unbuildableMessage
