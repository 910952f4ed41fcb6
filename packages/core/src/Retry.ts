/**
 * Which failures a call retries and after how long. The policy (an Effect `Schedule` on each line)
 * proposes a wait; this module decides whether a failure may be retried at all (reads and writes
 * differ), lengthens the wait to what `Retry-After` asks, and gives up when the wait would pass the
 * call's deadline.
 *
 * @since 0.1.0
 */
import * as CodeTable from "./Code.js"
import * as RetryAfter from "./RetryAfter.js"

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

/** Bare statuses of a proxy or gateway after which a read may be tried again. */
const retryableFallbackStatuses: ReadonlySet<number> = new Set([408, 429, 502, 503, 504])

/**
 * Whether a read (Get, List) may be retried after a failure: transient Connect codes
 * (unavailable, resource_exhausted, deadline_exceeded, aborted, internal, unknown), a bare
 * 408/429/502/503/504, transport failures and attempt timeouts.
 *
 * @since 0.1.0
 * @category decisions
 */
export const isRetryableRead = (failure: Failure): boolean => {
  switch (failure._tag) {
    case "ConnectError":
      return (
        CodeTable.transientCodes.has(failure.code) ||
        (failure.statusFallback &&
          failure.httpStatus !== undefined &&
          retryableFallbackStatuses.has(failure.httpStatus))
      )
    case "TransportError":
      return true
    case "TimeoutError":
      return failure.scope === "attempt"
    default:
      return false
  }
}

/**
 * Whether a write (create, update) may be retried: only when the service certainly did not act,
 * that is a Connect `unavailable` or `resource_exhausted` body from the service itself, or a
 * connection that never opened. Never after a bare 502/504, a reset after the request was sent,
 * or a timeout.
 *
 * @since 0.1.0
 * @category decisions
 */
export const isRetryableWrite = (failure: Failure): boolean => {
  switch (failure._tag) {
    case "ConnectError":
      return (
        !failure.statusFallback &&
        (failure.code === "unavailable" || failure.code === "resource_exhausted")
      )
    case "TransportError":
      return failure.phase === "connect"
    default:
      return false
  }
}

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

const fallbacks = new WeakSet<object>()

/**
 * Marks a Connect error whose code was not read from a Connect error body but derived from the
 * HTTP status (a proxy's bare 502, for example).
 *
 * @since 0.1.0
 * @category status fallback
 */
export const markStatusFallback = <A extends object>(error: A): A => {
  fallbacks.add(error)
  return error
}

/**
 * Whether an error was marked by `markStatusFallback`.
 *
 * @since 0.1.0
 * @category status fallback
 */
export const isStatusFallback = (error: object): boolean => fallbacks.has(error)

/**
 * The `Failure` a client error stands for.
 *
 * @since 0.1.0
 * @category retries
 */
export const failureOf = (error: ClientFailure): Failure =>
  error._tag === "ConnectError"
    ? {
        _tag: "ConnectError",
        code: error.code as CodeTable.Code,
        httpStatus: error.httpStatus,
        statusFallback: fallbacks.has(error)
      }
    : (error as Failure)

/**
 * Whether a client error may be retried: for a read (`safeToRetry`) `isRetryableRead`, for a
 * create or an update `isRetryableWrite`.
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryableError = (error: ClientFailure, safeToRetry: boolean): boolean =>
  isRetryable(failureOf(error), safeToRetry)

/**
 * `isRetryableRead` for an operation that is safe to retry, `isRetryableWrite` otherwise.
 *
 * @since 0.1.0
 * @category decisions
 */
export const isRetryable = (failure: Failure, safeToRetry: boolean): boolean =>
  safeToRetry ? isRetryableRead(failure) : isRetryableWrite(failure)

/**
 * The default retry policy of both clients: 2 retries after the first attempt, waiting 500 ms and
 * then twice as long each time, at most 8 s, each wait randomised by 0.8 to 1.2 times.
 *
 * @since 0.1.0
 * @category policies
 */
export const DEFAULT_POLICY = {
  retries: 2,
  baseMillis: 500,
  factor: 2,
  capMillis: 8000,
  jitter: true
} as const

/**
 * The exponential policy a client's options ask for, with the defaults of `DEFAULT_POLICY` filled
 * in; `toMillis` reads the line's durations.
 *
 * @since 0.1.0
 * @category policies
 */
