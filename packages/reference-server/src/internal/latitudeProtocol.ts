/**
 * The latitude switches around the request (hooks around the whole pipeline): empty pages'
 * metadata, empty protocol bodies, rate-limit headers, Connect GET and compression.
 * `latitude.ts` puts them in the switches' records.
 *
 * @internal
 */
import { Operations, RateLimit } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { type Handle, type Input, type Op, type Output } from "./pipeline-types.js"
import { isRecord } from "./latitudeChecks.js"

const pathOf = (url: string) => {
  // Stryker disable next-line StringLiteral: latitude empty-page-meta: after and before left out
  const q = url.indexOf("?")
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator,MethodExpression: latitude empty-page-meta: after and before left out
  return q === -1 ? url : url.slice(0, q)
}

const utf8 = new TextDecoder("utf-8")

const parseText = Option.liftThrowable((text: string): unknown => JSON.parse(text))

const parseJson = (body: string | Uint8Array): Record<string, unknown> | undefined => {
  const value = Option.getOrUndefined(
    parseText(typeof body === "string" ? body : utf8.decode(body))
  )
  return isRecord(value) ? value : undefined
}

const lists: ReadonlyMap<string, Op> = new Map(
  Operations.all.filter((o) => o.kind === "list").map((o) => [o.path, o])
)

/** page-size: the most items a page holds, whatever `limit` asks. */
export const PAGE_SIZE = 100

/** empty-page-meta: an empty page writes `after` and `before` as `""`. */
export const emptyPageMeta =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) => {
      const op = lists.get(pathOf(input.url))
      // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude empty-page-meta: after and before left out
      if (out._tag !== "Response" || out.status !== 200 || op === undefined) return out
      const body = parseJson(out.body)
      const items = body?.[op.itemField!]
      // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude empty-page-meta: after and before left out
      if (body === undefined || (Array.isArray(items) && items.length > 0)) return out
      const meta = isRecord(body.listMetadata) ? body.listMetadata : {}
      // An empty page written as `{}` or with an empty listMetadata reads as the same zero values
      // (decisions.md section 1: readers treat an absent field as its zero value).
      // Stryker disable next-line ObjectLiteral: equivalent: zero values
      const listMetadata = { after: "", before: "", ...meta }
      // Stryker disable next-line ObjectLiteral: equivalent: zero values
      return { ...out, body: JSON.stringify({ ...body, listMetadata }) }
    })

/** empty-protocol-bodies: the 405 and 415 answers have an empty body. */
// A Connect error body is the other faithful choice; an empty body with another content type is
// still empty.
// Stryker disable StringLiteral: latitude empty-protocol-bodies: a Connect error body
export const emptyProtocolBodies =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) =>
      // Stryker disable next-line ConditionalExpression: latitude empty-protocol-bodies: a Connect error body
      out._tag === "Response" && (out.status === 405 || out.status === 415)
        ? { ...out, headers: { ...out.headers, "content-type": "text/plain" }, body: "" }
        : out
    )

// Stryker restore StringLiteral
const RATE_LIMIT = 10_000
const RATE_WINDOW_SECONDS = 60

/** rate-limit-headers: `X-Ratelimit-*` on every answer (a fixed window that nothing enforces), no `X-Request-Id`. */
export const rateLimitHeaders = (handle: Handle): Handle => {
  let windowEnd = 0
  let used = 0
  return (input) =>
    Effect.map(handle(input), (out) => {
      if (out._tag !== "Response") return out
      const now = Math.floor(Date.now() / 1000)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude rate-limit-headers: the server's own figures
      if (now >= windowEnd) {
        // Stryker disable next-line ArithmeticOperator: latitude rate-limit-headers: the server's own figures
        windowEnd = now - (now % RATE_WINDOW_SECONDS) + RATE_WINDOW_SECONDS
        used = 0
      }
      // Stryker disable next-line UpdateOperator: latitude rate-limit-headers: the server's own figures
      used++
      const { "x-request-id": _, ...headers } = out.headers
      return {
        ...out,
        headers: {
          // Stryker disable next-line ArithmeticOperator: latitude rate-limit-headers: the server's own figures
          ...RateLimit.headers(RATE_LIMIT, RATE_LIMIT - used, windowEnd),
          // A rate-limited answer keeps its own figures.
          ...headers
        }
      }
    })
}

