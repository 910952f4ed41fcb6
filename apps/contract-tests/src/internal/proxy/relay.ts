/**
 * The relay: each request forwarded unchanged to the target (method, path, query, headers but the
 * hop-by-hop ones, body bytes) and the answer relayed back (status, headers, body). A body within
 * the checking limit is read once and kept; a longer one, or one of unknown length, streams
 * through a tee that keeps what fits. Each finished exchange is handed to the judge (the judging
 * thread), which the answer never waits for. The report and metrics endpoints are answered here
 * and never forwarded.
 */
import * as HttpBody from "@effect/platform/HttpBody"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { ConnectError, ContentType } from "@data-access/schema"
import * as Report from "../../Report.js"
import type * as Rules from "../exchangeRules.js"
import type { Job } from "./judging.js"
import type { Metrics } from "./metrics.js"

/** The path of the report endpoint on the proxy's port. */
export const REPORT_PATH = "/__contract/report"

/** The path of the metrics endpoint (Prometheus text format) on the proxy's port. */
export const METRICS_PATH = "/__contract/metrics"

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"])

/** The headers relayed: all but the hop-by-hop ones, those `Connection` names, and `drop`. */
const relayable = (headers: Readonly<Record<string, string>>, drop: ReadonlySet<string>): Record<string, string> => {
  const named = new Set((headers["connection"] ?? "").split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== ""))
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && !named.has(k) && !drop.has(k)) out[k] = v
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

/** A stream of body chunks, each also given to `tee`; `onEnd` once it ends. */
const teed = <E, R>(body: Stream.Stream<Uint8Array, E, R>, tee: ReturnType<typeof makeTee>, onEnd: () => void) =>
  body.pipe(
    Stream.mapChunks((c) => {
      for (const x of c) tee.add(x)
      return c
    }),
    Stream.onEnd(Effect.sync(onEnd))
  )

const EMPTY = new Uint8Array(0)

/** A `Content-Length` value as a number; `undefined` when absent or not one. */
const lengthOf = (header: string | undefined): number | undefined => (header !== undefined && /^[0-9]{1,15}$/.test(header) ? Number(header) : undefined)

/** What the relay needs. */
export interface RelayOptions {
  /** The deployment relayed to, without a trailing slash. */
  readonly target: string
  /** Bytes of each body kept for the checks. */
  readonly limit: number
  readonly client: HttpClient.HttpClient
  /** Hands a finished exchange to the judge. */
  readonly enqueue: (job: Job) => void
  /** The report so far, answered on `REPORT_PATH`. */
  readonly report: Effect.Effect<Report.Report>
  /** The metrics, answered on `METRICS_PATH` and told of each exchange relayed; none: 404 there. */
  readonly metrics: Metrics | undefined
  /** Every finished exchange judged: the metrics answered count them all. */
  readonly settled: Effect.Effect<void>
}

/** The report endpoint's answer, in the format asked for (`json`, `terminal`, `junit` or `html`). */
const reportAnswer = (report: Report.Report, format: string) =>
  format === "html"
    ? HttpServerResponse.text(Report.toHtml(report), { contentType: "text/html; charset=utf-8" })
    : format === "terminal"
    ? HttpServerResponse.text(Report.toTerminal(report) + "\n")
    : format === "junit"
      ? HttpServerResponse.text(Report.toJUnit(report), { contentType: "application/xml" })
      : HttpServerResponse.text(Report.toJson(report), { contentType: "application/json" })

/**
 * The request's body set on the outgoing request, and how the judge will see it: none, read whole
 * (within the limit), or streamed through a tee. `None` when the client went away before sending
 * its body.
 */
const relayRequestBody = (req: HttpServerRequest.HttpServerRequest, outgoing: HttpClientRequest.HttpClientRequest, limit: number, seenWith: (body: Uint8Array | undefined, bodyBytes: number) => Rules.SeenRequest) =>
  Effect.gen(function* () {
    const incoming = req.headers as Readonly<Record<string, string>>
    // Without Content-Length or Transfer-Encoding a request has no body.
    const requestLength = incoming["transfer-encoding"] !== undefined ? undefined : incoming["content-length"] === undefined ? 0 : lengthOf(incoming["content-length"])
    if (requestLength === 0) return Option.some({ outgoing, seen: () => seenWith(EMPTY, 0) })
    if (requestLength !== undefined && requestLength <= limit) {
      // A body the checks keep whole: read it once and send the bytes.
      const read = yield* HttpIncomingMessage.withMaxBodySize(req.arrayBuffer, Option.some(limit)).pipe(Effect.option)
      if (Option.isNone(read)) return Option.none()
      const bytes = new Uint8Array(read.value)
      return Option.some({ outgoing: HttpClientRequest.setBody(outgoing, HttpBody.raw(bytes)), seen: () => seenWith(bytes, bytes.length) })
    }
    // A longer body, or one of unknown length, streams through; the tee keeps what fits.
    const tee = makeTee(limit)
    let done = false
    const body = teed(req.stream, tee, () => {
      done = true
    })
    // A body the server answered before reading to its end is not known whole.
    return Option.some({ outgoing: HttpClientRequest.setBody(outgoing, HttpBody.raw(NodeStream.toReadableNever(body))), seen: () => seenWith(done ? tee.bytes() : undefined, tee.total()) })
  })

