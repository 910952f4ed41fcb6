/**
 * The types the runner's modules and `ContractTests` share, in a module of their own so that no
 * internal module imports `ContractTests` back. `ContractTests.Options` is this `Options`.
 */
import type * as Duration from "effect/Duration"
import type * as Redacted from "effect/Redacted"
import type { KnownIds } from "@data-access/schema"
import type * as Baseline from "../baseline.js"
import type * as Har from "../recording/model.js"
import type { RequestHooks } from "../requestHooks.js"
import type { CustomCheck } from "../customChecks.js"

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
  /** Distinct generated examples per operation and property, at most (default 100). */
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
  /**
   * Stop starting new examples once this many findings are found (each is still shrunk; the
   * examples not run are reported skipped). Examples already running finish, so up to
   * `concurrency - 1` more findings may be reported. Default: no limit.
   */
  readonly maxFindings?: number | undefined
  /** Allowed clock difference between this machine and the server (default 5 seconds). */
  readonly clockSkew?: Duration.DurationInput | undefined
  /** Never send more requests than this (default 200000). */
  readonly maxRequests?: number | undefined
  /** Cases in flight at once, from any suite (default 4); each case sends its requests in order. */
  readonly concurrency?: number | undefined
  /** Retry 429 and 503 answers after `Retry-After` (default true). */
  readonly retryThrottled?: boolean | undefined
  /** Requests spent shrinking one failure to a minimal example (default 60). */
  readonly shrinkBudget?: number | undefined
  /**
   * Run only this share of the suites (`{ index: 2, total: 4 }`: the second of four), the same
   * share on every machine; `Report.merge` joins the shares' reports into the whole run's.
   */
  readonly shard?: { readonly index: number; readonly total: number } | undefined
  /**
   * Worker threads the suites are dealt to (default 1: the caller's thread), each with its own
   * connection pool, under one request budget, rate limit and findings limit; the same findings
   * for a seed whatever the number. Not with `hooks` (code of the caller's cannot cross threads).
   */
  readonly workers?: number | undefined
  /** Run only the case of this replay id (a shard is then ignored). */
  readonly replay?: string | undefined
  /** Known findings: reported as known, not failing the run (see `Baseline`). */
  readonly baseline?: Baseline.Baseline | undefined
  /** Progress lines (suite done, findings so far); the CLI writes them to stderr. */
  readonly progress?: ((line: string) => void) | undefined
  /**
   * Told after each suite of the examples done and planned and the findings so far (by cause),
   * instead of the suites' progress lines: the CLI's progress display. Not told in `--workers`.
   */
  readonly onProgress?: ((progress: Progress) => void) | undefined
  /** Told of every exchange as a HAR 1.2 entry, the key and secret fields masked (the CLI's `--har`). */
  readonly onHarEntry?: ((entry: Har.Entry) => void) | undefined
  /**
   * Headers every request carries besides the API key (a gateway's token, a tenant), by name:
   * their values are kept out of every text of a run like the key. The headers the checks set
   * themselves (`X-API-KEY`, `Content-Type`, the Connect headers) cannot be given here.
   */
  readonly headers?: Readonly<Record<string, Redacted.Redacted<string>>> | undefined
  /** Code of the user's own run beside the checks: headers per request, a suite filter, custom checks (`Hooks`). */
  readonly hooks?: Hooks | undefined
}

/** A suite as the hooks' filter sees it. */
export interface SuiteInfo {
  /** The operation's method, or `_` for the suites of the whole API. */
  readonly operation: string
  /** The family of checks that makes the suite (`invalid`, `paging`, `search`...). */
  readonly family: string
  readonly checks: ReadonlyArray<string>
}

/**
 * What the user's code adds to a run (`--hooks FILE`, or the `hooks` option): headers asked for
 * before each request (a token refreshed when it expires), headers from the request as it goes
 * out (a signature), which suites run, and checks of the user's own.
 */
export interface Hooks extends RequestHooks {
  /** Whether a suite runs; one left out is reported skipped, with the reason. */
  readonly filter?: ((suite: SuiteInfo) => boolean) | undefined
  /**
   * Checks of the user's own, given every exchange the run's cases make; their failures are
   * findings of the report like the built-in checks' (severity, rule, replay id, baseline).
   */
  readonly checks?: ReadonlyArray<CustomCheck> | undefined
}

/** How far a run is: examples (cases) done and planned, and the findings so far, by cause. */
export interface Progress {
  readonly done: number
  readonly planned: number
  readonly findings: number
}
