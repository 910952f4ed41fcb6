/**
 * A run's plan without a request: the operations and suites the options select, their cases,
 * the checks, and the least number of requests and time it takes at the rate limit. Objects the
 * fixtures name are the only ones known (a run also finds others by listing).
 */
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import type * as HttpClient from "@effect/platform/HttpClient"
import type { AnyCheckId, CustomCheckId } from "../checkIds.js"
import { casesOf } from "../context.js"
import { fromKnownIds } from "../pools.js"
import { plan, shareOf } from "./plan.js"
import {
  defaults,
  newRunId,
  plannedChecks,
  type RunFailure,
  selectedCustom,
  selectedIds,
  selectedMethods,
  validate
} from "./options.js"
import { contextOf, filtered, makeRunTarget, type Run } from "./run.js"
import type { Options } from "./types.js"

/** One suite of the plan. */
export interface PlannedSuite {
  readonly family: string
  readonly checks: ReadonlyArray<AnyCheckId>
  /** The cases it runs (examples of a property, or enumerated cases). */
  readonly cases: number
  readonly writes: boolean
  /** Why it would not run. */
  readonly skip: string | undefined
}

/** The plan of a run. */
export interface Plan {
  readonly target: string
  readonly seed: number | undefined
  readonly examples: number
  /** The built-in checks, then the custom ones (`Hooks.checks`). */
  readonly checks: ReadonlyArray<AnyCheckId>
  readonly operations: ReadonlyArray<{
    readonly method: string
    readonly suites: ReadonlyArray<PlannedSuite>
  }>
  /** Requests at least: one per case that runs (most cases send more, shrinking more still). */
  readonly leastRequests: number
  readonly maxRequests: number
  /** Requests per second, or undefined for unlimited. */
  readonly rateLimit: number | undefined
}

/** The plan the options make, sending nothing. */
export const dryRun = (
  options: Options
): Effect.Effect<Plan, RunFailure, HttpClient.HttpClient | Scope.Scope> =>
  Effect.gen(function* () {
    yield* validate(options)
    const run: Run = {
      options,
      runId: newRunId(),
      seed: options.seed ?? 0,
      examples: options.examples ?? defaults.examples,
      started: Date.now(),
      readOnly: options.readOnly ?? false,
      secrets: [Redacted.value(options.apiKey)],
      progress: () => {}
    }
    const target = yield* makeRunTarget(options)
    const pools = fromKnownIds(options.fixtures ?? ({} as NonNullable<Options["fixtures"]>))
    const selected = new Set<AnyCheckId>(selectedIds(options))
    // A custom check judges every exchange: it is a check of every suite.
    const custom = selectedCustom(options).map((c) => c.id as CustomCheckId)
    const groups = shareOf(
      filtered(
        plan(
          contextOf(run, target, pools),
          new Set(selectedMethods(options)),
          new Set(plannedChecks(options)),
          options.operations === undefined || options.operations.length === 0
        ),
        options
      ),
      options.replay === undefined ? options.shard : undefined
    )
    const operations = groups.map((g) => ({
      method: g.method,
      suites: g.suites.map((s) => ({
        family: s.family,
        checks: [...s.checks.filter((c) => selected.has(c)), ...custom],
        cases: casesOf(s.cases),
        writes: s.writes,
        skip: s.skip
      }))
    }))
    const leastRequests = operations
      .flatMap((o) => o.suites)
      .filter((s) => s.skip === undefined)
      .reduce((n, s) => n + s.cases, 0)
    return {
      target: target.baseUrl,
      seed: options.seed,
      examples: run.examples,
      checks: [...selected],
      operations,
      leastRequests: Math.min(leastRequests, options.maxRequests ?? defaults.maxRequests),
      maxRequests: options.maxRequests ?? defaults.maxRequests,
      rateLimit: options.rateLimit
    }
  })
