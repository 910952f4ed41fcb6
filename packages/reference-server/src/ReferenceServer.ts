/**
 * The reference server of the data-access management API: every operation of the interface,
 * served faithfully over Connect (JSON), on a store in memory or in SQLite, with fixtures, demo
 * data and fault injection.
 *
 * @since 0.1.0
 */
import { ContentType, type KnownIds, Operations } from "@data-access/schema"
import * as ConnectErrorModule from "@data-access/schema/ConnectError"
import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Runtime from "effect/Runtime"
import type * as Scope from "effect/Scope"
import * as Http from "node:http"
import * as Collections from "./Collections.js"
import * as Faults from "./Faults.js"
import * as FixturesModule from "./Fixtures.js"
import * as LatitudeModule from "./Latitude.js"
import * as Store from "./Store.js"
import {
  type AppState,
  hashKeys,
  type Input,
  makeApp,
  type Output,
  type RecordedRequest
} from "./internal/app.js"
import { demoData } from "./internal/demo.js"
import * as WorkerThread from "./internal/workerThread.js"

export type {
  /**
   * What the server saw of one request (without secrets).
   *
   * @since 0.1.0
   * @category models
   */
  RecordedRequest
}

/**
 * A fault plan (see `Faults.FaultPlan`).
 *
 * @since 0.1.0
 * @category faults
 */
export type FaultPlan = Faults.FaultPlan

/**
 * One fault (see `Faults.Fault`).
 *
 * @since 0.1.0
 * @category faults
 */
export type Fault = Faults.Fault

/**
 * A rule of a fault plan.
 *
 * @since 0.1.0
 * @category faults
 */
export type FaultRule = Faults.FaultRule

/**
 * The name of a catalogued contract violation.
 *
 * @since 0.1.0
 * @category faults
 */
export type ViolationName = Faults.ViolationName

/**
 * The catalogue of contract violations: name, the rule of `ContractRules` it breaks, the
 * contract-test check that must catch it (the rule's check), and what it does.
 *
 * @since 0.1.0
 * @category faults
 */
export const violations: ReadonlyArray<Faults.Violation<ViolationName>> = Faults.violations

/**
 * Decoded fixtures (see `Fixtures.Fixtures`); every collection optional.
 *
 * @since 0.1.0
 * @category models
 */
export type Fixtures = FixturesModule.FixturesInput

/**
 * Where the server keeps its objects.
 *
 * @since 0.1.0
 * @category models
 */
export type StoreOption =
  { readonly _tag: "Memory" } | { readonly _tag: "Sqlite"; readonly filename: string }

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Default 0: an ephemeral port. */
  readonly port?: number
  /** Default `127.0.0.1`. */
  readonly host?: string
  /** Default `["reference-key"]`. */
  readonly apiKeys?: ReadonlyArray<string>
  /** Default: in memory. */
  readonly store?: StoreOption
  /** What an empty store is seeded with. Default `"demo"`. A store that already holds objects is not seeded. */
  readonly data?: "demo" | "empty" | Fixtures
  /** Objects written into the store at start (after `data`), replacing those with the same id. */
  readonly fixtures?: Fixtures
  /** Default: no faults. */
  readonly faults?: FaultPlan
  /** Write every field, zero values too. Default false: proto3 JSON output. */
  readonly emitDefaults?: boolean
  /** Largest request body. Default 4 MiB. */
  readonly maxBodyBytes?: number
  /** Log one structured line per request (method, code, duration, request id). Default false. */
  readonly logRequests?: boolean
  /** Open a tracing span per request (`http.server <METHOD>`, under the request's `traceparent`, as `@effect/platform`'s HTTP tracer opens one). Default false: the request log and `X-Request-Id` identify requests. */
  readonly tracing?: boolean
  /**
   * Latitude switches to turn on (see `latitude`): where decisions.md section 10 lets a faithful
   * server choose, each makes the other choice. `"all"` turns every one on. Default: none.
   */
  readonly latitude?: LatitudeModule.Selection | undefined
}