/**
 * The answer relayed back: read whole and judged at once when it fits the limit, else streamed
 * through a tee and judged once it ends.
 */
const relayAnswer = (res: HttpClientResponse.HttpClientResponse, limit: number, finished: (status: number, headers: Readonly<Record<string, string>>, body: Uint8Array | undefined) => void) => {
  const responseHeaders = res.headers as Readonly<Record<string, string>>
  const init = { status: res.status, headers: relayable(responseHeaders, new Set()) }
  const responseLength = responseHeaders["transfer-encoding"] === undefined ? lengthOf(responseHeaders["content-length"]) : undefined
  if (responseLength !== undefined && responseLength <= limit) {
    // An answer the checks keep whole: read it once, relay the bytes, check it after.
    return Effect.map(res.arrayBuffer, (buffer) => {
      const body = new Uint8Array(buffer)
      finished(res.status, responseHeaders, body)
      return HttpServerResponse.raw(body, init)
    })
  }
  const tee = makeTee(limit)
  const relayed = teed(res.stream, tee, () => finished(res.status, responseHeaders, tee.bytes()))
  return Effect.succeed(HttpServerResponse.raw(NodeStream.toReadableNever(relayed), init))
}

/** The answer when the target did not answer: a Connect `unavailable` error, status 502. */
const unavailable = (target: string, error: HttpClientError.HttpClientError) =>
  HttpServerResponse.text(ConnectError.writeBody(ConnectError.make("unavailable", `contract-tests proxy: ${target} did not answer (${error.reason})`)), {
    status: 502,
    contentType: ContentType.JSON_MEDIA_TYPE
  })

/** The proxy's request handler: the report endpoint, or the relay of one exchange. */
export const forward = (options: RelayOptions) =>
  Effect.gen(function* () {
    const { client, enqueue, limit, target } = options
    const req = yield* HttpServerRequest.HttpServerRequest
    const url = req.url
    const q = url.indexOf("?")
    const path = q === -1 ? url : url.slice(0, q)
    const query = q === -1 ? "" : url.slice(q + 1)
    if (path === REPORT_PATH && req.method === "GET") return reportAnswer(yield* options.report, new URLSearchParams(query).get("format") ?? "json")
    const metrics = options.metrics
    if (path === METRICS_PATH && req.method === "GET") {
      return metrics === undefined
        ? HttpServerResponse.text("metrics are off\n", { status: 404 })
        : HttpServerResponse.text(yield* Effect.zipRight(options.settled, Effect.promise(metrics.text)), { contentType: metrics.contentType })
    }
    const started = Date.now()
    // The time the proxy adds: all of it but the wait for the target (its answer's body included).
    const arrived = performance.now()
    let upstream = 0
    const incoming = req.headers as Readonly<Record<string, string>>
    const key = incoming["x-api-key"]
    const seenWith = (body: Uint8Array | undefined, bodyBytes: number): Rules.SeenRequest => ({
      method: req.method,
      path,
      query,
      headers: incoming,
      keyPresent: key !== undefined && key !== "",
      body,
      bodyBytes
    })
    const withBody = yield* relayRequestBody(req, HttpClientRequest.make(req.method as "POST")(target + url), limit, seenWith)
    // The client went away before sending its body: nothing was relayed, nothing to check.
    if (Option.isNone(withBody)) return HttpServerResponse.empty({ status: 400 })
    const { seen } = withBody.value
    const outgoing = HttpClientRequest.setHeaders(withBody.value.outgoing, relayable(incoming, new Set(["host"])))
    const job = (status: number, headers: Readonly<Record<string, string>>, body: Uint8Array | undefined, transportError: string | undefined): Job => ({
      request: seen(),
      status,
      headers,
      body,
      transportError,
      started,
      receivedAt: Date.now(),
      key
    })
    const sentAt = performance.now()
    const answered = <A>(a: A): A => {
      if (metrics !== undefined) metrics.relayed(performance.now() - arrived - upstream)
      return a
    }
    return yield* Effect.flatMap(client.execute(outgoing), (res) => {
      upstream = performance.now() - sentAt
      return relayAnswer(res, limit, (status, headers, body) => {
        // A body read whole before the relay: its reading is the target's time.
        upstream = performance.now() - sentAt
        enqueue(job(status, headers, body, undefined))
      })
    }).pipe(
      Effect.map(answered),
      Effect.catchAll((error) =>
        Effect.sync(() => {
          const cause = String((error.cause as { message?: unknown } | undefined)?.message ?? error.message).slice(0, 200)
          upstream = performance.now() - sentAt
          enqueue(job(0, {}, undefined, `${error._tag} (${error.reason}): ${cause}`))
          return answered(unavailable(target, error))
        })
      )
    )
  })
