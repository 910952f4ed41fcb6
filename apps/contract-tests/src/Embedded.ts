/**
 * Runs the contract checks against the embedded reference server: started on an ephemeral
 * loopback port with its demo data, in the caller's thread or in a worker thread of its own (the
 * runner and the server on two cores), inside the caller's scope.
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "./ContractTests.js"
import type * as Report from "./Report.js"

/**
 * Options of an embedded run: the run options without a target, plus the reference server's
 * own options (faults, data...).
 *
 * @since 0.1.0
 * @category models
 */
export interface Options extends Omit<ContractTests.Options, "baseUrl" | "apiKey" | "fixtures"> {
  readonly server?: ReferenceServer.Options | undefined
  /**
   * Where the server runs. `"worker"`: a worker thread of its own (`ReferenceServer.startInWorker`),
   * so that the server answers while the caller's thread is busy. `"caller"` (the default, and the
   * command line's choice without `workers`): the caller's thread. On two cores the worker's run
   * was no quicker (the runner waits on each answer's hop between threads, and a worker warms up a
   * server of its own each time) and took more CPU: `bench/run.mjs` with `BENCH_WORKER=1` measures
   * both. With `workers` above 1 the default is `"worker"`: the caller's thread is free, and the
   * server keeps a core of its own where there is one.
   *
   * @since 0.6.0
   */
  readonly serverThread?: "worker" | "caller" | undefined
}

/**
 * Starts the reference server and runs against it. The server's known ids are the fixtures; the
 * default rate is unlimited. The server runs where `serverThread` says (a worker thread stays in the
 * caller's thread where it must: its `tracing` or `logRequests` on, or the reference server's module
 * loaded from its TypeScript source), and stops when the scope closes.
 *
 * @example
 * ```ts
 * import { Embedded } from "@data-access/contract-tests"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect } from "effect"
 *
 * // a server that accepts any API key: the `auth` check must report it
 * const program = Embedded.run({
 *   examples: 10,
 *   server: { faults: { rules: [{ fault: { _tag: "Violation", name: "auth-ignored" } }] } }
 * }).pipe(
 *   Effect.map((report) => report.findings.filter((finding) => finding.check === "auth")),
 *   Effect.scoped,
 *   Effect.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 *
 * @since 0.1.0
 * @category running
 */
export const run: (
  options?: Options
) => Effect.Effect<
  Report.Report,
  ContractTests.RunError | ReferenceServer.StartError,
  HttpClient.HttpClient | Scope.Scope
> = Effect.fn("Embedded.run")(function* (options: Options = {}) {
  const server =
    (options.serverThread ?? ((options.workers ?? 1) > 1 ? "worker" : "caller")) === "worker"
      ? yield* ReferenceServer.startInWorker(options.server ?? {})
      : yield* ReferenceServer.start(options.server ?? {})
  const { server: _server, serverThread: _thread, ...rest } = options
  return yield* ContractTests.run({
    ...rest,
    baseUrl: server.url,
    apiKey: Redacted.make(server.apiKeys[0]!),
    fixtures: server.knownIds
  })
})