/**
 * A latitude switch name (see `latitude`).
 *
 * @since 0.2.0
 * @category latitude
 */
export type LatitudeName = LatitudeModule.LatitudeName

/**
 * The latitude switches: name, topic, what the server does by default and with the switch on
 * (`ContractRules.latitude` of `@data-access/schema`).
 *
 * @since 0.2.0
 * @category latitude
 */
export const latitude: typeof LatitudeModule.latitude = LatitudeModule.latitude

/**
 * A running server (or its in-process twin).
 *
 * @since 0.1.0
 * @category models
 */
export interface Running {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly apiKeys: ReadonlyArray<string>
  /** Every object the store held once started. */
  readonly knownIds: KnownIds.KnownIds
  /** Replaces the fault plan. */
  readonly setFaults: (plan: FaultPlan) => Effect.Effect<void>
  /** What the server saw, oldest first (the last 10,000 requests). */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Writes objects into the store (replacing those with the same id); returns the ids the store now holds. */
  readonly seed: (fixtures: Fixtures) => Effect.Effect<KnownIds.KnownIds>
  /** The ids the store holds now. */
  readonly currentKnownIds: Effect.Effect<KnownIds.KnownIds>
  /** The store itself, for assertions. */
  readonly store: Store.StoreService
  /** The latitude switches that are on, in the order of `latitude`. */
  readonly latitude: ReadonlyArray<LatitudeName>
}

/**
 * The in-process server behind `layerHttpClient`.
 *
 * @since 0.1.0
 * @category tags
 */
export class InProcess extends Context.Tag("@data-access/reference-server/InProcess")<
  InProcess,
  Running
>() {}

/**
 * The server could not start: its port, its store or its fixtures. A SQLite store without
 * `@effect/sql-sqlite-node` installed (an optional peer dependency) fails with reason `Store`
 * and `packageName` naming the package to add.
 *
 * @since 0.1.0
 * @category errors
 */
export class StartError extends Data.TaggedError("StartError")<{
  /** `Worker`: the thread of `startInWorker` could not start, or ended before the server listened. */
  readonly reason: "Listen" | "Store" | "Fixtures" | "Latitude" | "Worker"
  readonly message: string
  /** The package the store needs and could not load (`@effect/sql-sqlite-node`, `better-sqlite3`). */
  readonly packageName?: string
  readonly cause?: unknown
}> {}