export const exponentialPlan = <D>(
  options: {
    readonly retries?: number | undefined
    readonly base?: D | undefined
    readonly factor?: number | undefined
    readonly cap?: D | undefined
    readonly jitter?: boolean | undefined
  },
  toMillis: (duration: D) => number
): {
  readonly retries: number
  readonly baseMillis: number
  readonly factor: number
  readonly capMillis: number
  readonly jitter: boolean
} => ({
  retries: options.retries ?? DEFAULT_POLICY.retries,
  baseMillis: options.base === undefined ? DEFAULT_POLICY.baseMillis : toMillis(options.base),
  factor: options.factor ?? DEFAULT_POLICY.factor,
  capMillis: options.cap === undefined ? DEFAULT_POLICY.capMillis : toMillis(options.cap),
  jitter: options.jitter ?? DEFAULT_POLICY.jitter
})

/**
 * The longest `Retry-After` a client honours, in milliseconds (60 s); a longer one is cut to this.
 *
 * @since 0.1.0
 * @category retry-after
 */
export const MAX_RETRY_AFTER_MILLIS = 60_000

/**
 * The wait an answer asks for, in milliseconds (`RetryAfter.parse`: `retry-after-ms`, else
 * `Retry-After` in seconds or as an HTTP date), capped at `MAX_RETRY_AFTER_MILLIS`.
 *
 * @since 0.1.0
 * @category retry-after
 */
export const retryAfterMillis = (
  header: (name: string) => string | undefined,
  nowMillis: number
): number | undefined => {
  const millis = RetryAfter.parse(
    {
      [RetryAfter.MILLIS_HEADER]: header(RetryAfter.MILLIS_HEADER),
      [RetryAfter.HEADER]: header(RetryAfter.HEADER)
    },
    nowMillis
  )
  return millis === undefined ? undefined : Math.min(millis, MAX_RETRY_AFTER_MILLIS)
}

/**
 * `retryAfterMillis` of an answer's headers as a record (lower-case names): the clients'
 * `RetryPolicy.parseRetryAfter`.
 *
 * @since 0.1.0
 * @category retry-after
 */
export const parseRetryAfter = (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
): number | undefined => retryAfterMillis((name) => headers[name], nowMillis)

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
export const next = (options: {
  readonly reason: string
  readonly nowMillis: number
  readonly deadlineMillis: number
  readonly policyDelayMillis: number
  readonly retryAfterMillis: number | undefined
}): Decision => {
  const delayMillis = Math.ceil(
    Math.max(Math.max(0, options.policyDelayMillis), options.retryAfterMillis ?? 0)
  )
  return options.nowMillis + delayMillis >= options.deadlineMillis
    ? { _tag: "GiveUp" }
    : { _tag: "Retry", delayMillis, reason: options.reason }
}

/**
 * What follows a retryable failure, read from the failure itself (its code and the `Retry-After`
 * of its rate limit): `next` with the reason spans and logs give, and the attributes of the span's
 * `retry` event.
 *
 * @since 0.1.0
 * @category decisions
 */
export const after = (
  failure: {
    readonly _tag: string
    readonly code?: string | undefined
    readonly rateLimit?: { readonly retryAfterMillis?: number | undefined } | undefined
  },
  attempt: number,
  nowMillis: number,
  deadlineMillis: number,
  policyDelayMillis: number
):
  | { readonly _tag: "GiveUp" }
  | {
      readonly _tag: "Retry"
      readonly delayMillis: number
      readonly reason: string
      readonly event: {
        readonly "rpc.attempt": number
        readonly "retry.delay_ms": number
        readonly "retry.reason": string
      }
    } => {
  const decision = next({
    reason: reasonOf(failure),
    nowMillis,
    deadlineMillis,
    policyDelayMillis,
    retryAfterMillis:
      failure._tag === "ConnectError" ? failure.rateLimit?.retryAfterMillis : undefined
  })
  return decision._tag === "GiveUp"
    ? decision
    : {
        ...decision,
        event: {
          "rpc.attempt": attempt,
          "retry.delay_ms": decision.delayMillis,
          "retry.reason": decision.reason
        }
      }
}

/**
 * The reason of a retry as spans and logs name it: the Connect code, else the error's tag.
 *
 * @since 0.1.0
 * @category decisions
 */
export const reasonOf = (failure: {
  readonly _tag: string
  readonly code?: string | undefined
}): string =>
  failure._tag === "ConnectError" && failure.code !== undefined ? failure.code : failure._tag

/**
 * The retry message of the debug log.
 *
 * @since 0.1.0
 * @category decisions
 */
export const retryMessage = (
  operation: string,
  attempt: number,
  reason: string,
  delayMillis: number
): string =>
  `${operation}: attempt ${attempt} failed (${reason}); retrying in ${Math.round(delayMillis)} ms`
