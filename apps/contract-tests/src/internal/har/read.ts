/**
 * Recorded traffic judged offline: each HAR entry turned into the job the proxy's relay would
 * have handed its judge, and judged by the proxy's own store (the same oracles, findings and
 * report). Bodies are read as the proxy reads them: a body still compressed as its
 * `Content-Encoding` says is decompressed by the judge; one a recorder already decoded (HAR 1.2
 * holds decoded text, Playwright and the browsers write it so) is marked decoded.
 */
import * as Either from "effect/Either"
import { ContentType, Secrets } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import type * as Har from "../recording/model.js"
import type { Finding } from "../judge/types.js"
import type * as Report from "../report/model.js"
import type * as Rules from "../judge/exchangeRules.js"
import { operationOf } from "../judge/exchangeRules.js"
import type { Job } from "../judge/judging.js"
import { makeStore } from "../judge/store.js"

/** How the traffic is judged. */
export interface ReadOptions {
  /** Where the HAR came from, for the report. */
  readonly source: string
  /** Judge only entries whose URL starts with this (default: the origins that served an operation). */
  readonly baseUrl: string | undefined
  readonly strict: boolean
  readonly skewMillis: number
}

/** Bytes of a body kept for the checks, as the proxy's default. */
const LIMIT = 4 * 1024 * 1024

const encoder = new TextEncoder()

/** Headers as the relay sees them: names lower case, repeated ones joined, HTTP/2 pseudo headers left out. */
const headersOf = (
  list: ReadonlyArray<{ readonly name: string; readonly value: string }>
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const { name, value } of list) {
    const k = name.toLowerCase()
    if (k.startsWith(":")) continue
    out[k] = out[k] === undefined ? value : `${out[k]}, ${value}`
  }
  return out
}

/**
 * A body's bytes as recorded, and whether the recorder decoded it already: a body whose
 * `Content-Encoding` names an encoding it is not in, written as text (or as UTF-8 in base64), was
 * decoded by the recorder.
 */
const bodyOf = (
  text: string | undefined,
  encoding: string | undefined,
  size: number,
  headers: Readonly<Record<string, string>>
): { bytes: Uint8Array | undefined; decoded: boolean } => {
  const contentEncoding = headers["content-encoding"]
  if (text === undefined || (text === "" && size > 0)) {
    // No body, or one not recorded: a binary-codec body is judged by its size alone (as the proxy
    // judges it); any other is a body not kept.
    if (size <= 0) return { bytes: new Uint8Array(0), decoded: false }
    return {
      bytes: ContentType.isProto(headers["content-type"]) ? new Uint8Array(size) : undefined,
      decoded: false
    }
  }
  const base64 = encoding === "base64"
  const bytes = base64 ? new Uint8Array(Buffer.from(text, "base64")) : encoder.encode(text)
  const e = Compression.parseContentEncoding(contentEncoding)
  if (e._tag !== "Compressed") return { bytes, decoded: false }
  // Still in its encoding (a recorder that keeps bodies as sent): the judge decompresses it.
  if (Either.isRight(Compression.decompress(bytes, e.encoding, LIMIT)))
    return { bytes, decoded: false }
  // Text that is not in its encoding was decoded by the recorder (some write it in base64 too);
  // bytes that are neither (not UTF-8) are a corrupt body, left unread as the proxy leaves it.
  return { bytes, decoded: !base64 || isUtf8(bytes) }
}

const utf8 = new TextDecoder("utf-8", { fatal: true })
const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    utf8.decode(bytes)
    return true
  } catch {
    return false
  }
}

