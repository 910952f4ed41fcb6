/**
 * Runs the contract checks against the embedded reference server: started on an ephemeral
 * loopback port with its demo data, in a worker thread of its own (the runner and the server use
 * two cores), inside the caller's scope.
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
}

/**
 * Starts the reference server and runs against it. The server's known ids are the fixtures; the
 * default rate is unlimited. The server runs in a worker thread (`ReferenceServer.startInWorker`),
 * or in the caller's thread where it must (its `tracing` or `logRequests` on, or the reference
 * server's module loaded from its TypeScript source), and stops when the scope closes.
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
) => Effect.Effect<Report.Report, ContractTests.RunError | ReferenceServer.StartError, HttpClient.HttpClient | Scope.Scope> = Effect.fn(
  "Embedded.run"
)(function* (options: Options = {}) {
  const server = yield* ReferenceServer.startInWorker(options.server ?? {})
  const { server: _server, ...rest } = options
  return yield* ContractTests.run({
    ...rest,
    baseUrl: server.url,
    apiKey: Redacted.make(server.apiKeys[0]!),
    fixtures: server.knownIds
  })
})
