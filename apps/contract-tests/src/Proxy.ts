/**
 * The conformance proxy: a reverse proxy in front of a deployment that relays every exchange
 * unchanged (method, path, query, headers but the hop-by-hop ones, body bytes; status, headers
 * and body back) and checks each against every rule one exchange can decide. A request that
 * breaks a rule of the interface is a `client` finding; an answer that breaks one is a `server`
 * finding. Bodies stream through; at most `checkedBytes` of each are kept for the checks.
 *
 * `GET /__contract/report` on the proxy answers the report so far (`?format=json`, `terminal`
 * or `junit`); it is never forwarded.
 *
 * @since 0.3.0
 */
import * as HttpBody from "@effect/platform/HttpBody"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeStream from "@effect/platform-node/NodeStream"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Http from "node:http"
import { ConnectError, ContentType, ContractRules, Secrets } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import * as Either from "effect/Either"
import * as Checks from "./Checks.js"
import * as Curl from "./Curl.js"
import * as Rules from "./internal/exchangeRules.js"
import type { Exchange, KeyMode, RawRequest } from "./internal/http.js"
import * as Inspect from "./internal/inspect.js"
import type { Outcome } from "./internal/outcome.js"
import * as Report from "./Report.js"

/**
 * Which party an exchange's finding blames: the `client` sent a request that breaks a rule, the
 * `server` answered in a way that breaks one.
 *
 * @since 0.3.0
 * @category models
 */
export type Side = "client" | "server"

/**
 * A finding of the proxy: a run's finding with the side it blames. `seed` is 0 and `replayId`
 * empty (live traffic is not replayable); `curl` reproduces the request.
 *
 * @since 0.3.0
 * @category models
 */
export interface Finding extends Report.Finding {
  readonly side: Side
}

/**
 * The findings that fail: `client`, `server`, `any` (either) or `none`.
 *
 * @since 0.3.0
 * @category models
 */
export type FailOn = "client" | "server" | "any" | "none"

/**
 * Options of the proxy.
 *
 * @since 0.3.0
 * @category models
 */
export interface Options {
  /** The deployment to relay to (`https://staging.example.com`). */
  readonly target: string
  /** The port to listen on; 0 (the default) picks a free one. */
  readonly port?: number | undefined
  /** The interface to listen on (default `127.0.0.1`). */
  readonly host?: string | undefined
  /** Also flag requests only a lenient server accepts (decisions.md section 10). */
  readonly strictClient?: boolean | undefined
  /** Allowed clock difference with the server (default 5 seconds). */
  readonly clockSkew?: Duration.DurationInput | undefined
  /** Bytes of each body kept for the checks (default 4 MiB); a longer body is relayed, not checked. */
  readonly checkedBytes?: number | undefined
  /** Called once per new finding (first occurrence), e.g. to log it. */
  readonly onFinding?: ((finding: Finding) => void) | undefined
}

/**
 * A running proxy.
 *
 * @since 0.3.0
 * @category models
 */
export interface Proxy {
  /** The proxy's base URL (`http://127.0.0.1:43121`). */
  readonly url: string
  readonly target: string
  /** The report of the exchanges so far (every finished exchange checked first). */
  readonly report: Effect.Effect<Report.Report & { readonly findings: ReadonlyArray<Finding> }>
  /** The findings so far, deduplicated by side, rule, operation and cause. */
  readonly findings: Effect.Effect<ReadonlyArray<Finding>>
}

/**
 * The proxy could not listen.
 *
 * @since 0.3.0
 * @category errors
 */
export class ProxyError extends Schema.TaggedError<ProxyError>("@data-access/contract-tests/ProxyError")("ProxyError", {
  message: Schema.String
}) {}

/**
 * The path of the report endpoint on the proxy's port.
 *
 * @since 0.3.0
 * @category constants
 */
export const REPORT_PATH = "/__contract/report"

/**
 * The rules the server side of one exchange is checked against (the reference server's
 * violations of these rules show on single exchanges).
 *
 * @since 0.3.0
 * @category rules
 */
export const serverRules: ReadonlyArray<ContractRules.RuleId> = Rules.serverRules

/**
 * The exit code of a proxy report under `--fail-on`: 1 when a finding of a failing side is in it.
 *
 * @since 0.3.0
 * @category running
 */
export const exitCode = (findings: ReadonlyArray<Finding>, failOn: FailOn): 0 | 1 =>
  findings.some((f) => failOn === "any" || f.side === failOn) ? 1 : 0

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"])

