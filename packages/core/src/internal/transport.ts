import { messageOf } from "./operation.js"
import type { Phase } from "../Transport.js"

const connectPhaseCodes: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT"
])

export const systemErrorCode = (u: unknown, depth = 0): string | undefined => {
  if (depth > 5 || u === null || typeof u !== "object") return undefined
  const code = (u as { readonly code?: unknown }).code
  if (typeof code === "string" && /^[A-Z_]+$/.test(code)) return code
  return systemErrorCode((u as { readonly cause?: unknown }).cause, depth + 1)
}

export const isConnectPhase = (code: string | undefined): boolean =>
  code !== undefined && connectPhaseCodes.has(code)

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

export const unbuildableMessage = (operation: string, reason: string): string =>
  messageOf(operation, `${reason}: the request could not be built (check the base URL)`)
