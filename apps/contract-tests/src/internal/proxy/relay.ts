/**
 * The relay: each request forwarded unchanged to the target (method, path and query as sent,
 * headers but the hop-by-hop ones, body bytes) and the answer relayed back (status, headers, body).
 * A body within the checking limit is read once and kept; a longer one, or one of unknown length,
 * streams through a tee that keeps what fits. Each finished exchange is handed to the judge (the
 * judging thread), which the answer never waits for. The report and metrics endpoints are answered
 * here and never forwarded.
 *
 * A plain `node:http` request listener over an undici dispatcher, with no Effect fiber, stream or
 * span per exchange: the relay is the proxy's hot path, and the `@effect/platform` server and
 * `HttpClient` around it cost as much CPU as the relay's own work (bench/proxy.mjs, BENCHMARKS.md).
 */
import type * as Undici from "@effect/platform-node/Undici"
import type * as Effect from "effect/Effect"
import type * as Http from "node:http"
import { PassThrough, pipeline, type Readable } from "node:stream"
import { ConnectError, ContentType } from "@data-access/schema"
import type * as Report from "../report/model.js"
import * as Render from "../report/render.js"
import type * as Rules from "../judge/exchangeRules.js"
import type { Job } from "../judge/judging.js"
import { brokeBeforeAnswer, RESENDS_AFTER_BREAK } from "../resend.js"
import type { Metrics } from "./metrics.js"

/** The path of the report endpoint on the proxy's port. */
export const REPORT_PATH = "/__contract/report"

/** The path of the metrics endpoint (Prometheus text format) on the proxy's port. */
export const METRICS_PATH = "/__contract/metrics"

const HOP_BY_HOP = new Set([
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

type HeaderValue = string | Array<string>
type IncomingHeaders = Readonly<Record<string, HeaderValue | undefined>>

/** The headers relayed: all but the hop-by-hop ones, those `Connection` names, and `host` when `dropHost`. */
const relayable = (headers: IncomingHeaders, dropHost: boolean): Record<string, HeaderValue> => {
  const connection = headers["connection"]
  // `keep-alive` and `close`, what clients send, name nothing beyond the hop-by-hop headers.
  const named =
    connection === undefined || connection === "keep-alive" || connection === "close"
      ? undefined
      : new Set(
          String(connection)
            .split(",")
            .map((s) => s.trim().toLowerCase())
        )
  const out: Record<string, HeaderValue> = {}
  for (const k in headers) {
    const v = headers[k]
    if (
      v !== undefined &&
      !HOP_BY_HOP.has(k) &&
      named?.has(k) !== true &&
      !(dropHost && k === "host")
    )
      out[k] = v
  }
  return out
}

/** Headers as the checks read them: one string each, repeated ones joined with `, `. */
const flat = (headers: IncomingHeaders): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const k in headers) {
    const v = headers[k]
    if (v !== undefined) out[k] = typeof v === "string" ? v : v.join(", ")
  }
  return out
}

/** Keeps at most `limit` bytes of a body and counts them all. */
const makeTee = (limit: number) => {
  const parts: Array<Uint8Array> = []
  let kept = 0
  let total = 0
  return {
    add: (chunk: Uint8Array) => {
      total += chunk.length
      if (kept + chunk.length <= limit) {
        parts.push(chunk)
        kept += chunk.length
      }
    },
    /** The whole body, or `undefined` when it was longer than the limit. */
    bytes: (): Uint8Array | undefined => (total > limit ? undefined : Buffer.concat(parts)),
    total: () => total
  }
}

const EMPTY = new Uint8Array(0)

/** A `Content-Length` value as a number; `undefined` when absent or not one. */
const lengthOf = (header: HeaderValue | undefined): number | undefined =>
  typeof header === "string" && /^[0-9]{1,15}$/.test(header) ? Number(header) : undefined

/** A body read to its end; fails when the stream fails or closes first (the peer went away). */
const readWhole = (
  stream: NodeJS.ReadableStream & { readonly readableEnded?: boolean }
): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    stream.on("data", (chunk: Buffer) => chunks.push(chunk))
    stream.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))
    stream.on("error", reject)
    stream.on("close", () => {
      if (stream.readableEnded !== true) reject(new Error("closed before its end"))
    })
  })

/**
 * A request body streamed to the target through `tee`. `whole()` tells whether the target read it
 * to its end. `drain()`, once the target has answered, reads and drops what it left unread, as
 * `node:http` does with a body its handler leaves: until then the client's next request on the
 * same connection waits behind those bytes, and the connection is reset when it idles out.
 */
const streamed = (req: Http.IncomingMessage, tee: ReturnType<typeof makeTee>) => {
  const relayed = new PassThrough()
  let draining = false
  let ended = false
  req.on("data", (chunk: Buffer) => {
    if (!draining) tee.add(chunk)
  })
  req.on("end", () => {
    ended = !draining
  })
  req.pipe(relayed)
  return {
    body: relayed,
    whole: () => ended,
    drain: () => {
      if (draining || req.readableEnded) return
      draining = true
      req.unpipe(relayed)
      // The target has answered: whatever it would still read of the body is not sent.
      relayed.destroy()
      req.resume()
    }
  }
}