const relayable = (headers: Readonly<Record<string, string>>, drop: ReadonlySet<string>): Record<string, string> => {
  const named = new Set((headers["connection"] ?? "").split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== ""))
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (!HOP_BY_HOP.has(k) && !named.has(k) && !drop.has(k)) out[k] = v
  return out
}

/** Headers left out of reproductions: secrets, and what curl sets itself. */
const NOT_SHOWN = new Set([...Secrets.headerNames, "content-encoding", "host", "content-length", "content-type", "connect-protocol-version", "user-agent", "accept", "accept-encoding", "connection", "transfer-encoding", "keep-alive", "traceparent", "tracestate", "b3"])

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

const decoder = new TextDecoder("utf-8")

const EMPTY = new Uint8Array(0)

/** A `Content-Length` value as a number; `undefined` when absent or not one. */
const lengthOf = (header: string | undefined): number | undefined => (header !== undefined && /^[0-9]{1,15}$/.test(header) ? Number(header) : undefined)

/**
 * A relayed body as the checks read it: decompressed by its `Content-Encoding` (within the
 * checking limit), or `undefined` when it cannot be (an encoding not read here, corrupt data, too
 * large once decompressed): such a body is relayed and counted unchecked, never judged.
 */
const readable = (bytes: Uint8Array | undefined, contentEncoding: string | undefined, limit: number): Uint8Array | undefined => {
  if (bytes === undefined) return undefined
  const encoding = Compression.parseContentEncoding(contentEncoding)
  if (encoding._tag === "Identity") return bytes
  if (encoding._tag === "Unsupported") return undefined
  return Either.getOrUndefined(Compression.decompress(bytes, encoding.encoding, limit))
}

interface Job {
  readonly request: Rules.SeenRequest
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | undefined
  readonly transportError: string | undefined
  readonly started: number
  readonly receivedAt: number
  readonly key: string | undefined
}

type Work = { readonly _tag: "Job"; readonly job: Job } | { readonly _tag: "Flush"; readonly done: Deferred.Deferred<void> }

interface Cell {
  passed: number
  failed: number
}

/**
 * Starts the proxy in the caller's scope, listening until the scope closes.
 *
 * @example
 * ```ts
 * import { Proxy } from "@data-access/contract-tests"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const proxy = yield* Proxy.start({ target: "http://127.0.0.1:8080", port: 9090 })
 *   // ... point a client at proxy.url ...
 *   const report = yield* proxy.report
 *   return report.findings.filter((f) => f.side === "server")
 * }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))
 * ```
 *
 * @since 0.3.0
 * @category running
 */
