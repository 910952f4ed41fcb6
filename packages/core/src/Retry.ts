/**
 * Which failures a call retries and after how long. The policy (an Effect `Schedule` on each line)
 * proposes a wait; this module decides whether a failure may be retried at all (reads and writes
 * differ), lengthens the wait to what `Retry-After` asks, and gives up when the wait would pass the
 * call's deadline.
 *
 * @since 0.1.0
 */
import * as CodeTable from "./Code.js"
import * as internal from "./internal/retry.js"

/**
 * A failed attempt as the retry decision sees it (the client's error classes have these fields).
 *
 * @since 0.1.0
 * @category models
 */
export type Failure =
  | {
      readonly _tag: "ConnectError"
      readonly code: CodeTable.Code
      readonly httpStatus?: number | undefined
      readonly statusFallback: boolean
    }
  | { readonly _tag: "TransportError"; readonly phase: "connect" | "exchange" }
  | { readonly _tag: "TimeoutError"; readonly scope: "attempt" | "overall" }
  | { readonly _tag: "DecodeError" }
  | { readonly _tag: "InvalidRequestError" }
  | { readonly _tag: "CursorRepeatedError" }

/**
 * Whether a read (Get, List) may be retried after a failure: transient Connect codes
 * (unavailable, resource_exhausted, deadline_exceeded, aborted, internal, unknown), a bare
 * 408/429/502/503/504, transport failures and attempt timeouts.
 *
 * @since 0.1.0
 * @category decisions
 */
export const isRetryableRead: (failure: Failure) => boolean = internal.isRetryableRead

/**
 * Whether a write (create, update) may be retried: only when the service certainly did not act,
 * that is a Connect `unavailable` or `resource_exhausted` body from the service itself, or a
 * connection that never opened. Never after a bare 502/504, a reset after the request was sent,
 * or a timeout.
 *
 * @since 0.1.0
 * @category decisions
 */
export const isRetryableWrite: (failure: Failure) => boolean = internal.isRetryableWrite

/**
 * A client error as the retry rules read it: a Connect error's code, status and whether the
 * status alone gave the code; where a transport failure happened; a timeout's scope; else its tag.
 *
 * @since 0.1.0
 * @category models
 */
export interface ClientFailure {
  readonly _tag: string
  readonly code?: string
  readonly httpStatus?: number | undefined
  readonly phase?: "connect" | "exchange"
  readonly scope?: "attempt" | "overall"
}

/**
 * Marks a Connect error whose code was not read from a Connect error body but derived from the
 * HTTP status (a proxy's bare 502, for example).
 *
 * @since 0.1.0
 * @category status fallback
 */
export const markStatusFallback: <A extends object>(error: A) => A = internal.markStatusFallback

/**
 * Whether an error was marked by `markStatusFallback`.
 *
 * @since 0.1.0
 * @category status fallback
 */
export const isStatusFallback: (error: object) => boolean = internal.isStatusFallback

/**
 * The `Failure` a client error stands for.
 *
 * @since 0.1.0
 * @category retries
 */
export const failureOf: (error: ClientFailure) => Failure = internal.failureOf

/**
 * Whether a client error may be retried: for a read (`safeToRetry`) `isRetryableRead`, for a
 * create or an update `isRetryableWrite`.
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryableError: (error: ClientFailure, safeToRetry: boolean) => boolean =
  internal.isRetryableError

/**
 * `isRetryableRead` for an operation that is safe to retry, `isRetryableWrite` otherwise.
 *
 * @since 0.1.0
 * @category decisions
 */
export const isRetryable: (failure: Failure, safeToRetry: boolean) => boolean = internal.isRetryable

/**
 * The default retry policy of both clients: 2 retries after the first attempt, waiting 500 ms and
 * then twice as long each time, at most 8 s, each wait randomised by 0.8 to 1.2 times.
 *
 * @since 0.1.0
 * @category policies
 */
export const DEFAULT_POLICY: {
  readonly retries: 2
  readonly baseMillis: 500
  readonly factor: 2
  readonly capMillis: 8000
  readonly jitter: true
} = internal.DEFAULT_POLICY