/** The job of one entry. */
export const jobOf = (entry: Har.Entry): Job => {
  const url = new URL(entry.request.url)
  const headers = headersOf(entry.request.headers)
  const post = entry.request.postData
  // A request without a recorded body: empty, unless the recorder says it had bytes.
  const sent = bodyOf(
    post?.text,
    post?.encoding,
    post === undefined ? Math.max(0, entry.request.bodySize) : entry.request.bodySize,
    headers
  )
  const responseHeaders = headersOf(entry.response.headers)
  const content = entry.response.content
  const answer = bodyOf(content.text, content.encoding, content.size, responseHeaders)
  const key = headers["x-api-key"]
  const started = Date.parse(entry.startedDateTime)
  const failed =
    entry.response.status === 0 ||
    (entry.response._error !== undefined &&
      entry.response._error !== null &&
      entry.response._error !== "")
  const request: Rules.SeenRequest = {
    method: entry.request.method.toUpperCase(),
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    headers,
    keyPresent: key !== undefined && key !== "",
    body: sent.bytes,
    bodyBytes: sent.bytes?.length ?? Math.max(0, entry.request.bodySize)
  }
  return {
    request,
    status: failed ? 0 : entry.response.status,
    headers: failed ? {} : responseHeaders,
    body: failed ? undefined : answer.bytes,
    transportError: failed
      ? `no answer (recorded: ${entry.response._error ?? entry.response._failureText ?? `status ${entry.response.status}`})`
      : undefined,
    started: Number.isNaN(started) ? 0 : started,
    receivedAt: (Number.isNaN(started) ? 0 : started) + Math.max(0, entry.time),
    // A key masked by this package's writer is masked as itself wherever it appeared (KEY_MASK): it
    // is looked for in the answer as the key was live. One masked as `[redacted]` cannot be.
    key: key === Secrets.REDACTED ? undefined : key,
    requestDecoded: sent.decoded,
    answerDecoded: answer.decoded
  }
}

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin
  } catch {
    return undefined
  }
}

/** The entries judged: those under `baseUrl`, or of an origin that served an operation of the API. */
const selected = (har: Har.Har, baseUrl: string | undefined): ReadonlyArray<Har.Entry> => {
  // An entry whose URL does not parse is no exchange with the API.
  if (baseUrl !== undefined)
    return har.log.entries.filter(
      (e) => e.request.url.startsWith(baseUrl) && originOf(e.request.url) !== undefined
    )
  const api = new Set(
    har.log.entries
      .filter(
        (e) =>
          originOf(e.request.url) !== undefined &&
          operationOf(new URL(e.request.url).pathname) !== undefined
      )
      .map((e) => originOf(e.request.url))
  )
  return har.log.entries.filter((e) => api.has(originOf(e.request.url)))
}

/** The report of a HAR's traffic, judged by the proxy's store. */
export const judge = (
  har: Har.Har,
  options: ReadOptions
): Report.Report & { readonly findings: ReadonlyArray<Finding> } => {
  const entries = selected(har, options.baseUrl)
  const origins = [
    ...new Set(
      entries.map((e) => originOf(e.request.url)).filter((o): o is string => o !== undefined)
    )
  ]
  const target = options.baseUrl?.replace(/\/+$/, "") ?? origins[0] ?? "(none)"
  const times = entries.map((e) => Date.parse(e.startedDateTime)).filter((t) => !Number.isNaN(t))
  const store = makeStore({
    target,
    limit: LIMIT,
    strict: options.strict,
    skewMillis: options.skewMillis,
    source: `recorded traffic (${options.source}${origins.length > 1 ? `; origins ${origins.join(", ")}` : ""})`,
    startedAt: times.length === 0 ? undefined : Math.min(...times)
  })
  for (const e of entries) store.check(jobOf(e))
  const left = har.log.entries.length - entries.length
  const ends = entries
    .map((e) => Date.parse(e.startedDateTime) + Math.max(0, e.time))
    .filter((t) => !Number.isNaN(t))
  const report = store.report(
    store.currentFindings(),
    left === 0
      ? []
      : [
          `${left} of the ${har.log.entries.length} entries left out: ${options.baseUrl === undefined ? "of an origin that served no operation of the API (pages, scripts, fonts)" : `not under ${options.baseUrl}`}`
        ]
  )
  // The traffic's span, not the judging's.
  return { ...report, durationMs: times.length === 0 ? 0 : Math.max(...ends) - Math.min(...times) }
}