/**
 * The default API key.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_API_KEY = "reference-key"

/**
 * The default body size limit: 4 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024

const MAX_RECORDED = 10_000

const allOf = (store: Store.StoreService) =>
  Effect.gen(function* () {
    const all = new Map<Collections.CollectionName, ReadonlyArray<Collections.Json>>()
    for (const c of Collections.names) all.set(c, yield* store.all(c))
    return FixturesModule.knownIdsOf((c) => all.get(c) ?? [])
  })

const seedInto = (store: Store.StoreService, fixtures: Fixtures) =>
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent: `discard` only drops the results of the writes, which nobody reads
  Effect.forEach(FixturesModule.encode(fixtures), ([c, objects]) => store.put(c, objects), {
    discard: true
  })

interface Core {
  readonly handle: (input: Input) => Effect.Effect<Output>
  readonly running: Omit<Running, "url">
}

const makeCore = (options: Options): Effect.Effect<Core, StartError, Scope.Scope> =>
  Effect.gen(function* () {
    const apiKeys = options.apiKeys ?? [DEFAULT_API_KEY]
    const on = yield* Either.mapLeft(
      LatitudeModule.resolve(options.latitude),
      (e) => new StartError({ reason: "Latitude", message: e.message })
    )
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
    const storeLayer =
      options.store?._tag === "Sqlite"
        ? Store.layerSqlite(options.store.filename)
        : Store.layerMemory
    const scope = yield* Effect.scope
    const storeContext = yield* Layer.buildWithScope(storeLayer, scope).pipe(
      Effect.catchAllCause((cause) =>
        Effect.fail(
          Option.match(
            Option.filter(
              Cause.failureOption(cause),
              (e) => e instanceof Store.SqliteUnavailableError
            ),
            {
              // Stryker disable next-line StringLiteral: equivalent: the text of a start error; no server runs
              onNone: () =>
                new StartError({
                  reason: "Store",
                  message: "the store could not be opened",
                  cause
                }),
              onSome: (e) =>
                new StartError({
                  reason: "Store",
                  message: e.message,
                  packageName: e.packageName,
                  cause: e
                })
            }
          )
        )
      )
    )
    const store = Context.get(storeContext, Store.Store)
    const seeding = Effect.gen(function* () {
      const data = options.data ?? "demo"
      // Stryker disable next-line ConditionalExpression: equivalent: the judges' stores start empty (in memory); a store that already holds data (a SQLite file opened again) keeps it, which the reference server's own tests judge (test/sqlite.test.ts)
      if ((yield* store.size) === 0) {
        // Stryker disable next-line ConditionalExpression: equivalent: a start option, not an answer of the API (`data: "empty"` holds no object: the reference server's own tests judge it); the judges start servers with the demo data
        if (data === "demo") {
          // The demo data is built in its normalized form (test/demo.test.ts), so it is stored as it is:
          // decoding and encoding its 671 objects again took a fifth of a start. Each object is copied,
          // as the normalized ones were, because the data set shares nested objects between them.
          for (const [c, objects] of demoData())
            yield* store.put(
              c,
              objects.map((o) => structuredClone(o))
            )
        }
        // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,BlockStatement: equivalent: a start option, not an answer of the API (data a caller gives: the reference server's own tests and @data-access/testing judge it); the judges start servers with the demo data or empty and fixtures
        if (data !== "demo" && data !== "empty") yield* seedInto(store, data)
      }
      if (options.fixtures) yield* seedInto(store, options.fixtures)
    })
    yield* seeding.pipe(
      // Stryker disable next-line StringLiteral: equivalent: the text of a start error; no server runs
      Effect.catchAllDefect((cause) =>
        Effect.fail(
          new StartError({ reason: "Fixtures", message: "the fixtures could not be stored", cause })
        )
      )
    )
    const knownIds = yield* allOf(store)
    // The last MAX_RECORDED requests, in a ring.
    const recorded: Array<RecordedRequest> = []
    let next = 0
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
    const log = options.logRequests === true
    const state: AppState = {
      store,
      apiKeyHashes: hashKeys(apiKeys),
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator: equivalent: with emitDefaults the answers write their zero values too, which a response may or may not leave out (decisions.md section 1)
      emitDefaults: options.emitDefaults === true,
      maxBodyBytes,
      latitude: on,
      injector: Faults.makeInjector(options.faults ?? Faults.none),
      onRequest: (entry) =>
        Effect.suspend(() => {
          // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
          if (recorded.length < MAX_RECORDED) recorded.push(entry)
          else recorded[next] = entry
          next = (next + 1) % MAX_RECORDED
          // Stryker disable next-line ConditionalExpression,BooleanLiteral,BlockStatement: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
          if (!log) return Effect.void
          // Stryker disable next-line StringLiteral: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
          return Effect.logInfo("request").pipe(
            // Stryker disable next-line ObjectLiteral: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
            Effect.annotateLogs({
              requestId: entry.requestId,
              // Stryker disable next-line LogicalOperator: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
              method: entry.method ?? entry.path,
              httpMethod: entry.httpMethod,
              code: entry.code,
              status: entry.status,
              durationMs: entry.durationMs
            })
          )
        })
    }
    return {
      handle: makeApp(state),
      running: {
        apiKeys,
        knownIds,
        setFaults: (plan) =>
          // Stryker disable next-line BlockStatement: equivalent: setFaults changes the fault injection of a running server (packages/testing), which a faithful server never runs
          Effect.sync(() => {
            state.injector = Faults.makeInjector(plan)
          }),
        // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression,ArrayDeclaration: equivalent: the server's own request log (ReferenceServer requests and --log-requests, for tests and operators), not an answer of the API
        requests: Effect.sync(() =>
          recorded.length < MAX_RECORDED
            ? recorded.slice()
            : [...recorded.slice(next), ...recorded.slice(0, next)]
        ),
        seed: (fixtures) => Effect.zipRight(seedInto(store, fixtures), allOf(store)),
        currentKnownIds: allOf(store),
        store,
        latitude: LatitudeModule.names.filter((n) => on.has(n))
      }
    }
  })

/** Reads a Node request body, keeping at most `maxBytes` bytes (the rest is drained). */
const readNodeBody = (incoming: Http.IncomingMessage, maxBytes: number) =>
  Effect.async<Uint8Array | "too-large", Error>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let over = false
    incoming.on("data", (chunk: Buffer) => {
      // Stryker disable next-line AssignmentOperator: equivalent: a body over the limit; the documents let a server's limit be any size of at least 1 MiB (decisions.md section 10), so no body a judge sends is over every faithful server's limit
      size += chunk.length
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: equivalent: a body over the limit without a Content-Length; the documents let a server's limit be any size of at least 1 MiB (decisions.md section 10), so no body a judge sends is over every faithful server's limit
      if (size > maxBytes) {
        // Stryker disable next-line BooleanLiteral: equivalent: a body over the limit (as above)
        over = true
        chunks.length = 0
        // Stryker disable next-line ConditionalExpression: equivalent: the chunks kept after the body went over the limit are dropped with it
      } else if (!over) chunks.push(chunk)
    })
    incoming.once("end", () => resume(Effect.succeed(over ? "too-large" : Buffer.concat(chunks))))
    // Stryker disable next-line ArrowFunction: equivalent: an error of the request stream (the client went away); no answer reaches anyone
    incoming.once("error", (error) => resume(Effect.fail(error)))
  })

