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
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Http from "./internal/http.js"
import * as Runner from "./internal/runner/run.js"
import * as Suite from "./internal/runner/suite.js"
import type * as RunOptions from "./internal/runner/types.js"
import type * as Report from "./Report.js"

/**
 * Options of a run. Only `baseUrl` and `apiKey` are required.
 *
 * @since 0.1.0
 * @category models
 */
export type Options = RunOptions.Options

/**
 * The run could not be made: bad options, the target unreachable, or every call unauthenticated.
 *
 * @since 0.1.0
 * @category errors
 */
export class RunError extends Schema.TaggedError<RunError>("@data-access/contract-tests/RunError")(
  "RunError",
  {
    reason: Schema.Literal("BadOptions", "Unreachable", "Unauthenticated"),
    message: Schema.String
  }
) {}

/**
 * The seed fast-check uses for one suite: derived from the run seed, the family and the method.
 *
 * @since 0.1.0
 * @category seeds
 */
export const suiteSeed: (seed: number, family: string, method: string) => number = Suite.suiteSeed

const runScoped = Effect.fn("ContractTests.run")(function* (options: Options) {
  return yield* Runner.run(options).pipe(
    Effect.mapError((failure) => new RunError({ reason: failure.reason, message: failure.message }))
  )
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
export const run = (
  options: Options
): Effect.Effect<Report.Report, RunError, HttpClient.HttpClient> =>
  // Waits (Retry-After, rate limit, timeouts) follow the wall clock, also under a TestClock.
  Effect.scoped(runScoped(options)).pipe(Http.untraced, Effect.withClock(Clock.make()))
