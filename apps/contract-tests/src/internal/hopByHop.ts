/**
 * The headers that describe one connection rather than the message (RFC 9110 section 7.6.1):
 * a relay does not pass them on, and HTTP/2 has no place for them.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade"
])