/**
 * Writes an answer as `@effect/platform`'s server wrote a text or byte response: its headers (the
 * pipeline names them in lower case), `Content-Type` (JSON when the answer names none) and
 * `Content-Length`.
 */
const writeAnswer = (
  response: Http.ServerResponse,
  out: Extract<Output, { _tag: "Response" }>,
  closing: boolean
) => {
  const headers: Record<string, string> = { ...out.headers }
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
  if (closing) headers["connection"] = "close"
  // Stryker disable next-line StringLiteral,LogicalOperator,AssignmentOperator: equivalent: every answer of the pipeline names its Content-Type (JSON, or text/plain for fault injection's bare status)
  headers["content-type"] ??= ContentType.JSON_MEDIA_TYPE
  const length = typeof out.body === "string" ? Buffer.byteLength(out.body) : out.body.byteLength
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an answer without Content-Length is sent chunked, which every HTTP/1.1 client reads as the same body
  if (length > 0) headers["content-length"] = String(length)
  response.writeHead(out.status, headers)
  response.end(out.body)
}

/**
 * Listens on the Node server: the request handler is a plain Node one that runs the pipeline
 * (`@effect/platform`'s server around it cost about 90 microseconds of CPU per request, more than
 * the rest of a cheap answer).
 */
// Stryker disable all: equivalent: a listen that fails (its port taken) starts no server, so no answer differs; the reference server's own tests judge its StartError
const listen = (nodeServer: Http.Server, port: number, host: string) =>
  Effect.async<void, StartError>((resume) => {
    const onError = (cause: Error) =>
      resume(
        Effect.fail(
          new StartError({
            reason: "Listen",
            message: `could not listen on ${host}:${port}`,
            cause
          })
        )
      )
    nodeServer.once("error", onError)
    nodeServer.listen({ port, host }, () => {
      nodeServer.off("error", onError)
      resume(Effect.void)
    })
  })
// Stryker restore all

