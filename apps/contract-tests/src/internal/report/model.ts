/**
 * The report's model: cells, rule coverage, findings, observations and fixed findings (re-exported
 * by `Report`; the renderings import it from here, so that no module imports one that imports it
 * back).
 */
import type { ContractRules } from "@data-access/schema"
import type { CheckId, Severity } from "@data-access/schema/ContractChecks"
import type { AnyCheckId, AnyRuleId } from "../checkIds.js"

/**
 * Counts of one operation and one check. `operation` is `_` for cases of the whole API (unknown
 * routes).
 *
 * @since 0.1.0
 * @category models
 */
export interface Cell {
  readonly operation: string
  /** A built-in check, or a custom one (`Hooks`). */
  readonly check: AnyCheckId
  readonly passed: number
  readonly failed: number
  readonly skipped: number
  readonly skipReasons: ReadonlyArray<string>
}

/**
 * How a run covered one rule of the contract: how many cases judged it, on which operations; or,
 * when none did, why (`ContractRules.rules` lists every rule).
 *
 * @since 0.4.0
 * @category models
 */
export interface RuleCoverage {
  readonly rule: ContractRules.RuleId
  readonly check: CheckId
  /** Cases (exchanges, or a few for a rule that needs several) that judged the rule. */
  readonly judged: number
  readonly operations: ReadonlyArray<string>
  /** Why no case judged it (read-only mode, nothing to reference, not selected...); absent when judged. */
  readonly reason?: string | undefined
}

/**
 * The dimensions of one request field's inputs a run sent to one operation, on each side (see
 * the runner's `Dimension`: `bound`, `zero-value`, `one-of`...).
 *
 * @since 0.6.0
 * @category models
 */
export interface FieldCoverage {
  readonly operation: string
  /** The field's path in the request (`filter.group`, `members[]`, `(body)` for the whole body). */
  readonly field: string
  /** Dimensions of requests a server must accept. */
  readonly valid: ReadonlyArray<string>
  /** Dimensions of requests a server must refuse. */
  readonly refused: ReadonlyArray<string>
}

/**
 * One deviation from the contract, shrunk to a minimal input.
 *
 * @since 0.1.0
 * @category models
 */
export interface Finding {
  /** The party a conformance proxy's finding blames (`Proxy`); absent in a run's findings. */
  readonly side?: "client" | "server" | undefined
  /** A built-in check, or a custom one (`Hooks`). */
  readonly check: AnyCheckId
  /** The must it breaks (`ContractRules.rules`); a custom check's finding breaks the check's own id. */
  readonly rule: AnyRuleId
  /** Where the must is written: document, section and quote (a custom check's: its rule text). */
  readonly source: string
  readonly severity: Severity
  readonly operation: string
  /** What differs, without values: findings are deduplicated by check, operation and cause. */
  readonly cause: string
  readonly message: string
  /** The part of the response that shows it. */
  readonly detail: string | undefined
  readonly seed: number
  /** `--replay <id>` runs exactly this case again. */
  readonly replayId: string
  /** The request as a `curl` command; the key is read from `$DATA_ACCESS_API_KEY`. */
  readonly curl: string
  readonly request: {
    readonly method: string
    readonly path: string
    readonly body: string | undefined
  }
  readonly response:
    | {
        readonly _tag: "Response"
        readonly status: number
        readonly contentType: string | undefined
        readonly body: string
      }
    | { readonly _tag: "NoResponse"; readonly error: string }
    | undefined
  /** How many generated examples hit this cause. */
  readonly occurrences: number
  /** How many shrink steps led from the first failing example to this one. */
  readonly shrinkSteps: number
}

/**
 * An observation that is not a must (a secret returned, a format not validated): reported, never
 * a failure.
 *
 * @since 0.2.0
 * @category models
 */
export interface Observation {
  readonly note: ContractRules.NoteId
  readonly operation: string
  readonly message: string
  /** The request as a `curl` command; the key is read from `$DATA_ACCESS_API_KEY`. */
  readonly curl: string
  /** The request's body as the curl line sends it (past 4 KiB, from the file the command line writes). */
  readonly body?: string | undefined
}

/**
 * A baseline entry that did not reproduce (see `Baseline`).
 *
 * @since 0.2.0
 * @category models
 */
export interface Fixed {
  readonly rule: string
  readonly operation: string
  readonly cause: string
}

/**
 * A whole run.
 *
 * @since 0.1.0
 * @category models
 */
export interface Report {
  readonly runId: string
  readonly seed: number
  readonly target: string
  readonly startedAt: string
  readonly durationMs: number
  readonly requests: number
  readonly examples: number
  readonly readOnly: boolean
  /** Set for a `--replay` run. */
  readonly replay: string | undefined
  /**
   * The command line that runs this run's cases again, to which a finding's `--replay <id>` is
   * added (its target, fixtures and config; never a key): set by the command line.
   */
  readonly rerun?: string | undefined
  readonly cells: ReadonlyArray<Cell>
  /** Findings that fail the run (not in the baseline). */
  readonly findings: ReadonlyArray<Finding>
  /** Findings listed in the baseline: reported, not failing. */
  readonly known: ReadonlyArray<Finding>
  /** Baseline entries that no longer reproduce. */
  readonly fixed: ReadonlyArray<Fixed>
  /** Observations that are not musts. */
  readonly observations: ReadonlyArray<Observation>
  /** Run-level remarks: budget spent, time budget spent, what discovery found. */
  readonly notes: ReadonlyArray<string>
  /** Every rule of the contract with the cases that judged it (the runner's reports). */
  readonly coverage?: ReadonlyArray<RuleCoverage> | undefined
  /** Per operation and request field, the dimensions of its inputs the run sent (the runner's reports). */
  readonly fields?: ReadonlyArray<FieldCoverage> | undefined
  /**
   * Generated examples equal to one a suite had already sent, drawn again instead of sent (the
   * runner's reports): no example is sent twice within a suite.
   */
  readonly repeats?: number | undefined
  /** The checks the run selected (the runner's reports). */
  readonly checks?: ReadonlyArray<AnyCheckId> | undefined
  /** Set on the report of one share of a sharded run (`--shard 2/4`). */
  readonly shard?: Shard | undefined
  /** Set on the report `Report.merge` made: the run ids of the shards it joined, in shard order. */
  readonly mergedFrom?: ReadonlyArray<string> | undefined
  /**
   * The verdict under the command line's policy (`--fail-on-skip`, `--fail-on`); absent, FAIL for
   * any finding.
   */
  readonly verdict?: Verdict | undefined
}

/**
 * PASS or FAIL, and why (the findings that count, or the skips under `--fail-on-skip`).
 *
 * @since 0.7.0
 * @category models
 */
export interface Verdict {
  readonly pass: boolean
  readonly why: string
}

/**
 * One of `total` shares of a run's suites (`index` from 1), dealt the same on every machine.
 *
 * @since 0.6.0
 * @category models
 */
export interface Shard {
  readonly index: number
  readonly total: number
}