export const start: (options: Options) => Effect.Effect<Proxy, ProxyError, HttpClient.HttpClient | Scope.Scope> = Effect.fn("Proxy.start")(
  function* (options: Options) {
    const target = options.target.replace(/\/+$/, "")
    const limit = options.checkedBytes ?? 4 * 1024 * 1024
    const skewMillis = Duration.toMillis(Duration.decode(options.clockSkew ?? "5 seconds"))
    const strict = options.strictClient === true
    const client = HttpClient.withTracerPropagation(yield* HttpClient.HttpClient, false)
    const startedAt = Date.now()
    const runId = `proxy-${startedAt.toString(36)}`

    const findings = new Map<string, { finding: Finding; count: number }>()
    const cells = new Map<string, Cell>()
    const keys = new Set<string>()
    let exchanges = 0
    /** Exchanges whose request or answer body could not be read (binary codec, unknown or corrupt encoding). */
    let unchecked = 0

    const cell = (operation: string, check: Checks.CheckId) => {
      const k = `${operation}\u0000${check}`
      let c = cells.get(k)
      if (c === undefined) cells.set(k, (c = { passed: 0, failed: 0 }))
      return c
    }

    const record = (side: Side, operation: string, o: Outcome, e: Exchange, scrub: (s: string) => string) => {
      const c = cell(operation, o.check)
      if (o.ok || o.rule === undefined) {
        c.passed++
        return
      }
      c.failed++
      const k = `${side}\u0000${o.rule}\u0000${operation}\u0000${o.cause}`
      const seen = findings.get(k)
      if (seen !== undefined) {
        seen.count++
        return
      }
      const rule = ContractRules.get(o.rule)
      const shown = o.exchange ?? e
      const response: Report.Finding["response"] = Option.match(shown.response, {
        onNone: () => ({ _tag: "NoResponse" as const, error: scrub(shown.transportError ?? "no response") }),
        onSome: (r) => ({ _tag: "Response" as const, status: r.status, contentType: r.headers["content-type"], body: scrub(Inspect.excerpt(r, 800)) })
      })
      const finding: Finding = {
        side,
        check: o.check,
        rule: rule.id,
        source: `${rule.source.doc} § ${rule.source.section}: “${rule.source.quote}”`,
        severity: Checks.byId.get(o.check)!.severity,
        operation,
        cause: scrub(o.cause),
        message: scrub(o.message),
        detail: o.detail === undefined ? undefined : scrub(o.detail),
        seed: 0,
        replayId: "",
        curl: scrub(Curl.render(target, shown.request)),
        request: { method: shown.request.method, path: shown.request.path, body: shown.request.body === undefined ? undefined : scrub(Curl.displayBody(shown.request.body) ?? "") },
        response,
        occurrences: 1,
        shrinkSteps: 0
      }
      findings.set(k, { finding, count: 1 })
      options.onFinding?.(finding)
    }

    const check = (job: Job): void => {
      exchanges++
      if (job.key !== undefined && job.key.length >= Secrets.MIN_LENGTH) keys.add(job.key)
      // What the checks read: bodies decompressed; a request body that cannot be is Unknown.
      const sent = job.request
      const sentBody = readable(sent.body, sent.headers["content-encoding"], limit)
      const r: Rules.SeenRequest = sentBody === sent.body ? sent : { ...sent, body: sentBody, bodyBytes: sentBody?.length ?? sent.bodyBytes }
      const answerBody = readable(job.body, job.headers["content-encoding"], limit)
      // A binary answer to a binary request: a faithful choice whose body is not read.
      const binary = Rules.isBinaryCodec(r) && Rules.isBinaryContentType(job.headers)
      const requestUnread = sent.body !== undefined && sent.body.length > 0 && sentBody === undefined
      const answerUnread = job.body !== undefined && answerBody === undefined
      if (requestUnread || answerUnread || binary) unchecked++
      const op = Rules.operationOf(r.path)
      const parsed = Rules.parseBody(r)
      const breaches = Rules.clientBreaches(op, r, parsed)
      // Forms only a lenient server accepts are the client's findings under --strict-client alone.
      const reported = strict ? breaches : breaches.filter((b) => b.latitude === undefined)
      const bodyText = r.body === undefined || Rules.isBinaryCodec(r) ? undefined : decoder.decode(r.body)
      const scrub = Secrets.scrubber([...(parsed._tag === "Object" ? Secrets.values(parsed.value) : []), ...keys])
      const keyMode: KeyMode = r.keyPresent ? "valid" : r.headers["x-api-key"] === undefined ? "missing" : "empty"
      const shownHeaders: Record<string, string> = {}
      for (const [k, v] of Object.entries(r.headers)) if (!NOT_SHOWN.has(k)) shownHeaders[k] = v
      const raw: RawRequest = {
        method: r.method,
        path: r.path + (r.query === "" ? "" : `?${r.query}`),
        key: keyMode,
        contentType: r.headers["content-type"],
        headers: shownHeaders,
        protocolVersion: r.headers["connect-protocol-version"],
        body: bodyText ?? (r.bodyBytes > 0 ? `[${r.bodyBytes} bytes, not read]` : undefined)
      }
      const text = answerBody === undefined || binary ? "" : decoder.decode(answerBody)
      const e: Exchange = {
        request: raw,
        response:
          job.transportError !== undefined
            ? Option.none()
            : Option.some({
                status: job.status,
                headers: job.headers,
                text,
                json: text === "" ? Option.none() : (Option.liftThrowable(JSON.parse)(text) as Option.Option<unknown>)
              }),
        transportError: job.transportError,
        receivedAt: job.receivedAt,
        durationMs: job.receivedAt - job.started,
        requestBytes: r.body === undefined ? Number.POSITIVE_INFINITY : r.bodyBytes
      }
      const name = op?.method ?? "_"
      const clientName = `${name} (client)`
      for (const b of reported) {
        const rule = ContractRules.get(b.rule)
        const latitude = b.latitude === undefined ? undefined : ContractRules.latitude.find((l) => l.name === b.latitude)
        record("client", clientName, {
          check: rule.check,
          rule: b.rule,
          ok: false,
          cause: latitude === undefined ? b.cause : `lenient (${latitude.name}): ${b.cause}`,
          message: latitude === undefined ? `the request breaks ${b.rule}: ${b.message}` : `${b.message} (decisions.md section 10, ${latitude.topic}: ${latitude.byDefault} / ${latitude.switched})`,
          exchange: e,
          detail: undefined
        }, e, scrub)
      }
      if (reported.length === 0) record("client", clientName, { check: "valid-accepted", rule: undefined, ok: true, cause: "", message: "", exchange: undefined }, e, scrub)
      // The answer's body is judged only when it was read whole and decoded, and is not binary.
      const complete = (answerBody !== undefined && !binary) || job.transportError !== undefined
      for (const o of Rules.serverOutcomes(op, r, e, parsed, breaches, skewMillis, complete, job.key)) record("server", name, o, e, scrub)
    }

    const queue = yield* Queue.unbounded<Work>()
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))
    yield* Queue.take(queue).pipe(
      Effect.flatMap((w) =>
        w._tag === "Flush"
          ? Deferred.succeed(w.done, undefined)
          : Effect.sync(() => check(w.job)).pipe(Effect.catchAllDefect((d) => Effect.logWarning("contract-tests proxy: a check failed", d)))
      ),
      Effect.forever,
      Effect.forkScoped
    )

    const flush = Effect.gen(function* () {
      const done = yield* Deferred.make<void>()
      yield* Queue.offer(queue, { _tag: "Flush", done })
      yield* Deferred.await(done)
    })

    const currentFindings = Effect.map(flush, () => {
      const all = [...findings.values()].map(({ finding, count }) => ({ ...finding, occurrences: count }))
      const order = (f: Finding) => (f.side === "server" ? 0 : 1) * 1e6 + Checks.ids.indexOf(f.check) * 1000
      return all.sort((a, b) => order(a) - order(b))
    })

    const report = Effect.map(currentFindings, (fs) => {
      const reportCells: Array<Report.Cell> = [...cells.entries()]
        .map(([k, c]) => {
          const [operation, check] = k.split("\u0000") as [string, Checks.CheckId]
          return { operation, check, passed: c.passed, failed: c.failed, skipped: 0, skipReasons: [] }
        })
        .sort((a, b) => (a.operation < b.operation ? -1 : a.operation > b.operation ? 1 : Checks.ids.indexOf(a.check) - Checks.ids.indexOf(b.check)))
      return {
        runId,
        seed: 0,
        target,
        startedAt: new Date(startedAt).toISOString(),
        durationMs: Date.now() - startedAt,
        requests: exchanges,
        examples: exchanges,
        readOnly: false,
        replay: undefined,
        cells: reportCells,
        findings: fs,
        known: [],
        fixed: [],
        observations: [],
        notes: [
          `conformance proxy in front of ${target}: ${exchanges} exchanges checked; ${fs.filter((f) => f.side === "server").length} server and ${fs.filter((f) => f.side === "client").length} client findings${strict ? " (strict client)" : ""}`,
          ...(unchecked === 0
            ? []
            : [`${unchecked} of them relayed with a body left unread (binary codec, or a Content-Encoding that could not be decompressed): judged by status and headers only`])
        ]
      }
    })

    const forward = Effect.gen(function* () {
      const req = yield* HttpServerRequest.HttpServerRequest
      const url = req.url
      const q = url.indexOf("?")
      const path = q === -1 ? url : url.slice(0, q)
      if (path === REPORT_PATH && req.method === "GET") {
        const format = new URLSearchParams(q === -1 ? "" : url.slice(q + 1)).get("format") ?? "json"
        const r = yield* report
        return format === "terminal"
          ? HttpServerResponse.text(Report.toTerminal(r) + "\n")
          : format === "junit"
            ? HttpServerResponse.text(Report.toJUnit(r), { contentType: "application/xml" })
            : HttpServerResponse.text(Report.toJson(r), { contentType: "application/json" })
      }
      const started = Date.now()
      const incoming = req.headers as Readonly<Record<string, string>>
      const headers = relayable(incoming, new Set(["host"]))
      const key = incoming["x-api-key"]
      const query = q === -1 ? "" : url.slice(q + 1)
      const seenWith = (body: Uint8Array | undefined, bodyBytes: number): Rules.SeenRequest => ({
        method: req.method,
        path,
        query,
        headers: incoming,
        keyPresent: key !== undefined && key !== "",
        body,
        bodyBytes
      })
      const enqueue = (job: Job) => Queue.unsafeOffer(queue, { _tag: "Job", job })
      // Without Content-Length or Transfer-Encoding a request has no body.
      const requestLength = incoming["transfer-encoding"] !== undefined ? undefined : incoming["content-length"] === undefined ? 0 : lengthOf(incoming["content-length"])
      let outgoing = HttpClientRequest.make(req.method as "POST")(target + url)
      let seen: () => Rules.SeenRequest
      if (requestLength === 0) {
        seen = () => seenWith(EMPTY, 0)
      } else if (requestLength !== undefined && requestLength <= limit) {
        // A body the checks keep whole: read it once and send the bytes.
        const read = yield* HttpIncomingMessage.withMaxBodySize(req.arrayBuffer, Option.some(limit)).pipe(Effect.option)
        // The client went away before sending its body: nothing was relayed, nothing to check.
        if (Option.isNone(read)) return HttpServerResponse.empty({ status: 400 })
        const bytes = new Uint8Array(read.value)
        outgoing = HttpClientRequest.setBody(outgoing, HttpBody.raw(bytes))
        seen = () => seenWith(bytes, bytes.length)
      } else {
        // A longer body, or one of unknown length, streams through; the tee keeps what fits.
        const requestTee = makeTee(limit)
        let requestDone = false
        const body = req.stream.pipe(
          Stream.mapChunks((c) => {
            for (const x of c) requestTee.add(x)
            return c
          }),
          Stream.onEnd(Effect.sync(() => {
            requestDone = true
          }))
        )
        outgoing = HttpClientRequest.setBody(outgoing, HttpBody.raw(NodeStream.toReadableNever(body)))
        // A body the server answered before reading to its end is not known whole.
        seen = () => seenWith(requestDone ? requestTee.bytes() : undefined, requestTee.total())
      }
      outgoing = HttpClientRequest.setHeaders(outgoing, headers)
      const relay = Effect.flatMap(client.execute(outgoing), (res) => {
        const responseHeaders = res.headers as Readonly<Record<string, string>>
        const init = { status: res.status, headers: relayable(responseHeaders, new Set()) }
        const responseLength = responseHeaders["transfer-encoding"] === undefined ? lengthOf(responseHeaders["content-length"]) : undefined
        if (responseLength !== undefined && responseLength <= limit) {
          // An answer the checks keep whole: read it once, relay the bytes, check it after.
          return Effect.map(res.arrayBuffer, (buffer) => {
            const body = new Uint8Array(buffer)
            enqueue({ request: seen(), status: res.status, headers: responseHeaders, body, transportError: undefined, started, receivedAt: Date.now(), key })
            return HttpServerResponse.raw(body, init)
          })
        }
        const responseTee = makeTee(limit)
        const relayed = res.stream.pipe(
          Stream.mapChunks((c) => {
            for (const x of c) responseTee.add(x)
            return c
          }),
          Stream.onEnd(
            Effect.sync(() =>
              enqueue({ request: seen(), status: res.status, headers: responseHeaders, body: responseTee.bytes(), transportError: undefined, started, receivedAt: Date.now(), key })
            )
          )
        )
        return Effect.succeed(HttpServerResponse.raw(NodeStream.toReadableNever(relayed), init))
      })
      return yield* relay.pipe(
        Effect.catchAll((error) =>
          Effect.sync(() => {
            enqueue({
              request: seen(),
              status: 0,
              headers: {},
              body: undefined,
              transportError: `${error._tag} (${error.reason}): ${String((error.cause as { message?: unknown } | undefined)?.message ?? error.message).slice(0, 200)}`,
              started,
              receivedAt: Date.now(),
              key
            })
            return HttpServerResponse.text(ConnectError.writeBody(ConnectError.make("unavailable", `contract-tests proxy: ${target} did not answer (${error.reason})`)), {
              status: 502,
              contentType: ContentType.JSON_MEDIA_TYPE
            })
          })
        )
      )
    })

    const server = yield* NodeHttpServer.make(() => Http.createServer(), { port: options.port ?? 0, host: options.host ?? "127.0.0.1" }).pipe(
      Effect.mapError((e) => new ProxyError({ message: `the proxy could not listen: ${e.message}` }))
    )
    // No spans for relayed exchanges (server or client side): the proxy adds none of its own to the
    // traffic it relays, and they cost as much as the relay itself.
    yield* server.serve(forward).pipe(HttpMiddleware.withTracerDisabledWhenEffect(() => true), Effect.withTracerEnabled(false))
    const address = server.address
    const url = address._tag === "TcpAddress" ? `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}` : `unix:${address.path}`
    return { url, target, report, findings: currentFindings } satisfies Proxy
  }
)
