/**
 * Runs the contract checks against a deployment and returns a `Report`. Usable from a user's
 * own `@effect/vitest` suite:
 *
 * ```ts
 * import { ContractTests } from "@data-access/contract-tests"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { expect, it } from "@effect/vitest"
 * import { Config, Effect } from "effect"
 *
 * it.live("staging meets the contract", () =>
 *   Effect.gen(function* () {
 *     const baseUrl = yield* Config.string("DATA_ACCESS_BASE_URL")
 *     const apiKey = yield* Config.redacted("DATA_ACCESS_API_KEY")
 *     const report = yield* ContractTests.run({ baseUrl, apiKey, examples: 20, readOnly: true })
 *     expect(report.findings).toEqual([])
 *   }).pipe(Effect.provide(NodeHttpClient.layerUndici))
 * )
 * ```
 *
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { KnownIds } from "@data-access/schema"
import type * as Baseline from "./Baseline.js"
import type * as Har from "./Har.js"
import * as Runner from "./internal/runner/run.js"
import * as Suite from "./internal/runner/suite.js"
import type * as Report from "./Report.js"

/**
 * Options of a run. Only `baseUrl` and `apiKey` are required.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly baseUrl: string
  readonly apiKey: Redacted.Redacted<string>
  /** Ids of existing objects (decisions.md section 9); List operations add what they find. */
  readonly fixtures?: KnownIds.KnownIds | undefined
  /** Default: a random seed, printed in the report. */
  readonly seed?: number | undefined
  /** Generated examples per operation and property (default 100). */
  readonly examples?: number | undefined
  /** Method names to run (default: all). */
  readonly operations?: ReadonlyArray<string> | undefined
  readonly excludeOperations?: ReadonlyArray<string> | undefined
  /** Check ids to run (default: all). */
  readonly checks?: ReadonlyArray<string> | undefined
  readonly excludeChecks?: ReadonlyArray<string> | undefined
  /** Valid examples per Create operation, each of which makes an object (default: `examples`). */
  readonly createsPerOperation?: number | undefined
  /** Send no Create or Update request. */
  readonly readOnly?: boolean | undefined
  /** Requests per second; `undefined` is unlimited. */
  readonly rateLimit?: number | undefined
  /** Per-request timeout (default 10 seconds). */
  readonly timeout?: Duration.DurationInput | undefined
  /** Stop starting new examples after this long (default: none). */
  readonly timeBudget?: Duration.DurationInput | undefined
  /** Allowed clock difference between this machine and the server (default 5 seconds). */
  readonly clockSkew?: Duration.DurationInput | undefined
  /** Never send more requests than this (default 200000). */
  readonly maxRequests?: number | undefined
  /** Suites run at once (default 4). */
  readonly concurrency?: number | undefined
  /** Retry 429 and 503 answers after `Retry-After` (default true). */
  readonly retryThrottled?: boolean | undefined
  /** Requests spent shrinking one failure to a minimal example (default 60). */
  readonly shrinkBudget?: number | undefined
  /** Run only the case of this replay id. */
  readonly replay?: string | undefined
  /** Known findings: reported as known, not failing the run (see `Baseline`). */
  readonly baseline?: Baseline.Baseline | undefined
  /** Progress lines (suite done, findings so far); the CLI writes them to stderr. */
  readonly progress?: ((line: string) => void) | undefined
  /** Told of every exchange as a HAR 1.2 entry, the key and secret fields masked (the CLI's `--har`). */
  readonly onHarEntry?: ((entry: Har.Entry) => void) | undefined
}

/**
 * The run could not be made: bad options, the target unreachable, or every call unauthenticated.
 *
 * @since 0.1.0
 * @category errors
 */
export class RunError extends Schema.TaggedError<RunError>("@data-access/contract-tests/RunError")("RunError", {
  reason: Schema.Literal("BadOptions", "Unreachable", "Unauthenticated"),
  message: Schema.String
}) {}

/**
 * The seed fast-check uses for one suite: derived from the run seed, the family and the method.
 *
 * @since 0.1.0
 * @category seeds
 */
export const suiteSeed: (seed: number, family: string, method: string) => number = Suite.suiteSeed

const runScoped = Effect.fn("ContractTests.run")(function* (options: Options) {
  return yield* Runner.run(options).pipe(Effect.mapError((failure) => new RunError({ reason: failure.reason, message: failure.message })))
})

/**
 * Runs the contract checks against `options.baseUrl` and returns the report. Fails with a
 * `RunError` when the run cannot be made (bad options, target unreachable, key not accepted).
 * It uses the wall clock even inside `it.effect` (whose `TestClock` would stall the waits).
 *
 * @example
 * ```ts
 * import { ContractTests, Report } from "@data-access/contract-tests"
 * import { NodeHttpClient } from "@effect/platform-node"
 * import { Effect, Redacted } from "effect"
 *
 * const program = ContractTests.run({
 *   baseUrl: "https://staging.example.com",
 *   apiKey: Redacted.make("key"),
 *   examples: 20,
 *   readOnly: true // no Create or Update request
 * }).pipe(
 *   Effect.tap((report) => Effect.log(Report.toTerminal(report))),
 *   Effect.map(Report.exitCode),
 *   Effect.provide(NodeHttpClient.layerUndici)
 * )
 * ```
 *
 * @since 0.1.0
 * @category running
 */
export const run = (options: Options): Effect.Effect<Report.Report, RunError, HttpClient.HttpClient> =>
  // Waits (Retry-After, rate limit, timeouts) follow the wall clock, also under a TestClock.
  Effect.scoped(runScoped(options)).pipe(Effect.withClock(Clock.make()))
