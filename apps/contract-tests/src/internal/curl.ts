/** The implementation of `Curl` (see that module's documentation). */
import { Secrets } from "@data-access/schema"
import type { RawRequest } from "./http.js"
import { WRONG_KEY } from "./keys.js"

/**
 * The environment variable the rendered command reads the key from.
 *
 * @since 0.1.0
 * @category constants
 */
export const API_KEY_ENV = "DATA_ACCESS_API_KEY"

/** A command that compresses standard input with each Content-Encoding. */
const COMPRESSORS = { gzip: "gzip -c", deflate: "pigz -zc", br: "brotli -c" } as const

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/**
 * A request body as shown in reports: JSON with secret fields redacted, or the raw text when it
 * is not JSON.
 *
 * @since 0.1.0
 * @category rendering
 */
export const displayBody = (body: string | undefined): string | undefined => {
  if (body === undefined) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return body
  }
  return JSON.stringify(Secrets.redact(parsed))
}

/**
 * The request as a one-line `curl` command against `baseUrl`.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (baseUrl: string, request: RawRequest): string => {
  const parts: Array<string> = ["curl", "-sS", "-i"]
  if (request.method !== "GET") parts.push("-X", request.method)
  parts.push(quote(baseUrl.replace(/\/+$/, "") + request.path))
  switch (request.key) {
    case "valid":
      parts.push("-H", `"X-API-KEY: $${API_KEY_ENV}"`)
      break
    case "empty":
      parts.push("-H", quote("X-API-KEY;"))
      break
    case "wrong":
      parts.push("-H", quote(`X-API-KEY: ${WRONG_KEY}`))
      break
    // Near keys are made from the key by the shell, never written.
    case "extended":
      parts.push("-H", `"X-API-KEY: \${${API_KEY_ENV}}x"`)
      break
    case "shortened":
      parts.push("-H", `"X-API-KEY: \${${API_KEY_ENV}%?}"`)
      break
    case "recased":
      parts.push("-H", `"X-API-KEY: $(printf %s "$${API_KEY_ENV}" | tr a-zA-Z A-Za-z)"`)
      break
    case "missing":
      break
  }
  if (request.contentType !== undefined)
    parts.push("-H", quote(`Content-Type: ${request.contentType}`))
  if (request.protocolVersion !== undefined)
    parts.push("-H", quote(`Connect-Protocol-Version: ${request.protocolVersion}`))
  for (const [k, v] of Object.entries(request.headers)) {
    if (k.toLowerCase() === "x-api-key") continue
    parts.push("-H", quote(`${k}: ${v}`))
  }
  // A GET or HEAD carries no body (a Connect GET has its message in the query): curl would send
  // any --data as a POST.
  const bodyless = request.method === "GET" || request.method === "HEAD"
  const body = bodyless && (request.body ?? "") === "" ? undefined : displayBody(request.body)
  if (bodyless && body !== undefined) parts.splice(3, 0, "-X", request.method)
  if (body !== undefined && request.contentEncoding !== undefined) {
    // The body is compressed by the shell on its way in, as it was sent.
    parts.push("-H", quote(`Content-Encoding: ${request.contentEncoding}`), "--data-binary", "@-")
    return `printf %s ${quote(body)} | ${COMPRESSORS[request.contentEncoding as keyof typeof COMPRESSORS]} | ${parts.join(" ")}`
  }
  if (body !== undefined) parts.push("--data-binary", quote(body))
  return parts.join(" ")
}