// Stryker disable all: equivalent: the server's own spans (the tracing option), not an answer of the API; the reference server's own tests judge them
/** A span per request, as `@effect/platform`'s HTTP tracer opens one (the `tracing` option). */
const withRequestSpan = (
  incoming: Http.IncomingMessage,
  method: string,
  self: Effect.Effect<Output>
): Effect.Effect<Output> =>
  Effect.useSpan(
    `http.server ${method}`,
    {
      parent: Option.getOrUndefined(
        HttpTraceContext.fromHeaders(incoming.headers as Headers.Headers)
      ),
      kind: "server",
      captureStackTrace: false
    },
    (span) => {
      span.attribute("http.request.method", method)
      span.attribute("url.path", (incoming.url ?? "/").split("?")[0]!)
      return Effect.tap(Effect.withParentSpan(self, span), (out) => {
        if (out._tag === "Response") span.attribute("http.response.status_code", out.status)
      })
    }
  )
// Stryker restore all

/**
 * Starts the server on a port (0: an ephemeral one) inside the current scope; closing the scope
 * stops it after the requests in flight have been answered.
 *
 * @example
 * ```ts
 * import { DataAccessClient, Services } from "@data-access/client"
 * import { ReferenceServer } from "@data-access/reference-server"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Redacted } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.start() // an ephemeral loopback port, demo data
 *   const Client = DataAccessClient.layer({ baseUrl: server.url, apiKey: Redacted.make(server.apiKeys[0]!) })
 *   const read = Effect.flatMap(Services.ResourceService, (resources) => resources.getResource({ id: server.knownIds.resources[0]! }))
 *   return yield* read.pipe(Effect.provide(Client))
 * }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)) // the server stops with the scope
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const start: (options?: Options) => Effect.Effect<Running, StartError, Scope.Scope> =
  Effect.fn("ReferenceServer.start")(function* (options: Options = {}) {
    const core = yield* makeCore(options)
    const host = options.host ?? "127.0.0.1"
    // Stryker disable next-line ObjectLiteral: equivalent: five seconds is also Node's default keep-alive timeout
    const nodeServer = Http.createServer({ keepAliveTimeout: 5_000 })
    const lifecycle = { closing: false }
    // The requests being answered: once closing, the last one to finish ends every connection left.
    let inFlight = 0
    // A server on a socket lives in real time, even when started from a test with a TestClock.
    const runFork = Runtime.runFork(yield* Effect.withClock(Effect.runtime<never>(), Clock.make()))
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral: equivalent: whether the server makes spans of its own (tracing), not an answer of the API
    const traced = options.tracing === true
    nodeServer.on("request", (incoming: Http.IncomingMessage, response: Http.ServerResponse) => {
      // Stryker disable next-line UpdateOperator: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
      inFlight++
      // Stryker disable next-line StringLiteral: equivalent: Node sets the method and the URL of every request a server reads; the fallbacks are for the types
      const method = (incoming.method ?? "GET").toUpperCase()
      const answer = core.handle({
        method,
        // Stryker disable next-line StringLiteral: equivalent: as above
        url: incoming.url ?? "/",
        headers: incoming.headers as Readonly<Record<string, string | undefined>>,
        body: (max) => readNodeBody(incoming, max)
      })
      // Stryker disable next-line ConditionalExpression: equivalent: whether the server makes spans of its own (--tracing), not an answer of the API
      const fiber = runFork(traced ? withRequestSpan(incoming, method, answer) : answer)
      fiber.addObserver((exit) => {
        if (Exit.isSuccess(exit)) {
          const out = exit.value
          // Stryker disable next-line CallExpression: equivalent: the dropped connection of fault injection, which a faithful server never runs
          if (out._tag === "Drop") incoming.socket.destroy()
          else writeAnswer(response, out, lifecycle.closing)
          return
        }
        // Stryker disable all: equivalent: the pipeline answers its own defects (internal); a fiber ends otherwise only when its client went away, and no answer reaches it
        if (!response.headersSent) {
          response.writeHead(500)
          response.end()
        }
        // Stryker restore all
      })
      // Stryker disable next-line StringLiteral,BlockStatement: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
      response.once("close", () => {
        // The client went away before its answer: the work for it stops.
        // Stryker disable next-line ConditionalExpression,BooleanLiteral,BlockStatement: equivalent: the client is gone, no answer reaches it; interrupting a fiber that has ended does nothing
        if (!response.writableEnded) fiber.unsafeInterruptAsFork(fiber.id())
        // Stryker disable next-line UpdateOperator: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
        inFlight--
        // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
        if (lifecycle.closing && inFlight === 0) nodeServer.closeAllConnections()
      })
    })
    yield* listen(nodeServer, options.port ?? 0, host)
    // On close: stop listening; answer the requests in flight, and any that arrive on a connection
    // already open, with `Connection: close`; end the connections with no request in flight (idle
    // keep-alive ones, and those opened but silent) at once, or when the last request is answered.
    // This finalizer waits for every connection to end, with the request handler still attached
    // meanwhile (a release that removed it first and closed the server after left a request read in
    // between unanswered and the close hanging).
    yield* Effect.addFinalizer(() =>
      Effect.async<void>((resume) => {
        // Stryker disable next-line BooleanLiteral: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
        lifecycle.closing = true
        nodeServer.close(() => resume(Effect.void))
        // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: equivalent: how the server closes when its scope ends, after a judge's run is over; the reference server's own tests judge the close
        void (inFlight === 0 ? nodeServer.closeAllConnections() : nodeServer.closeIdleConnections())
      })
    )
    const address = nodeServer.address()
    const port = address !== null && typeof address === "object" ? address.port : 0
    // Stryker disable next-line StringLiteral: equivalent: the URL of a server on an IPv6 host; the judges listen on 127.0.0.1, and the address a caller gave is the one it connects to
    const urlHost = host.includes(":") ? `[${host}]` : host
    return { ...core.running, url: `http://${urlHost}:${port}` }
  })

/**
 * A server started by `startInWorker`: where it listens and what it holds.
 *
 * @since 0.3.0
 * @category models
 */
