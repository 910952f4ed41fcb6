/**
 * One exchange as a HAR 1.2 entry, with every secret masked: the values of `X-API-KEY`,
 * `Authorization` and cookie headers, the keys given, and the value of every secret field of the
 * request's and the answer's JSON bodies (`[redacted]`, as in every report; a base64 secret as
 * the base64 of `[redacted]`, so that the masked request breaks the rules the sent one broke). Bodies are written
 * decoded as HAR 1.2 says (a compressed one decompressed, by the proxy's own reading); one that
 * cannot be decoded is written as sent, in base64; a binary-codec body is not written (it may hold
 * secret fields that cannot be found in it), only its size.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { ContentType, Primitives, Secrets } from "@data-access/schema"
import type * as Har from "./model.js"
import { readable } from "../decodedBodies.js"
import { SAFE_STRING_LENGTH } from "../textLength.js"
import { version } from "../version.js"

/** The creator written into every HAR of this package. */
export const creator = { name: "@data-access/contract-tests", version } as const

/** A HAR document of the given entries. */
export const make = (entries: ReadonlyArray<Har.Entry>, comment?: string): Har.Har => ({
  log: { version: "1.2", creator, entries, ...(comment === undefined ? {} : { comment }) }
})

/** A body's text cut to `maxBytes` bytes (base64 text at a whole group of four characters). */
const cut = (text: string, maxBytes: number, base64: boolean): string =>
  base64
    ? text.slice(0, Math.floor(maxBytes / 4) * 4)
    : Buffer.from(text, "utf8")
        .subarray(0, maxBytes)
        .toString("utf8")
        .replace(/\uFFFD$/, "")

/** What a shortened body's HAR 1.2 `comment` says, after any comment it had. */
const shortenedComment = (comment: string | undefined, text: string, maxBytes: number) =>
  `${comment === undefined ? "" : `${comment}; `}body shortened to its first ${maxBytes} bytes of ${Buffer.byteLength(text, "utf8")} (--har-max-body)`

/**
 * The HAR with every request and answer body longer than `limit` bytes cut to that length,
 * each saying so in its HAR 1.2 `comment`; the sizes stay the bodies' whole sizes.
 */
export const limitBodies = (har: Har.Har, limit: number): Har.Har => {
  // A negative limit keeps nothing of a body, as 0 does.
  const maxBytes = Math.max(0, limit)
  const over = (text: string | undefined): text is string =>
    text !== undefined && Buffer.byteLength(text, "utf8") > maxBytes
  return {
    log: {
      ...har.log,
      entries: har.log.entries.map((e) => {
        const post = e.request.postData
        const content = e.response.content
        return {
          ...e,
          request:
            post === undefined || !over(post.text)
              ? e.request
              : {
                  ...e.request,
                  postData: {
                    ...post,
                    text: cut(post.text, maxBytes, post.encoding === "base64"),
                    comment: shortenedComment(post.comment, post.text, maxBytes)
                  }
                },
          response: !over(content.text)
            ? e.response
            : {
                ...e.response,
                content: {
                  ...content,
                  text: cut(content.text, maxBytes, content.encoding === "base64"),
                  comment: shortenedComment(content.comment, content.text, maxBytes)
                }
              }
        }
      })
    }
  }
}

