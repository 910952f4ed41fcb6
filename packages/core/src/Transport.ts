/**
 * Transport failures: no HTTP response arrived. Where it happened (`connect`: the connection never
 * opened, so the service certainly did not act; `exchange`: the request may have reached it) and
 * how the error says so.
 *
 * @since 0.1.0
 */
import { messageOf } from "./Operation.js"

const connectPhaseCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT"
])

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
export const systemErrorCode = (u: unknown, depth = 0): string | undefined => {
  if (depth > 5 || u === null || typeof u !== "object") return undefined
  const code = (u as { readonly code?: unknown }).code
  if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code
  return systemErrorCode((u as { readonly cause?: unknown }).cause, depth + 1)
}

/**
 * Whether a system error code means the connection never opened.
 *
 * @since 0.1.0
 * @category reading
 */
export const isConnectPhase = (code: string | undefined): boolean =>
  code !== undefined && connectPhaseCodes.has(code)

/**
 * The fields of a `TransportError` from the cause of a failed send. `sending` is true when the
 * HTTP client failed while sending (then a connect-phase code means the connection never opened);
 * false when the response failed.
 *
 * @since 0.1.0
 * @category reading
 */
export const failure = (
  operation: string,
  sending: boolean,
  cause: unknown
): {
  readonly operation: string
  readonly phase: Phase
  readonly message: string
  readonly errorCode?: string
} => {
  const code = systemErrorCode(cause)
  const phase: Phase = sending && isConnectPhase(code) ? "connect" : "exchange"
  return {
    operation,
    phase,
    message: messageOf(
      operation,
      `${phase === "connect" ? "the connection could not be opened" : "the exchange failed before a response arrived"}${code ? ` (${code})` : ""}`
    ),
    ...(code !== undefined ? { errorCode: code } : {})
  }
}

/**
 * The message of a request that could not be built (an invalid URL, a body that could not be
 * encoded).
 *
 * @since 0.1.0
 * @category reading
 */
export const unbuildableMessage = (operation: string, reason: string): string =>
  messageOf(operation, `${reason}: the request could not be built (check the base URL)`)