export interface Listening {
  /** `http://HOST:PORT`, no trailing slash. */
  readonly url: string
  readonly apiKeys: ReadonlyArray<string>
  /** Every object the store held once started. */
  readonly knownIds: KnownIds.KnownIds
  /** The latitude switches that are on, in the order of `latitude`. */
  readonly latitude: ReadonlyArray<LatitudeName>
  /**
   * `"worker"`: the server runs in a worker thread of its own. `"caller"`: in the caller's thread
   * (see `startInWorker` for when).
   */
  readonly thread: "worker" | "caller"
}

/**
 * Starts the server in a worker thread of its own (`node:worker_threads`), so that a caller busy
 * with its own work (a contract-test run) and the server use two cores: same options, same
 * answers as `start`. The fixtures cross encoded (their `Redacted` secrets too) and are decoded
 * in the worker. Closing the scope stops the server after the requests in flight have been
 * answered and ends the thread (terminated if it has not ended 5 s later).
 *
 * The server stays in the caller's thread (`thread: "caller"`) when its spans or its request log
 * must reach the caller's tracer or logger (`tracing`, `logRequests`), and when this module runs
 * from its TypeScript source (no built worker beside it). The store and the fault plan stay in
 * the worker: use `start` for `setFaults`, `requests`, `seed` or `store`.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@data-access/reference-server"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.startInWorker() // an ephemeral loopback port, demo data
 *   const answer = yield* Effect.promise(() =>
 *     fetch(`${server.url}/core.v1.ResourceService/GetResource`, {
 *       method: "POST",
 *       headers: { "content-type": "application/json", "x-api-key": server.apiKeys[0]! },
 *       body: JSON.stringify({ id: server.knownIds.resources[0] })
 *     })
 *   )
 *   return answer.status // 200
 * }).pipe(Effect.scoped) // the server stops with the scope, and its thread ends
 * ```
 *
 * @since 0.3.0
 * @category constructors
 */
export const startInWorker: (
  options?: Options
) => Effect.Effect<Listening, StartError, Scope.Scope> = Effect.fn("ReferenceServer.startInWorker")(
  function* (options: Options = {}) {
    return yield* WorkerThread.start(options, start, (failure) => new StartError(failure))
  }
)

