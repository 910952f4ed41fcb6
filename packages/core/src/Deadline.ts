/**
 * Deadline arithmetic of a call: an overall budget across its attempts, a timeout per attempt, and
 * for each attempt the bound that applies, which of the two binds and the `Connect-Timeout-Ms` it
 * sends.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/deadline.js"

/**
 * The default overall budget of a call across all its attempts: 30 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_TIMEOUT_MILLIS: 30000 = internal.DEFAULT_TIMEOUT_MILLIS

/**
 * The default timeout of one attempt: 10 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MILLIS: 10000 = internal.DEFAULT_ATTEMPT_TIMEOUT_MILLIS

/**
 * The bound of one attempt: none left (the overall deadline has passed), or a limit in
 * milliseconds, which timeout it stands for, and the header value that carries it (absent when
 * the limit is infinite).
 *
 * @since 0.1.0
 * @category models
 */
export type Bound = { readonly _tag: "Expired" } | Bounded

/**
 * The bound of an attempt that may start: its limit, the timeout it stands for and its header.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bounded {
  readonly _tag: "Bounded"
  readonly limitMillis: number
  readonly scope: "attempt" | "overall"
  /** The timeout the scope names: the overall budget or the attempt timeout. */
  readonly timeoutMillis: number
  /** `Connect-Timeout-Ms`, when the limit is finite. */
  readonly header: string | undefined
}

/**
 * The bound of the attempt that starts at `nowMillis` of a call whose overall deadline is
 * `deadlineMillis` (start + budget): the shorter of what is left and the attempt timeout.
 *
 * @since 0.1.0
 * @category deadlines
 */
export const bound: (
  nowMillis: number,
  deadlineMillis: number,
  budgetMillis: number,
  attemptMillis: number
) => Bound = internal.bound

/**
 * The message of a timeout error.
 *
 * @since 0.1.0
 * @category messages
 */
export const timeoutMessage: (
  operation: string,
  scope: "attempt" | "overall",
  timeoutMillis: number,
  attempts: number
) => string = internal.timeoutMessage
