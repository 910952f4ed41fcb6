/**
 * The conformance proxy: a reverse proxy in front of a deployment that relays every exchange
 * unchanged (method, path, query, headers but the hop-by-hop ones, body bytes; status, headers
 * and body back) and checks each against every rule one exchange can decide. A request that
 * breaks a rule of the interface is a `client` finding; an answer that breaks one is a `server`
 * finding. Bodies stream through; at most `checkedBytes` of each are kept for the checks.
 *
 * The checks run in a worker thread of their own, beside the relay: an answer goes back to the
 * client as soon as its bytes are relayed, never after its judging. Exchanges wait for the judge
 * in a bounded queue (4096); when judging falls that far behind, further exchanges are relayed
 * unjudged and counted in the report's notes. The report, the findings, the HAR and the metrics
 * wait for the judging of every exchange finished before them.
 *
 * `GET /__contract/report` on the proxy answers the report so far (`?format=json`, `terminal`,
 * `junit` or `html`), and `GET /__contract/metrics` its metrics in the Prometheus text format;
 * neither is forwarded.
 *
 * @since 0.3.0
 */
import * as Undici from "@effect/platform-node/Undici"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import type * as Net from "node:net"
import type { ContractRules } from "@data-access/schema"
import type * as Har from "./internal/recording/model.js"
import * as Rules from "./internal/judge/exchangeRules.js"
import * as Judging from "./internal/judge/judging.js"
import * as Metrics from "./internal/proxy/metrics.js"
import { H2cDispatcher } from "./internal/h2c.js"
import * as Relay from "./internal/proxy/relay.js"
import * as State from "./internal/proxy/state.js"
import { defaults } from "./internal/runner/options.js"
import type * as ProxyTypes from "./internal/judge/types.js"
import type * as Report from "./Report.js"

/**
 * Which party an exchange's finding blames: the `client` sent a request that breaks a rule, the
 * `server` answered in a way that breaks one.
 *
 * @since 0.3.0
 * @category models
 */
export type Side = ProxyTypes.Side

/**
 * A finding of the proxy: a run's finding with the side it blames. `seed` is 0 and `replayId`
 * empty (live traffic is not replayable); `curl` reproduces the request.
 *
 * @since 0.3.0
 * @category models
 */
export type Finding = ProxyTypes.Finding

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
  /** Called once per new finding (first occurrence, once judged), e.g. to log it. */
  readonly onFinding?: ((finding: Finding) => void) | undefined
  /** Keep every exchange (secrets masked) for `har` (default false: kept in memory until the proxy stops). */
  readonly recordHar?: boolean | undefined
  /** Serve `GET /__contract/metrics` (default true). */
  readonly metrics?: boolean | undefined
  /**
   * Judge each exchange before its answer is relayed and name its findings in the answer's
   * `X-Contract-Findings` header (`server <rule>, client <rule>`, or `none`; a streamed answer is
   * not judged first). Default false: answers are relayed unchanged.
   */
  readonly annotate?: boolean | undefined
  /**
   * Speak HTTP/2 to an `http://` target from the first byte (h2c), as a target that serves HTTP/2
   * only without TLS needs (connect-node's `http2.createServer`). Default false: HTTP/1.1.
   */
  readonly http2PriorKnowledge?: boolean | undefined
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
  /** The exchanges so far as HAR 1.2, secrets masked (empty unless `recordHar`). */
  readonly har: Effect.Effect<Har.Har>
  /** The metrics in the Prometheus text format (empty when `metrics` is false). */
  readonly metrics: Effect.Effect<string>
}

/**
 * The proxy could not listen.
 *
 * @since 0.3.0
 * @category errors
 */
export class ProxyError extends Schema.TaggedError<ProxyError>(
  "@data-access/contract-tests/ProxyError"
)("ProxyError", {
  message: Schema.String
}) {}

/**
 * The path of the report endpoint on the proxy's port.
 *
 * @since 0.3.0
 * @category constants
 */
export const REPORT_PATH = Relay.REPORT_PATH

/**
 * The path of the metrics endpoint on the proxy's port (Prometheus text format).
 *
 * @since 0.5.0
 * @category constants
 */
export const METRICS_PATH = Relay.METRICS_PATH

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