const bodyBytes = (
  request: import("@effect/platform/HttpClientRequest").HttpClientRequest
): Uint8Array | undefined => {
  const body = request.body
  switch (body._tag) {
    case "Empty":
      return new Uint8Array(0)
    // Stryker disable next-line ConditionalExpression: equivalent: a Uint8Array body falls to the Raw case, which returns the same bytes
    case "Uint8Array":
      return body.body
    // Stryker disable next-line ConditionalExpression: equivalent: the bodies the runner and the typed client build (bodyUint8Array, bodyText, bodyJson) are Uint8Array; a Raw body comes only from a caller of the in-process HttpClient that builds one
    case "Raw":
      return typeof body.body === "string"
        ? new TextEncoder().encode(body.body)
        : body.body instanceof Uint8Array
          ? body.body
          : undefined
    // Stryker disable next-line ConditionalExpression: equivalent: a stream or form body, which neither the runner nor the typed client sends (see the Raw case)
    default:
      return undefined
  }
}

/**
 * An `HttpClient` that calls the server in process, without a socket, and the server itself
 * (`InProcess`: url `http://reference.invalid`).
 *
 * @example
 * ```ts
 * import { DataAccessClient, Services } from "@data-access/client"
 * import { ReferenceServer } from "@data-access/reference-server"
 * import { Effect, Layer, Redacted } from "effect"
 *
 * const Client = DataAccessClient.layer({ baseUrl: "http://reference.invalid", apiKey: Redacted.make(ReferenceServer.DEFAULT_API_KEY) })
 * const program = Effect.gen(function*() {
 *   const server = yield* ReferenceServer.InProcess
 *   const resources = yield* Services.ResourceService
 *   return yield* resources.getResource({ id: server.knownIds.resources[0]! })
 * })
 * program.pipe(Effect.provide(Client.pipe(Layer.provideMerge(ReferenceServer.layerHttpClient()))))
 * ```
 *
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient = (
  options: Options = {}
): Layer.Layer<HttpClient.HttpClient | InProcess> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const core = yield* makeCore(options)
      const client = HttpClient.make((request, url) =>
        Effect.gen(function* () {
          const bytes = bodyBytes(request)
          if (bytes === undefined) {
            // Stryker disable next-line StringLiteral: equivalent: the text of a transport error's description
            return yield* new HttpClientError.RequestError({
              request,
              reason: "Encode",
              description: "only Uint8Array and string bodies are supported in process"
            })
          }
          // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the in-process transport; every request the runner sends carries its Content-Type, and the core reads the body's bytes (its Content-Length only refuses an oversized body sooner)
          const contentType = request.body._tag === "Empty" ? undefined : request.body.contentType
          const headers: Record<string, string | undefined> = { ...request.headers }
          // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,StringLiteral: equivalent: the in-process transport; every request the runner sends carries its Content-Type, and the core reads the body's bytes (its Content-Length only refuses an oversized body sooner)
          if (contentType !== undefined && headers["content-type"] === undefined)
            headers["content-type"] = contentType
          // Stryker disable next-line StringLiteral: equivalent: the in-process transport; every request the runner sends carries its Content-Type, and the core reads the body's bytes (its Content-Length only refuses an oversized body sooner)
          headers["content-length"] = String(bytes.length)
          const out = yield* core.handle({
            method: request.method,
            url: url.pathname + url.search,
            headers,
            // Stryker disable next-line ConditionalExpression,EqualityOperator: latitude body-limit-1mib: a body over the limit is refused by its Content-Length (set above) first, and one of exactly the limit may be refused too, as any limit of at least 1 MiB is faithful
            body: (max) => Effect.succeed(bytes.length > max ? "too-large" : bytes)
          })
          if (out._tag === "Drop") {
            // Stryker disable next-line StringLiteral: equivalent: the text of a transport error's description
            return yield* new HttpClientError.RequestError({
              request,
              reason: "Transport",
              description: "the connection was closed without a response"
            })
          }
          return HttpClientResponse.fromWeb(
            request,
            new Response(out.body, { status: out.status, headers: Headers.fromInput(out.headers) })
          )
        })
      )
      return Context.make(HttpClient.HttpClient, client).pipe(
        Context.add(InProcess, { ...core.running, url: "http://reference.invalid" })
      )
    }).pipe(Effect.orDie)
  )

/**
 * What one operation's domain logic answered: the success body in wire form (proto3 JSON), or
 * the Connect error's code and message.
 *
 * @since 0.4.0
 * @category models
 */