/**
 * The exponential policy a client's options ask for, with the defaults of `DEFAULT_POLICY` filled
 * in; `toMillis` reads the line's durations.
 *
 * @since 0.1.0
 * @category policies
 */
export const exponentialPlan: <D>(
  options: {
    readonly retries?: number | undefined
    readonly base?: D | undefined
    readonly factor?: number | undefined
    readonly cap?: D | undefined
    readonly jitter?: boolean | undefined
  },
  toMillis: (duration: D) => number
) => {
  readonly retries: number
  readonly baseMillis: number
  readonly factor: number
  readonly capMillis: number
  readonly jitter: boolean
} = internal.exponentialPlan

/**
 * The longest `Retry-After` a client honours, in milliseconds (60 s); a longer one is cut to this.
 *
 * @since 0.1.0
 * @category retry-after
 */
export const MAX_RETRY_AFTER_MILLIS: 60000 = internal.MAX_RETRY_AFTER_MILLIS

/**
 * The wait an answer asks for, in milliseconds (`RetryAfter.parse`: `retry-after-ms`, else
 * `Retry-After` in seconds or as an HTTP date), capped at `MAX_RETRY_AFTER_MILLIS`.
 *
 * @since 0.1.0
 * @category retry-after
 */
export const retryAfterMillis: (
  header: (name: string) => string | undefined,
  nowMillis: number
) => number | undefined = internal.retryAfterMillis

/**
 * `retryAfterMillis` of an answer's headers as a record (lower-case names): the clients'
 * `RetryPolicy.parseRetryAfter`.
 *
 * @since 0.1.0
 * @category retry-after
 */
export const parseRetryAfter: (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
) => number | undefined = internal.parseRetryAfter

/**
 * The decision after a retryable failure whose policy proposes a wait.
 *
 * @since 0.1.0
 * @category models
 */
export type Decision =
  | { readonly _tag: "GiveUp" }
  | { readonly _tag: "Retry"; readonly delayMillis: number; readonly reason: string }

/**
 * What follows a retryable failure once the policy has proposed `policyDelayMillis`: wait the
 * longer of that and the answer's `Retry-After` (whole milliseconds, so a test clock never sits
 * between nanoseconds), unless the wait would reach the call's deadline.
 *
 * @since 0.1.0
 * @category decisions
 */
export const next: (options: {
  readonly reason: string
  readonly nowMillis: number
  readonly deadlineMillis: number
  readonly policyDelayMillis: number
  readonly retryAfterMillis: number | undefined
}) => Decision = internal.next

/**
 * What follows a retryable failure, read from the failure itself (its code and the `Retry-After`
 * of its rate limit): `next` with the reason spans and logs give, and the attributes of the span's
 * `retry` event.
 *
 * @since 0.1.0
 * @category decisions
 */
export const after: (
  failure: {
    readonly _tag: string
    readonly code?: string | undefined
    readonly rateLimit?:
      | {
          readonly retryAfterMillis?: number | undefined
        }
      | undefined
  },
  attempt: number,
  nowMillis: number,
  deadlineMillis: number,
  policyDelayMillis: number
) =>
  | {
      readonly _tag: "GiveUp"
    }
  | {
      readonly _tag: "Retry"
      readonly delayMillis: number
      readonly reason: string
      readonly event: {
        readonly "rpc.attempt": number
        readonly "retry.delay_ms": number
        readonly "retry.reason": string
      }
    } = internal.after

/**
 * The reason of a retry as spans and logs name it: the Connect code, else the error's tag.
 *
 * @since 0.1.0
 * @category decisions
 */
export const reasonOf: (failure: {
  readonly _tag: string
  readonly code?: string | undefined
}) => string = internal.reasonOf

/**
 * The retry message of the debug log.
 *
 * @since 0.1.0
 * @category decisions
 */
export const retryMessage: (
  operation: string,
  attempt: number,
  reason: string,
  delayMillis: number
) => string = internal.retryMessage