/**
 * Starts the proxy in the caller's scope, listening until the scope closes.
 *
 * The proxy relays with its own keep-alive connections to the target (an undici `Pool` to its
 * origin, closed with the scope) and serves with a plain `node:http` server: it needs no
 * `HttpClient` (it used the one in the context before), and it adds no spans to the traffic it
 * relays. Relaying is the proxy's hot path: an `@effect/platform` server and `HttpClient` around
 * each exchange cost as much CPU as the relay itself (BENCHMARKS.md).
 *
 * @example
 * ```ts
 * import { Proxy } from "@data-access/contract-tests"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function* () {
 *   const proxy = yield* Proxy.start({ target: "http://127.0.0.1:8080", port: 9090 })
 *   // ... point a client at proxy.url ...
 *   const report = yield* proxy.report
 *   return report.findings.filter((f) => f.side === "server")
 * }).pipe(Effect.scoped)
 * ```
 *
 * @since 0.3.0
 * @category running
 */
export const start: (options: Options) => Effect.Effect<Proxy, ProxyError, Scope.Scope> = Effect.fn(
  "Proxy.start"
)(function* (options: Options) {
  const target = options.target.replace(/\/+$/, "")
  const base = yield* Effect.try({
    try: () => new URL(target),
    catch: () =>
      new ProxyError({ message: `the proxy could not start: the target ${target} is not a URL` })
  })
  if (base.protocol !== "http:" && base.protocol !== "https:")
    return yield* new ProxyError({
      message: `the proxy could not start: the target ${target} is not an http or https URL`
    })
  const limit = options.checkedBytes ?? 4 * 1024 * 1024
  const metrics = options.metrics === false ? undefined : Metrics.make()
  const judgeSettings = {
    limit,
    strict: options.strictClient === true,
    skewMillis: Duration.toMillis(
      Duration.decode(options.clockSkew ?? Duration.millis(defaults.clockSkewMillis))
    )
  }
  const state = yield* State.make(
    {
      target,
      ...judgeSettings,
      onFinding: options.onFinding
    },
    { har: options.recordHar === true, metrics }
  ).pipe(
    Effect.mapError((e) => new ProxyError({ message: `the proxy could not start: ${e.message}` }))
  )
  if (options.http2PriorKnowledge === true && base.protocol !== "http:")
    return yield* new ProxyError({
      message: `the proxy could not start: http2PriorKnowledge is for an http:// target, not ${target}`
    })
  const dispatcher = yield* Effect.acquireRelease(
    Effect.sync((): Undici.Dispatcher =>
      options.http2PriorKnowledge === true ? new H2cDispatcher() : new Undici.Pool(base.origin)
    ),
    (d) => Effect.promise(() => d.destroy())
  )
  const runtime = yield* Effect.runtime<never>()
  const listener = Relay.listener({
    target,
    limit,
    dispatcher,
    enqueue: state.enqueue,
    report: state.report,
    metrics,
    settled: state.settled,
    run: Runtime.runPromise(runtime),
    annotate:
      options.annotate === true
        ? (job) => [
            ...new Set(
              Judging.judge(job, judgeSettings)
                .verdicts.filter((v) => !v.outcome.ok && v.outcome.rule !== undefined)
                .map((v) => `${v.side} ${v.outcome.rule}`)
            )
          ]
        : undefined
  })
  const server = yield* Effect.acquireRelease(
    Effect.sync(() => Http.createServer(listener)),
    (server) =>
      Effect.async<void>((resume) => {
        if (server.listening) server.close(() => resume(Effect.void))
        else resume(Effect.void)
      })
  )
  const address = yield* Effect.async<Net.AddressInfo | string | null, ProxyError>((resume) => {
    const onError = (e: Error) =>
      resume(Effect.fail(new ProxyError({ message: `the proxy could not listen: ${e.message}` })))
    server.once("error", onError)
    server.listen({ port: options.port ?? 0, host: options.host ?? "127.0.0.1" }, () => {
      server.off("error", onError)
      resume(Effect.succeed(server.address()))
    })
  })
  // Every interface (`::`) is shown as 0.0.0.0, as @effect/platform's server showed it.
  const hostOf = (a: Net.AddressInfo) =>
    a.address === "::" ? "0.0.0.0" : a.address.includes(":") ? `[${a.address}]` : a.address
  const url =
    address === null || typeof address === "string"
      ? `unix:${address}`
      : `http://${hostOf(address)}:${address.port}`
  const metricsText =
    metrics === undefined
      ? Effect.succeed("")
      : Effect.zipRight(state.settled, Effect.promise(metrics.text))
  return {
    url,
    target,
    report: state.report,
    findings: state.findings,
    har: state.har,
    metrics: metricsText
  } satisfies Proxy
})