/** What the relay needs. */
export interface RelayOptions {
  /** The deployment relayed to, without a trailing slash. */
  readonly target: string
  /** Bytes of each body kept for the checks. */
  readonly limit: number
  /** The connections to the target. */
  readonly dispatcher: Undici.Dispatcher
  /** Hands a finished exchange to the judge. */
  readonly enqueue: (job: Job) => void
  /** The report so far, answered on `REPORT_PATH`. */
  readonly report: Effect.Effect<Report.Report>
  /** The metrics, answered on `METRICS_PATH` and told of each exchange relayed; none: 404 there. */
  readonly metrics: Metrics | undefined
  /** Every finished exchange judged: the metrics answered count them all. */
  readonly settled: Effect.Effect<void>
  /** Runs an effect of the proxy (the report, the metrics' settling). */
  readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
  /**
   * Judges an exchange before its answer is relayed, to name its findings in `ANNOTATION_HEADER`
   * (`--annotate`); none: answers are relayed as they came.
   */
  readonly annotate?: ((job: Job) => ReadonlyArray<string>) | undefined
}

/** The header `--annotate` adds to each answer: the exchange's findings, or `none`. */
export const ANNOTATION_HEADER = "x-contract-findings"

/** Answers `text` with its content type. */
const answerText = (
  res: Http.ServerResponse,
  status: number,
  contentType: string,
  text: string
) => {
  const body = Buffer.from(text, "utf8")
  res.writeHead(status, { "content-type": contentType, "content-length": body.length })
  res.end(body)
}

/** The report endpoint's answer, in the format asked for (`json`, `terminal`, `junit` or `html`). */
const answerReport = (res: Http.ServerResponse, report: Report.Report, format: string) =>
  format === "html"
    ? answerText(res, 200, "text/html; charset=utf-8", Render.toHtml(report))
    : format === "terminal"
      ? answerText(res, 200, "text/plain", Render.toTerminal(report) + "\n")
      : format === "junit"
        ? answerText(res, 200, "application/xml", Render.toJUnit(report))
        : answerText(res, 200, "application/json", Render.toJson(report))

/** The answer when the target did not answer: a Connect `unavailable` error, status 502. */
const answerUnavailable = (res: Http.ServerResponse, target: string, reason: string) => {
  if (res.headersSent) return void res.destroy()
  answerText(
    res,
    502,
    ContentType.JSON_MEDIA_TYPE,
    ConnectError.writeBody(
      ConnectError.make("unavailable", `contract-tests proxy: ${target} did not answer (${reason})`)
    )
  )
}

/** Answers what `answer` answers, or 500 when it fails (a defect of the proxy, not the target). */
const answerWith = (res: Http.ServerResponse, answer: Promise<void>) =>
  void answer.catch(() => {
    if (!res.headersSent)
      answerText(res, 500, "text/plain", "contract-tests proxy: internal error\n")
    else res.destroy()
  })

const message = (e: unknown): string =>
  String((e as { message?: unknown } | undefined)?.message ?? e).slice(0, 200)

