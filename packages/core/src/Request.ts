/**
 * Building a request: the base URL's check, the URL of an operation, the headers every call sends
 * and the JSON body. Everything here is plain data; each Effect line turns it into its own
 * `HttpClientRequest`.
 *
 * @since 0.1.0
 */
import * as ContentType from "./ContentType.js"

/**
 * The header that carries the API key.
 *
 * @since 0.1.0
 * @category headers
 */
export const API_KEY_HEADER = "x-api-key"

/**
 * The media type of every request body.
 *
 * @since 0.1.0
 * @category headers
 */
export const CONTENT_TYPE: string = ContentType.JSON_MEDIA_TYPE

/**
 * The base URL without its trailing slashes when it is an absolute `http:` or `https:` URL;
 * `undefined` otherwise.
 *
 * @since 0.1.0
 * @category base URL
 */
export const normalizeBaseUrl = (baseUrl: string): string | undefined =>
  URL.canParse(baseUrl) && /^https?:$/.test(new URL(baseUrl).protocol)
    ? baseUrl.replace(/\/+$/, "")
    : undefined

/**
 * What `normalizeBaseUrl` refuses, said once for both lines' configuration errors.
 *
 * @since 0.1.0
 * @category base URL
 */
export const INVALID_BASE_URL = "baseUrl must be an absolute http(s) URL"

/**
 * What a request needs to know about its operation.
 *
 * @since 0.1.0
 * @category models
 */
export interface Target {
  readonly path: string
  readonly requiredHeaders?: Readonly<Record<string, string>> | undefined
}

/**
 * The URL of an operation under a normalized base URL.
 *
 * @since 0.1.0
 * @category requests
 */
export const url = (baseUrl: string, op: Target): string => `${baseUrl}${op.path}`

/**
 * The headers every attempt of an operation sends, but the deadline: the Connect protocol version,
 * the `User-Agent`, the operation's required headers and the API key.
 *
 * @since 0.1.0
 * @category requests
 */
export const headers = (op: Target, userAgent: string, apiKey: string): Record<string, string> => ({
  "connect-protocol-version": "1",
  "user-agent": userAgent,
  ...op.requiredHeaders,
  [API_KEY_HEADER]: apiKey
})

/**
 * The body of a request: the encoded request as JSON text.
 *
 * @since 0.1.0
 * @category requests
 */
export const body = (encoded: unknown): string => JSON.stringify(encoded)

/**
 * Whether a list of header names to redact (a string compared without case, or a pattern) covers
 * the API key header.
 *
 * @since 0.1.0
 * @category redaction
 */
export const redactsApiKey = (names: ReadonlyArray<string | RegExp>): boolean =>
  names.some((n) =>
    typeof n === "string" ? n.toLowerCase() === API_KEY_HEADER : n.test(API_KEY_HEADER)
  )