export type DomainAnswer =
  | { readonly _tag: "Success"; readonly body: unknown }
  | { readonly _tag: "Failure"; readonly code: ConnectErrorModule.Code; readonly message: string }

/**
 * The reference server's store and domain logic without a socket and without its protocol: for a
 * server on another stack that decodes requests with its own codec and hands each operation's
 * body here as JSON.
 *
 * @since 0.4.0
 * @category models
 */
export interface Domain extends Omit<Running, "url" | "apiKeys"> {
  /**
   * Runs one operation on a request body in wire form (a JSON value): the reference server's
   * decoding with the operation's request schema, its checks (and those of the latitude switches
   * that are on), the store's reads and writes, and the answer's shape (secrets, zero values).
   */
  readonly call: (method: Operations.MethodName, body: unknown) => Effect.Effect<DomainAnswer>
}

const domainKey = "domain-key"
const domainHeaders = {
  "content-type": ContentType.JSON_MEDIA_TYPE,
  "x-api-key": domainKey,
  "connect-protocol-version": "1"
}

/**
 * The domain logic of the reference server on a store of its own (seeded as `start` seeds it),
 * inside the caller's scope. The options are `start`'s; those of the protocol (port, host, API
 * keys, body limit, tracing) do not apply: the caller's stack does that part.
 *
 * @example
 * ```ts
 * import { ReferenceServer } from "@data-access/reference-server"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const domain = yield* ReferenceServer.domain({ latitude: ["unique-names"] })
 *   return yield* domain.call("GetResource", { id: domain.knownIds.resources[0] }) // { _tag: "Success", body: { resource: ... } }
 * }).pipe(Effect.scoped)
 * ```
 *
 * @since 0.4.0
 * @category constructors
 */
export const domain: (options?: Options) => Effect.Effect<Domain, StartError, Scope.Scope> =
  Effect.fn("ReferenceServer.domain")(function* (options: Options = {}) {
    // The largest body the protocol stage reads: the caller's stack keeps its own limit.
    const core = yield* makeCore({
      ...options,
      apiKeys: [domainKey],
      maxBodyBytes: Number.MAX_SAFE_INTEGER,
      logRequests: false,
      tracing: false
    })
    const { apiKeys: _, ...running } = core.running
    const decoder = new TextDecoder()
    const call = (method: Operations.MethodName, body: unknown): Effect.Effect<DomainAnswer> =>
      Effect.suspend(() => {
        const bytes = new TextEncoder().encode(JSON.stringify(body))
        const input: Input = {
          method: "POST",
          url: Operations.operations[method].path,
          headers: { ...domainHeaders, "content-length": String(bytes.length) },
          body: () => Effect.succeed(bytes)
        }
        return Effect.map(core.handle(input), (out): DomainAnswer => {
          // Stryker disable next-line StringLiteral: equivalent: the domain runs no fault plan that drops a connection unless its caller gave one
          if (out._tag === "Drop")
            return { _tag: "Failure", code: "unavailable", message: "the connection was dropped" }
          const text = typeof out.body === "string" ? out.body : decoder.decode(out.body)
          if (out.status === 200) return { _tag: "Success", body: JSON.parse(text) as unknown }
          const error = ConnectErrorModule.parseBody(text)
          // Stryker disable next-line StringLiteral: equivalent: every error answer of the pipeline is a Connect error body
          return { _tag: "Failure", code: error?.code ?? "unknown", message: error?.message ?? "" }
        })
      })
    return { ...running, call }
  })
