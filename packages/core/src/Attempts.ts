/**
 * The attempts of one call, written once for both Effect lines over the few effect operations
 * each line gives (`Effects`): attempt under the bound of the deadlines, and on a retryable failure
 * step the line's retry policy, apply `Retry-After` and the overall deadline, record the attempt
 * and retry events on the call's span, log, wait and attempt again. The line's adapter supplies
 * the exchange of one attempt, its schedule's step and its error classes.
 *
 * @since 0.1.0
 */
import * as Deadline from "./Deadline.js"
import * as internal from "./internal/attempts.js"

/**
 * The effect operations the attempts are written with, at the line's effect type `F` whose
 * failures are `E`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F, E> {
  readonly succeed: (value: unknown) => F
  readonly fail: (error: E) => F
  readonly match: (self: F, onFailure: (error: E) => F, onSuccess: (value: unknown) => F) => F
  /** `f()` built when the effect runs. */
  readonly suspend: (f: () => F) => F
  /** `self` after a debug log line. */
  readonly logDebug: (message: string, self: F) => F
  /** `self` after a wait of `millis` on the line's clock. */
  readonly sleep: (millis: number, self: F) => F
}

/**
 * The span of a call: what both lines' `Tracer.Span` have.
 *
 * @since 0.1.0
 * @category models
 */
export interface Span {
  attribute(key: string, value: unknown): void
  event(name: string, startTime: bigint, attributes?: Record<string, unknown>): void
}

/**
 * The clock of a call: the line's `Clock` read synchronously.
 *
 * @since 0.1.0
 * @category models
 */
export interface Clock {
  readonly millis: () => number
  readonly nanos: () => bigint
}

/**
 * The fields of a timeout error.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timeout {
  readonly operation: string
  readonly scope: "attempt" | "overall"
  readonly timeoutMillis: number
  /** Attempts made, the one that timed out included. */
  readonly attempts: number
}

/**
 * A failure as the attempts read it: its tag, and for a Connect error its code and `Retry-After`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Failed {
  readonly _tag: string
  readonly code?: string
  readonly rateLimit?: { readonly retryAfterMillis?: number | undefined } | undefined
}

/**
 * One call, as the line's adapter prepared it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Plan<F, E, S> {
  /** The operation (`ResourceService/GetResource`). */
  readonly name: string
  /** The overall budget across attempts. */
  readonly budgetMillis: number
  readonly attemptMillis: number
  /**
   * One attempt: the exchange with `bound.header` as `Connect-Timeout-Ms` and, when it is finite,
   * interrupted after `bound.limitMillis` with the error of `timeout`.
   */
  readonly attempt: (bound: Deadline.Bounded, timeout: () => E) => F
  /** The line's timeout error. */
  readonly timeout: (fields: Timeout) => E
  /** Whether the operation may be tried again after this error. */
  readonly retryable: (error: E) => boolean
  /**
   * Steps the line's retry policy after a failure at `nowMillis`: `next` with the policy's wait
   * and its next state, or `done` when the policy gives up.
   */
  readonly step: (
    nowMillis: number,
    error: E,
    state: S,
    next: (delayMillis: number, state: S) => F,
    done: () => F
  ) => F
}

/**
 * The attempts of a call, until one succeeds, a failure is not to be retried, the policy gives up
 * or the overall deadline would pass; each recorded on `span` (`attempt` and `retry` events,
 * `rpc.attempts` and `rpc.response.code`).
 *
 * @since 0.1.0
 * @category calls
 */
export const run: <F, E extends Failed, S>(
  effects: Effects<F, E>,
  plan: Plan<F, E, S>,
  span: Span,
  clock: Clock,
  initial: S
) => F = internal.run