/** One exchange as seen on the wire. Header names are lower case. */
export interface Recorded {
  readonly startedAt: number
  readonly durationMs: number
  readonly method: string
  /** The whole URL, query included. */
  readonly url: string
  readonly requestHeaders: Readonly<Record<string, string>>
  /** The request body as sent; `undefined` when it was not kept whole. */
  readonly requestBody: Uint8Array | undefined
  readonly requestBodyBytes: number
  /** 0 when no answer came. */
  readonly status: number
  readonly responseHeaders: Readonly<Record<string, string>>
  /** The answer's body as sent; `undefined` when it was not kept whole. */
  readonly responseBody: Uint8Array | undefined
  /** Why no answer came. */
  readonly error: string | undefined
  /** Secret values known besides the bodies' secret fields (the API keys seen). */
  readonly secrets: Iterable<string>
  /** Bytes a body may decompress to. */
  readonly limit: number
  /** What a judge already read (the proxy's): the request's secret values, the answer as JSON. */
  readonly read?:
    { readonly requestSecrets: ReadonlyArray<string>; readonly responseJson: unknown } | undefined
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

const text = (bytes: Uint8Array): string | undefined => {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

const jsonOf = (s: string | undefined): unknown =>
  s === undefined ? undefined : Option.getOrUndefined(Option.liftThrowable(JSON.parse)(s))

const isBase64 = Schema.is(Schema.typeSchema(Primitives.Base64Secret))

/**
 * The mask of a secret value: `[redacted]`, or its base64 form `W3JlZGFjdGVkXQ==` for a value
 * that is base64 bytes; with a control character when the value has one, and longer than 255
 * characters when the value is. A masked request breaks the same rules as the request sent (a
 * secret field that must be base64, the lenient string limits), so that the HAR judged offline
 * gives the findings the traffic gave live.
 */
const BASE64_MASK = Buffer.from(Secrets.REDACTED).toString("base64")

/**
 * The mask of an `X-API-KEY` value, wherever it appears: another than a secret field's, so that an
 * answer quoting a secret field is not read as one quoting the key (offline judging looks for the
 * masks where live judging looked for the values).
 */
export const KEY_MASK = "[redacted:key]"

/**
 * An answer's own text that reads like a mask (a server that writes `[redacted]` itself) is written
 * in upper case, so that a mask in a HAR of this writer is always a masked secret.
 */
const unmistakable = (text: string): string =>
  [Secrets.REDACTED, KEY_MASK, BASE64_MASK].reduce(
    (t, mask) =>
      t.includes(mask)
        ? t
            .split(mask)
            .join(
              mask === BASE64_MASK
                ? Buffer.from(Secrets.REDACTED.toUpperCase()).toString("base64")
                : mask.toUpperCase()
            )
        : t,
    text
  )

const maskOf = (value: string): string => {
  const base = isBase64(Redacted.make(value)) ? BASE64_MASK : Secrets.REDACTED
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/.test(value) ? "\u0007" : ""
  const long =
    value.length > SAFE_STRING_LENGTH
      ? "A".repeat(Math.ceil((SAFE_STRING_LENGTH + 1 - base.length) / 4) * 4)
      : ""
  return long + base + control
}

/** Every secret's forms in a text (itself, JSON-escaped, URL-encoded), each with its mask's same form; longest first. */
const masker = (
  secrets: Iterable<string>,
  mask_: (secret: string) => string = maskOf
): ((text: string) => string) => {
  const pairs: Array<readonly [string, string]> = []
  for (const secret of new Set(secrets)) {
    if (secret.length < Secrets.MIN_LENGTH) continue
    const mask = mask_(secret)
    pairs.push(
      [secret, mask],
      [JSON.stringify(secret).slice(1, -1), JSON.stringify(mask).slice(1, -1)],
      [encodeURIComponent(secret), encodeURIComponent(mask)]
    )
  }
  pairs.sort((a, b) => b[0].length - a[0].length)
  return (text) =>
    pairs.reduce((t, [secret, mask]) => (t.includes(secret) ? t.split(secret).join(mask) : t), text)
}

interface Body {
  readonly text: string | undefined
  readonly base64: string | undefined
  /** Bytes saved by compression (decoded length minus sent length). */
  readonly compression: number | undefined
  readonly size: number
  readonly comment: string | undefined
}

/** A body as HAR writes it, before masking. */
const bodyOf = (
  bytes: Uint8Array | undefined,
  bytesSent: number,
  headers: Readonly<Record<string, string>>,
  limit: number
): Body => {
  if (bytes === undefined)
    return {
      text: undefined,
      base64: undefined,
      compression: undefined,
      size: bytesSent,
      comment: `not recorded: longer than ${limit} bytes, or not received whole`
    }
  if (ContentType.isProto(headers["content-type"])) {
    return {
      text: undefined,
      base64: undefined,
      compression: undefined,
      size: bytes.length,
      comment: "not recorded: a binary-codec body (its secret fields cannot be found to mask them)"
    }
  }
  const decoded = readable(bytes, headers["content-encoding"], limit)
  const asText = decoded === undefined ? undefined : text(decoded)
  if (decoded !== undefined && asText !== undefined) {
    return {
      text: asText,
      base64: undefined,
      compression: decoded === bytes ? undefined : decoded.length - bytes.length,
      size: decoded.length,
      comment: undefined
    }
  }
  return {
    text: undefined,
    base64: Buffer.from(bytes).toString("base64"),
    compression: undefined,
    size: bytes.length,
    comment: "as sent: it could not be decoded"
  }
}

const MASKED_HEADERS = new Set([...Secrets.headerNames, "set-cookie"])

const headersOf = (
  headers: Readonly<Record<string, string>>,
  scrub: (s: string) => string
): Array<{ name: string; value: string }> =>
  Object.entries(headers).map(([name, value]) => ({
    name,
    value:
      MASKED_HEADERS.has(name) && value !== ""
        ? name === "x-api-key"
          ? KEY_MASK
          : Secrets.REDACTED
        : scrub(value)
  }))

const statusText = (status: number): string => (status === 0 ? "" : (STATUS_TEXT[status] ?? ""))

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: "OK",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  499: "Client Closed Request",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}

/** The HAR entry of one exchange, every secret masked. */
export const entryOf = (r: Recorded): Har.Entry => {
  const request = bodyOf(r.requestBody, r.requestBodyBytes, r.requestHeaders, r.limit)
  const response = bodyOf(r.responseBody, r.responseBody?.length ?? 0, r.responseHeaders, r.limit)
  const sentKey = r.requestHeaders["x-api-key"]
  const keys = masker([...r.secrets, ...(sentKey === undefined ? [] : [sentKey])], () => KEY_MASK)
  // A Connect GET carries its message in the query (`?message=...`): its secret fields too.
  const query = Either.getOrElse(
    Either.try(() =>
      [...new URL(r.url).searchParams.values()].flatMap((v) => Secrets.values(jsonOf(v)))
    ),
    (): ReadonlyArray<string> => []
  )
  const requestSecrets = r.read?.requestSecrets ?? Secrets.values(jsonOf(request.text))
  const responseSecrets = Secrets.values(
    r.read === undefined ? jsonOf(response.text) : r.read.responseJson
  )
  const fields = masker([...requestSecrets, ...responseSecrets, ...query])
  const scrub = (text: string) => fields(keys(text))
  const url = new URL(scrub(r.url))
  const contentType = r.requestHeaders["content-type"] ?? ""
  const postData =
    request.text === undefined && request.base64 === undefined && request.size === 0
      ? undefined
      : {
          mimeType: contentType,
          ...(request.text !== undefined
            ? { text: scrub(request.text) }
            : request.base64 !== undefined
              ? { text: request.base64, encoding: "base64" }
              : {}),
          ...(request.comment === undefined ? {} : { comment: request.comment })
        }
  return {
    startedDateTime: new Date(r.startedAt).toISOString(),
    time: r.durationMs,
    request: {
      method: r.method,
      url: url.toString(),
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headersOf(r.requestHeaders, scrub),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: r.requestBody?.length ?? r.requestBodyBytes,
      ...(postData === undefined ? {} : { postData })
    },
    response: {
      status: r.status,
      statusText: statusText(r.status),
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: headersOf(r.responseHeaders, scrub),
      content: {
        size: response.size,
        mimeType: r.responseHeaders["content-type"] ?? "",
        ...(response.text !== undefined
          ? { text: scrub(unmistakable(response.text)) }
          : response.base64 !== undefined
            ? { text: response.base64, encoding: "base64" }
            : {}),
        ...(response.compression === undefined ? {} : { compression: response.compression }),
        ...(response.comment === undefined ? {} : { comment: response.comment })
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: r.responseBody?.length ?? -1,
      ...(r.error === undefined ? {} : { _error: scrub(r.error) })
    },
    cache: {},
    timings: { send: 0, wait: r.durationMs, receive: 0 }
  }
}
