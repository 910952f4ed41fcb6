/**
 * How many times the runner and the proxy send a request again when its connection broke before
 * any answer came: a faithful server closes an idle keep-alive connection when it chooses, and a
 * request sent on it as it closes breaks the same way (the busier the machine, the more often).
 * A request that breaks on every connection is still a server's broken connection.
 */
export const RESENDS_AFTER_BREAK = 2

/** The error codes of a connection that closed or was refused before any byte of an answer. */
const BREAKS = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "ECONNREFUSED"])

/**
 * Whether an error (or an error it wraps) is a connection that broke before any answer: sent
 * again. A broken answer (a parse error), a timeout or an abort is not.
 */
export const brokeBeforeAnswer = (error: unknown): boolean => {
  for (let e = error, depth = 0; e !== null && typeof e === "object" && depth < 8; depth++) {
    if (BREAKS.has(String((e as { code?: unknown }).code))) return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}
