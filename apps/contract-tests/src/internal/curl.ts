/** The implementation of `Curl` (see that module's documentation). */
import { createHash } from "node:crypto"
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

/**
 * Bytes of a body shown whole in a report or on the terminal; a longer one is shortened, and a
 * curl line reads it from a file in `BODY_FOLDER`.
 *
 * @since 0.7.0
 * @category constants
 */
export const BODY_LIMIT = 4096

/**
 * The folder, under the working directory, that the command line writes each large body of a
 * curl line to.
 *
 * @since 0.7.0
 * @category constants
 */
export const BODY_FOLDER = "reports/bodies"

const bytesOf = (text: string): number => Buffer.byteLength(text, "utf8")

/** The hex SHA-256 digest of the text's UTF-8 bytes. */
const digestOf = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/**
 * Whether a body is past `BODY_LIMIT` bytes (shortened when shown, read from a file by curl).
 *
 * @since 0.7.0
 * @category rendering
 */
export const isLarge = (body: string): boolean => bytesOf(body) > BODY_LIMIT

/**
 * A body as a report shows it: whole up to `BODY_LIMIT` bytes, else its start followed by its
 * full size in bytes and its SHA-256 digest.
 *
 * @since 0.7.0
 * @category rendering
 */
export const shorten = (body: string): string =>
  isLarge(body)
    ? `${Buffer.from(body, "utf8")
        .subarray(0, BODY_LIMIT)
        .toString("utf8")
        .replace(/\uFFFD$/, "")}… [shortened: ${bytesOf(body)} bytes, sha256 ${digestOf(body)}]`
    : body

/**
 * The file, relative to the working directory, a curl line reads a large body from: named by
 * the body's digest, so that equal bodies share one file.
 *
 * @since 0.7.0
 * @category rendering
 */
export const bodyFile = (body: string): string =>
  `${BODY_FOLDER}/${digestOf(body).slice(0, 16)}.body`

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
 * The request as a one-line `curl` command against `baseUrl`; a body is shown through `show`
 * (default: as it is), and one past `BODY_LIMIT` bytes is read from its `bodyFile`, which the
 * command line writes.
 *
 * @since 0.1.0
 * @category rendering
 */
export const render = (
  baseUrl: string,
  request: RawRequest,
  show: (body: string) => string = (body) => body
): string => {
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
  const shown = bodyless && (request.body ?? "") === "" ? undefined : displayBody(request.body)
  const body = shown === undefined ? undefined : show(shown)
  if (bodyless && body !== undefined) parts.splice(3, 0, "-X", request.method)
  const file = body !== undefined && isLarge(body) ? bodyFile(body) : undefined
  if (body !== undefined && request.contentEncoding !== undefined) {
    // The body is compressed by the shell on its way in, as it was sent.
    parts.push("-H", quote(`Content-Encoding: ${request.contentEncoding}`), "--data-binary", "@-")
    const compress = COMPRESSORS[request.contentEncoding as keyof typeof COMPRESSORS]
    return file === undefined
      ? `printf %s ${quote(body)} | ${compress} | ${parts.join(" ")}`
      : `${compress} < ${quote(file)} | ${parts.join(" ")}`
  }
  if (body !== undefined)
    parts.push("--data-binary", file === undefined ? quote(body) : quote(`@${file}`))
  return parts.join(" ")
}
