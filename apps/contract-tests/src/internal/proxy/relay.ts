/**
 * The relay: each request forwarded unchanged to the target (method, path and query as sent,
 * headers but the hop-by-hop ones, body bytes) and the answer relayed back (status, headers, body).
 * A body within the checking limit is read once and kept; a longer one, or one of unknown length,
 * streams through a tee that keeps what fits. Each finished exchange is handed to the judge (the
 * judging thread), which the answer never waits for. The report and metrics endpoints are answered
 * here and never forwarded.
 *
 * A plain `node:http` request listener over an undici dispatcher's `dispatch`, one `Exchange`
 * object per exchange as its handler: no Effect fiber, promise, stream or span per exchange, and
 * no response stream between undici's chunks and the client's socket. The relay is the proxy's hot
 * path: the `@effect/platform` server and `HttpClient` around it cost as much CPU as the relay's own
 * work, and undici's `request` (an answer stream, an abort signal and a promise per exchange) with
 * the copies around it half as much again as this relay (bench/proxy.mjs, BENCHMARKS.md).
 */
import type * as Undici from "@effect/platform-node/Undici"
import type * as Effect from "effect/Effect"
import type * as Http from "node:http"
import { PassThrough } from "node:stream"
import { ConnectError, ContentType } from "@data-access/schema"
import type * as Report from "../report/model.js"
import * as Render from "../report/render.js"
import type * as Rules from "../judge/exchangeRules.js"
import type { Job } from "../judge/judging.js"
import { HOP_BY_HOP } from "../hopByHop.js"
import { brokeBeforeAnswer, RESENDS_AFTER_BREAK } from "../resend.js"
import type { Metrics } from "./metrics.js"

/** The path of the report endpoint on the proxy's port. */
export const REPORT_PATH = "/__contract/report"

/** The path of the metrics endpoint (Prometheus text format) on the proxy's port. */
export const METRICS_PATH = "/__contract/metrics"

type HeaderValue = string | Array<string>
type IncomingHeaders = Readonly<Record<string, HeaderValue | undefined>>

/** The header names a `Connection` header names beyond the hop-by-hop ones; none for what clients send. */
const namedBy = (connection: HeaderValue | undefined): ReadonlySet<string> | undefined =>
  // `keep-alive` and `close`, what clients send, name nothing beyond the hop-by-hop headers.
  connection === undefined || connection === "keep-alive" || connection === "close"
    ? undefined
    : new Set(
        String(connection)
          .split(",")
          .map((s) => s.trim().toLowerCase())
      )

/** Whether a header is relayed: not hop-by-hop, not named by `Connection`. */
const relays = (name: string, named: ReadonlySet<string> | undefined) =>
  !HOP_BY_HOP.has(name) && named?.has(name) !== true

/** The request headers relayed: all but the hop-by-hop ones, those `Connection` names, and `host`. */
const relayedRequestHeaders = (headers: IncomingHeaders): Record<string, HeaderValue> => {
  const named = namedBy(headers["connection"])
  const out: Record<string, HeaderValue> = {}
  for (const k in headers) {
    const v = headers[k]
    if (v !== undefined && k !== "host" && relays(k, named)) out[k] = v
  }
  return out
}

/** A `Content-Length` value as a number; `undefined` when absent or not one. */
const lengthOf = (header: HeaderValue | undefined): number | undefined =>
  typeof header === "string" && /^[0-9]{1,15}$/.test(header) ? Number(header) : undefined

/** Keeps at most `limit` bytes of a body and counts them all. */
class Tee {
  private readonly parts: Array<Uint8Array> = []
  private kept = 0
  total = 0
  constructor(private readonly limit: number) {}
  add(chunk: Uint8Array) {
    this.total += chunk.length
    if (this.kept + chunk.length <= this.limit) {
      this.parts.push(chunk)
      this.kept += chunk.length
    }
  }
  /** The whole body, or `undefined` when it was longer than the limit. */
  bytes(): Uint8Array | undefined {
    return this.total > this.limit ? undefined : Buffer.concat(this.parts)
  }
}

