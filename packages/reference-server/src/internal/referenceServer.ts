/**
 * The code of the `ReferenceServer` module, which re-exports it.
 */
import type { KnownIds, Operations } from "@data-access/schema"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import * as Faults from "./faults.js"
import type * as FixturesModule from "./fixtures.js"
import * as LatitudeModule from "./latitudeSelection.js"
import type { RecordedRequest } from "./app.js"
import { makeCore } from "./core.js"
import * as DomainCall from "./domain.js"
import { serve } from "./httpServer.js"
import { makeClient } from "./inProcess.js"
import * as OptionsModule from "./options.js"
import * as WorkerThread from "./workerThread.js"

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
export type StoreOption = OptionsModule.StoreOption

/**
 * @since 0.1.0
 * @category models
 */
export interface Options extends OptionsModule.Options {}

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
export interface Running extends OptionsModule.Running {}

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
export class StartError extends Data.TaggedError("StartError")<OptionsModule.StartFailure> {}

/**
 * The default API key.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_API_KEY = OptionsModule.DEFAULT_API_KEY

/**
 * The default body size limit: 4 MiB.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_BODY_BYTES = OptionsModule.DEFAULT_MAX_BODY_BYTES

/** Makes the start error of a failure. */
const startError = (failure: OptionsModule.StartFailure) => new StartError(failure)

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
    const core = yield* makeCore(options, startError)
    const url = yield* serve(core, options, startError)
    return { ...core.running, url }
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
      const core = yield* makeCore(options, startError)
      const client = makeClient(core)
      return Context.make(HttpClient.HttpClient, client).pipe(
        Context.add(InProcess, { ...core.running, url: "http://reference.invalid" })
      )
    }).pipe(Effect.orDie)
  )

/**
 * What one operation's domain logic answered: the success body in wire form (proto3 JSON), or
 * the Connect error's code and message, with the `Retry-After` a rate limit sends.
 *
 * @since 0.4.0
 * @category models
 */
export type DomainAnswer = DomainCall.DomainAnswer

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
    const core = yield* makeCore(
      {
        ...options,
        apiKeys: [DomainCall.DOMAIN_KEY],
        maxBodyBytes: Number.MAX_SAFE_INTEGER,
        logRequests: false,
        tracing: false
      },
      startError
    )
    const { apiKeys: _, ...running } = core.running
    return { ...running, call: DomainCall.makeCall(core) }
  })