/** The proxy's request listener: the report and metrics endpoints, or the relay of one exchange. */
export const listener = (options: RelayOptions): Http.RequestListener => {
  const { dispatcher, enqueue, limit, metrics, target } = options
  const base = new URL(target)
  const origin = base.origin
  // A target with a path (`https://host/api`) is relayed to under it, as `target + url`.
  const prefix = base.pathname === "/" ? "" : base.pathname

  /** Relays one exchange. */
  const relay = async (
    req: Http.IncomingMessage,
    res: Http.ServerResponse,
    url: string,
    path: string,
    query: string
  ) => {
    const started = Date.now()
    // The time the proxy adds: all of it but the wait for the target (its answer's body included).
    const arrived = performance.now()
    let upstream = 0
    const method = req.method ?? "GET"
    const incoming = req.headers as Readonly<Record<string, string>>
    const key = incoming["x-api-key"]
    const seenWith = (body: Uint8Array | undefined, bodyBytes: number): Rules.SeenRequest => ({
      method,
      path,
      query,
      headers: incoming,
      keyPresent: key !== undefined && key !== "",
      body,
      bodyBytes
    })
    // Without Content-Length or Transfer-Encoding a request has no body.
    const requestLength =
      incoming["transfer-encoding"] !== undefined
        ? undefined
        : incoming["content-length"] === undefined
          ? 0
          : lengthOf(incoming["content-length"])
    let body: Uint8Array | Readable | null = null
    let seen: () => Rules.SeenRequest
    // What the target left unread of a streamed body, read and dropped once it has answered.
    let drain = () => {}
    if (requestLength === 0) {
      seen = () => seenWith(EMPTY, 0)
    } else if (requestLength !== undefined && requestLength <= limit) {
      // A body the checks keep whole: read it once and send the bytes.
      const read = await readWhole(req).catch(() => undefined)
      // The client went away before sending its body: nothing was relayed, nothing to check.
      if (read === undefined) {
        if (!res.headersSent && !res.destroyed) answerText(res, 400, "text/plain", "")
        return
      }
      body = read
      seen = () => seenWith(read, read.length)
    } else {
      // A longer body, or one of unknown length, streams through; the tee keeps what fits.
      const tee = makeTee(limit)
      const stream = streamed(req, tee)
      body = stream.body
      drain = stream.drain
      // A body the server answered before reading to its end is not known whole.
      seen = () => seenWith(stream.whole() ? tee.bytes() : undefined, tee.total())
    }
    /**
     * The exchange is over: handed to the judge, with the request as the target read it, then what
     * the target left unread of a streamed body is dropped.
     */
    const finished = (
      status: number,
      headers: Readonly<Record<string, string>>,
      answer: Uint8Array | undefined,
      transportError: string | undefined
    ) => {
      enqueue({
        request: seen(),
        status,
        headers,
        body: answer,
        transportError,
        started,
        receivedAt: Date.now(),
        key
      })
      drain()
    }
    const answered = () => {
      if (metrics !== undefined) metrics.relayed(performance.now() - arrived - upstream)
    }
    // The client gone before its answer: the request to the target is abandoned, nothing judged.
    const abort = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) abort.abort()
    }
    res.on("close", onClose)
    const sentAt = performance.now()
    let stage: "Transport" | "Decode" = "Transport"
    try {
      const relayed = () =>
        dispatcher.request({
          origin,
          path: prefix + url,
          method: method as Undici.Dispatcher.HttpMethod,
          headers: relayable(req.headers, true),
          body,
          signal: abort.signal,
          // No timeouts of the relay's own: the client's deadline is the client's.
          headersTimeout: 60 * 60 * 1000,
          bodyTimeout: 0
        })
      // A body read whole is sent again when the connection breaks before any answer (not on a
      // broken answer); a streamed one is gone.
      let answer: Undici.Dispatcher.ResponseData
      for (let resends = 0; ; resends++) {
        try {
          answer = await relayed()
          break
        } catch (error) {
          const whole = body === null || body instanceof Uint8Array
          if (
            abort.signal.aborted ||
            !whole ||
            !brokeBeforeAnswer(error) ||
            resends === RESENDS_AFTER_BREAK
          )
            throw error
        }
      }
      upstream = performance.now() - sentAt
      stage = "Decode"
      const status = answer.statusCode
      const answerHeaders = answer.headers as IncomingHeaders
      const headers = flat(answerHeaders)
      const out = relayable(answerHeaders, false)
      const answerLength =
        answerHeaders["transfer-encoding"] === undefined
          ? lengthOf(answerHeaders["content-length"])
          : undefined
      if (answerLength !== undefined && answerLength <= limit) {
        // An answer the checks keep whole: read it once, relay the bytes, check it after.
        const bytes = await readWhole(answer.body)
        // A body read whole before the relay: its reading is the target's time.
        upstream = performance.now() - sentAt
        if (options.annotate !== undefined) {
          const found = options.annotate({
            request: seen(),
            status,
            headers,
            body: bytes,
            transportError: undefined,
            started,
            receivedAt: Date.now(),
            key
          })
          out[ANNOTATION_HEADER] = found.length === 0 ? "none" : found.join(", ")
        }
        answered()
        res.writeHead(status, out)
        res.end(bytes)
        finished(status, headers, bytes, undefined)
        return
      }
      // A streamed answer is judged once it has passed: it cannot name its findings.
      if (options.annotate !== undefined) out[ANNOTATION_HEADER] = "not judged: streamed"
      // A longer answer, or one of unknown length, streams through; the tee keeps what fits.
      const tee = makeTee(limit)
      answer.body.on("data", (chunk: Buffer) => tee.add(chunk))
      answered()
      res.writeHead(status, out)
      pipeline(answer.body, res, (error) =>
        finished(
          status,
          headers,
          error === undefined || error === null ? tee.bytes() : undefined,
          undefined
        )
      )
    } catch (error) {
      if (abort.signal.aborted) return
      upstream = performance.now() - sentAt
      finished(
        0,
        {},
        undefined,
        `${stage === "Transport" ? "RequestError" : "ResponseError"} (${stage}): ${message(error)}`
      )
      answered()
      answerUnavailable(res, target, stage)
    } finally {
      res.off("close", onClose)
    }
  }

  return (req, res) => {
    const url = req.url ?? "/"
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    const query = q === -1 ? "" : url.slice(q + 1)
    if (path === REPORT_PATH && req.method === "GET") {
      return answerWith(
        res,
        options
          .run(options.report)
          .then((report) =>
            answerReport(res, report, new URLSearchParams(query).get("format") ?? "json")
          )
      )
    }
    if (path === METRICS_PATH && req.method === "GET") {
      if (metrics === undefined) return answerText(res, 404, "text/plain", "metrics are off\n")
      return answerWith(
        res,
        options
          .run(options.settled)
          .then(() => metrics.text())
          .then((text) => answerText(res, 200, metrics.contentType, text))
      )
    }
    answerWith(res, relay(req, res, url, path, query))
  }
}