/** connect-get: a Connect GET (`?encoding=json&message=...`) of a read, as the POST it stands for. */
const fromConnectGet = (input: Input): Input | undefined => {
  // Stryker disable next-line StringLiteral: latitude connect-get: a GET not read as a Connect GET is refused
  const q = input.url.indexOf("?")
  // Stryker disable next-line ConditionalExpression,EqualityOperator,UnaryOperator: latitude connect-get: a GET not read as a Connect GET is refused
  if (q === -1) return undefined
  // Stryker disable next-line MethodExpression: latitude connect-get: a GET not read as a Connect GET is refused
  const path = input.url.slice(0, q)
  const op = Operations.byPath.get(path)
  // Stryker disable next-line ConditionalExpression: latitude connect-get: a GET not read as a Connect GET is refused
  if (op === undefined || (op.kind !== "get" && op.kind !== "list")) return undefined
  // Stryker disable next-line MethodExpression,ArithmeticOperator: latitude connect-get: a query read from the wrong place loses its first parameter
  const params = new URLSearchParams(input.url.slice(q + 1))
  // Stryker disable next-line StringLiteral: latitude connect-get: a GET without its encoding read is refused
  const encoding = params.get("encoding")
  // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude connect-get: a GET without an encoding is refused either way
  if (encoding === null) return undefined
  const message = params.get("message")
  // Stryker disable next-line StringLiteral: equivalent: refused either way
  const text = message ?? ""
  // Node's base64 decoder reads the URL-safe alphabet too, padded or not.
  const bytes =
    params.get("base64") === "1" ? Buffer.from(text, "base64") : Buffer.from(text, "utf8")
  const { "content-encoding": _, ...headers } = input.headers
  const compression = params.get("compression")
  return {
    // Stryker disable next-line StringLiteral: latitude connect-get: a GET turned into another method is refused
    method: "POST",
    url: path,
    // Stryker disable next-line ObjectLiteral: latitude connect-get: a GET without a content type is refused
    headers: {
      ...headers,
      // Stryker disable next-line StringLiteral: latitude connect-get: a GET without a content type is refused
      "content-type": `application/${encoding}`,
      "content-length": String(bytes.length),
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: `true` sets `identity` or nothing
      ...(compression !== null && compression !== "identity"
        ? { "content-encoding": compression }
        : {}),
      // Stryker disable next-line ObjectLiteral,StringLiteral,ConditionalExpression,EqualityOperator: equivalent: no read requires the header
      ...(params.get("connect") === "v1" ? { "connect-protocol-version": "1" } : {})
    },
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: body limit
    body: (max) => Effect.succeed(bytes.length > max ? "too-large" : bytes)
  }
}

/** connect-get: a compressed body (gzip, deflate, br), decompressed (the size limit applies to what it decompresses to). */
const decompressed = (input: Input, encoding: Compression.Encoding): Input => {
  const { "content-encoding": _, ...headers } = input.headers
  return {
    ...input,
    headers,
    body: (max) =>
      Effect.map(input.body(max), (bytes) => {
        if (bytes === "too-large") return bytes
        // Over the limit; or not what it says it is, which then reads as a body that is not JSON.
        return Either.getOrElse(Compression.decompress(bytes, encoding, max), (e) =>
          e.reason === "TooLarge" ? ("too-large" as const) : bytes
        )
      })
  }
}

/** Answers from this size up are compressed for a client that offers an encoding, as Connect servers do. */
const COMPRESS_FROM_BYTES = 1024

/** connect-get: an answer of at least 1 KiB compressed with the first encoding the client offers (`Accept-Encoding`). */
const compressedAnswer = (out: Output, acceptEncoding: string | undefined): Output => {
  const encoding = Compression.parseAcceptEncoding(acceptEncoding)[0]
  if (
    out._tag !== "Response" ||
    encoding === undefined ||
    out.headers["content-encoding"] !== undefined
  )
    return out
  // Stryker disable next-line EqualityOperator: equivalent: same bytes
  const bytes = typeof out.body === "string" ? Buffer.from(out.body) : out.body
  // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude connect-get: any size
  if (bytes.length < COMPRESS_FROM_BYTES) return out
  const body = Compression.compress(bytes, encoding)
  return { ...out, headers: { ...out.headers, "content-encoding": encoding }, body }
}

export const connectGet =
  (handle: Handle): Handle =>
  (input) => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: latitude connect-get: a GET not read as a Connect GET is refused
    const request = (input.method === "GET" ? fromConnectGet(input) : undefined) ?? input
    // Stryker disable next-line StringLiteral: latitude connect-get: refused as compressed
    const encoding = Compression.parseContentEncoding(request.headers["content-encoding"])
    return Effect.map(
      handle(encoding._tag === "Compressed" ? decompressed(request, encoding.encoding) : request),
      (out) =>
        // Stryker disable next-line StringLiteral: latitude connect-get: never compressed
        compressedAnswer(out, input.headers["accept-encoding"])
    )
  }
