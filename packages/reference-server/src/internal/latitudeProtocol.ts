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
  const q = url.indexOf("?")
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
      if (out._tag !== "Response" || out.status !== 200 || op === undefined) return out
      const body = parseJson(out.body)
      const items = body?.[op.itemField!]
      if (body === undefined || (Array.isArray(items) && items.length > 0)) return out
      const meta = isRecord(body.listMetadata) ? body.listMetadata : {}
      // An empty page written as `{}` or with an empty listMetadata reads as the same zero values
      // (decisions.md section 1: readers treat an absent field as its zero value).
      const listMetadata = { after: "", before: "", ...meta }
      return { ...out, body: JSON.stringify({ ...body, listMetadata }) }
    })

/** empty-protocol-bodies: the 405 and 415 answers have an empty body. */
// A Connect error body is the other faithful choice; an empty body with another content type is
// still empty.
export const emptyProtocolBodies =
  (handle: Handle): Handle =>
  (input) =>
    Effect.map(handle(input), (out) =>
      out._tag === "Response" && (out.status === 405 || out.status === 415)
        ? { ...out, headers: { ...out.headers, "content-type": "text/plain" }, body: "" }
        : out
    )

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
      if (now >= windowEnd) {
        windowEnd = now - (now % RATE_WINDOW_SECONDS) + RATE_WINDOW_SECONDS
        used = 0
      }
      used++
      const { "x-request-id": _, ...headers } = out.headers
      return {
        ...out,
        headers: {
          ...RateLimit.headers(RATE_LIMIT, RATE_LIMIT - used, windowEnd),
          // A rate-limited answer keeps its own figures.
          ...headers
        }
      }
    })
}

/** connect-get: a Connect GET (`?encoding=json&message=...`) of a read, as the POST it stands for. */
const fromConnectGet = (input: Input): Input | undefined => {
  const q = input.url.indexOf("?")
  if (q === -1) return undefined
  const path = input.url.slice(0, q)
  const op = Operations.byPath.get(path)
  if (op === undefined || (op.kind !== "get" && op.kind !== "list")) return undefined
  const params = new URLSearchParams(input.url.slice(q + 1))
  const encoding = params.get("encoding")
  if (encoding === null) return undefined
  const message = params.get("message")
  const text = message ?? ""
  // Node's base64 decoder reads the URL-safe alphabet too, padded or not.
  const bytes =
    params.get("base64") === "1" ? Buffer.from(text, "base64") : Buffer.from(text, "utf8")
  const { "content-encoding": _, ...headers } = input.headers
  const compression = params.get("compression")
  return {
    method: "POST",
    url: path,
    headers: {
      ...headers,
      "content-type": `application/${encoding}`,
      "content-length": String(bytes.length),
      ...(compression !== null && compression !== "identity"
        ? { "content-encoding": compression }
        : {}),
      ...(params.get("connect") === "v1" ? { "connect-protocol-version": "1" } : {})
    },
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
  const bytes = typeof out.body === "string" ? Buffer.from(out.body) : out.body
  if (bytes.length < COMPRESS_FROM_BYTES) return out
  const body = Compression.compress(bytes, encoding)
  return { ...out, headers: { ...out.headers, "content-encoding": encoding }, body }
}

export const connectGet =
  (handle: Handle): Handle =>
  (input) => {
    const request = (input.method === "GET" ? fromConnectGet(input) : undefined) ?? input
    const encoding = Compression.parseContentEncoding(request.headers["content-encoding"])
    return Effect.map(
      handle(encoding._tag === "Compressed" ? decompressed(request, encoding.encoding) : request),
      (out) => compressedAnswer(out, input.headers["accept-encoding"])
    )
  }