const EMPTY = new Uint8Array(0)

/** Chunks as one buffer, without a copy for one chunk. */
const joined = (chunks: ReadonlyArray<Buffer>): Uint8Array =>
  chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks)

/**
 * A request body streamed to the target through `tee`. `whole()` tells whether the target read it
 * to its end. `drain()`, once the target has answered, reads and drops what it left unread, as
 * `node:http` does with a body its handler leaves: until then the client's next request on the
 * same connection waits behind those bytes, and the connection is reset when it idles out.
 */
const streamed = (req: Http.IncomingMessage, tee: Tee) => {
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
  /** The connections to the target (a `Pool` to its origin, or an `Agent`). */
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

/** The answer to a defect of the proxy (not of the target): 500, or the connection cut once answering. */
const answerDefect = (res: Http.ServerResponse) => {
  if (!res.headersSent) answerText(res, 500, "text/plain", "contract-tests proxy: internal error\n")
  else res.destroy()
}

/** Answers what `answer` answers, or 500 when it fails. */
const answerWith = (res: Http.ServerResponse, answer: Promise<void>) =>
  void answer.catch(() => answerDefect(res))

const message = (e: unknown): string =>
  String((e as { message?: unknown } | undefined)?.message ?? e).slice(0, 200)

/** What every exchange of one relay shares. */
interface Relay extends RelayOptions {
  readonly origin: string
  /** The target's own path (`/api` of `https://host/api`), relayed under; empty for `/`. */
  readonly prefix: string
}

/** The client went away before its answer: the request to the target is abandoned. */
const CLIENT_GONE = new Error("the client went away")

/**
 * One exchange, from the request's arrival to its hand-off to the judge, and the handler of the
 * target's answer: chunks of an answer kept whole are gathered and written at its end with one
 * `end`; those of a longer answer, or one of unknown length, are written as they come, undici's
 * reading paused while the client's socket is full.
 */
class Exchange implements Undici.Dispatcher.DispatchHandler {
  private readonly started = Date.now()
  /** The time the proxy adds: all of it but the wait for the target (its answer's body included). */
  private readonly arrived = performance.now()
  private upstream = 0
  private sentAt = 0
  private readonly method: string
  private readonly incoming: Readonly<Record<string, string>>
  private readonly key: string | undefined
  /** What is sent: nothing, the bytes read whole, or a stream. */
  private body: Uint8Array | PassThrough | null = null
  /** The request body as kept for the checks; `undefined` when not whole. */
  private kept: Uint8Array | undefined = EMPTY
  private bodyBytes = 0
  /** A request body streamed, and its tee. */
  private stream: ReturnType<typeof streamed> | undefined
  private requestTee: Tee | undefined
  private resends = 0
  private controller: Undici.Dispatcher.DispatchController | undefined
  private gone = false
  /** The answer's status and headers once they came; its chunks kept whole, or its tee. */
  private status = 0
  private headers: Record<string, string> | undefined
  private out: Record<string, HeaderValue> = {}
  private chunks: Array<Buffer> | undefined
  private answerTee: Tee | undefined
  private metricsTold = false
  /** Handed to the judge, or abandoned: what undici tells after is not heard. */
  private over = false

  constructor(
    private readonly relay: Relay,
    private readonly req: Http.IncomingMessage,
    private readonly res: Http.ServerResponse,
    private readonly url: string,
    private readonly path: string,
    private readonly query: string
  ) {
    this.method = req.method ?? "GET"
    this.incoming = req.headers as Readonly<Record<string, string>>
    this.key = this.incoming["x-api-key"]
  }

  /** Reads the request as its length allows, then sends it on. */
  start() {
    const { req, incoming } = this
    // Without Content-Length or Transfer-Encoding a request has no body.
    const length =
      incoming["transfer-encoding"] !== undefined
        ? undefined
        : incoming["content-length"] === undefined
          ? 0
          : lengthOf(incoming["content-length"])
    if (length === 0) return this.send()
    if (length !== undefined && length <= this.relay.limit) {
      // A body the checks keep whole: read it once and send the bytes.
      const chunks: Array<Buffer> = []
      req.on("data", (chunk: Buffer) => chunks.push(chunk))
      req.on("end", () => {
        const read = joined(chunks)
        this.body = this.kept = read
        this.bodyBytes = read.length
        this.send()
      })
      // The client went away before sending its body: nothing was relayed, nothing to check.
      req.on("close", () => {
        if (!req.readableEnded && !this.res.headersSent && !this.res.destroyed)
          answerText(this.res, 400, "text/plain", "")
      })
      return
    }
    // A longer body, or one of unknown length, streams through; the tee keeps what fits.
    const tee = new Tee(this.relay.limit)
    this.stream = streamed(req, tee)
    this.body = this.stream.body
    this.requestTee = tee
    this.send()
  }

  private send() {
    const { res, relay } = this
    if (this.resends === 0)
      // The client gone before its answer: the request to the target is abandoned, nothing judged.
      res.on("close", () => {
        if (res.writableFinished) return
        this.gone = true
        this.controller?.abort(CLIENT_GONE)
      })
    this.sentAt = performance.now()
    relay.dispatcher.dispatch(
      {
        origin: relay.origin,
        path: relay.prefix + this.url,
        method: this.method as Undici.Dispatcher.HttpMethod,
        headers: relayedRequestHeaders(this.req.headers),
        body: this.body,
        // No timeouts of the relay's own: the client's deadline is the client's.
        headersTimeout: 60 * 60 * 1000,
        bodyTimeout: 0
      },
      this
    )
  }

  onRequestStart(controller: Undici.Dispatcher.DispatchController) {
    this.controller = controller
    if (this.gone) controller.abort(CLIENT_GONE)
  }

  onResponseStart(
    controller: Undici.Dispatcher.DispatchController,
    status: number,
    answerHeaders: IncomingHeaders
  ) {
    this.status = status
    // Read once: as the checks read them (one string each, repeated ones joined) and as relayed.
    const named = namedBy(answerHeaders["connection"])
    const headers: Record<string, string> = {}
    const out: Record<string, HeaderValue> = {}
    for (const k in answerHeaders) {
      const v = answerHeaders[k]
      if (v === undefined) continue
      headers[k] = typeof v === "string" ? v : v.join(", ")
      if (relays(k, named)) out[k] = v
    }
    this.headers = headers
    this.out = out
    const length =
      answerHeaders["transfer-encoding"] === undefined
        ? lengthOf(answerHeaders["content-length"])
        : undefined
    // An answer the checks keep whole: read it once, relay the bytes, check it after.
    if (length !== undefined && length <= this.relay.limit) return void (this.chunks = [])
    // A longer answer, or one of unknown length, streams through; the tee keeps what fits.
    this.upstream = performance.now() - this.sentAt
    // A streamed answer is judged once it has passed: it cannot name its findings.
    if (this.relay.annotate !== undefined) out[ANNOTATION_HEADER] = "not judged: streamed"
    this.answered()
    try {
      this.res.writeHead(status, out)
    } catch (error) {
      this.failed(true, error)
      return controller.abort(error as Error)
    }
    this.answerTee = new Tee(this.relay.limit)
  }

  onResponseData(controller: Undici.Dispatcher.DispatchController, chunk: Buffer) {
    if (this.over) return
    if (this.chunks !== undefined) return void this.chunks.push(chunk)
    this.answerTee!.add(chunk)
    // The client's socket is full: undici reads no more until it drains.
    if (!this.res.write(chunk)) {
      controller.pause()
      this.res.once("drain", () => controller.resume())
    }
  }

  onResponseEnd() {
    if (this.over) return
    const { res, status, headers } = this
    if (this.chunks === undefined) {
      res.end()
      return this.finished(status, headers!, this.answerTee!.bytes(), undefined)
    }
    const bytes = joined(this.chunks)
    // A body read whole before the relay: its reading is the target's time.
    this.upstream = performance.now() - this.sentAt
    try {
      const annotate = this.relay.annotate
      if (annotate !== undefined) {
        const found = annotate(this.job(status, headers!, bytes, undefined))
        this.out[ANNOTATION_HEADER] = found.length === 0 ? "none" : found.join(", ")
      }
      this.answered()
      res.writeHead(status, this.out)
    } catch (error) {
      return this.failed(true, error)
    }
    res.end(bytes)
    this.finished(status, headers!, bytes, undefined)
  }

  onResponseError(_controller: Undici.Dispatcher.DispatchController, error: Error) {
    if (this.over) return
    const streaming = this.answerTee !== undefined
    // A streamed answer cut (the client gone, or the target's answer broken): judged without its body.
    if (streaming) {
      this.res.destroy()
      return this.finished(this.status, this.headers!, undefined, undefined)
    }
    if (this.gone) return
    const answering = this.headers !== undefined
    // A body read whole is sent again when the connection breaks before any answer (not on a
    // broken answer); a streamed one is gone.
    if (
      !answering &&
      this.stream === undefined &&
      brokeBeforeAnswer(error) &&
      this.resends < RESENDS_AFTER_BREAK
    ) {
      this.resends++
      this.controller = undefined
      return this.send()
    }
    this.failed(answering, error)
  }

  /** No answer to relay: before one came (`Transport`), or reading or relaying it (`Decode`). */
  private failed(answering: boolean, error: unknown) {
    this.upstream = performance.now() - this.sentAt
    const stage = answering ? "Decode" : "Transport"
    this.finished(
      0,
      {},
      undefined,
      `${answering ? "ResponseError" : "RequestError"} (${stage}): ${message(error)}`
    )
    this.answered()
    answerUnavailable(this.res, this.relay.target, stage)
  }

  /** The exchange as the judge reads it, the request as the target read it. */
  private job(
    status: number,
    headers: Readonly<Record<string, string>>,
    answer: Uint8Array | undefined,
    transportError: string | undefined
  ): Job {
    const { stream, requestTee: tee } = this
    const incoming = this.incoming
    // A body the server answered before reading to its end is not known whole.
    const body = stream === undefined ? this.kept : stream.whole() ? tee!.bytes() : undefined
    const request: Rules.SeenRequest = {
      method: this.method,
      path: this.path,
      query: this.query,
      headers: incoming,
      keyPresent: this.key !== undefined && this.key !== "",
      body,
      bodyBytes: stream === undefined ? this.bodyBytes : tee!.total
    }
    return {
      request,
      status,
      headers,
      body: answer,
      transportError,
      started: this.started,
      receivedAt: Date.now(),
      span: { start: this.arrived, end: performance.now() },
      key: this.key
    }
  }

  /**
   * The exchange is over: handed to the judge, with the request as the target read it, then what
   * the target left unread of a streamed body is dropped.
   */
  private finished(
    status: number,
    headers: Readonly<Record<string, string>>,
    answer: Uint8Array | undefined,
    transportError: string | undefined
  ) {
    this.over = true
    this.relay.enqueue(this.job(status, headers, answer, transportError))
    this.stream?.drain()
  }

  /** The answer leaves: the metrics are told the time the proxy added. */
  private answered() {
    if (this.metricsTold) return
    this.metricsTold = true
    this.relay.metrics?.relayed(performance.now() - this.arrived - this.upstream)
  }
}

/** The proxy's request listener: the report and metrics endpoints, or the relay of one exchange. */
export const listener = (options: RelayOptions): Http.RequestListener => {
  const { metrics } = options
  const base = new URL(options.target)
  const relay: Relay = {
    ...options,
    origin: base.origin,
    // A target with a path (`https://host/api`) is relayed to under it, as `target + url`.
    prefix: base.pathname === "/" ? "" : base.pathname
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
    try {
      new Exchange(relay, req, res, url, path, query).start()
    } catch {
      answerDefect(res)
    }
  }
}
