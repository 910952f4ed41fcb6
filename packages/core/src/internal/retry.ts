import * as CodeTable from "./code.js"
import * as RetryAfter from "./retryAfter.js"
import type { Code } from "../Code.js"
import type { Failure, ClientFailure, Decision } from "../Retry.js"

/** Bare statuses of a proxy or gateway after which a read may be tried again. */
const retryableFallbackStatuses: ReadonlySet<number> = new Set([408, 429, 502, 503, 504])

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

const fallbacks = new WeakSet<object>()

export const markStatusFallback = <A extends object>(error: A): A => {
  fallbacks.add(error)
  return error
}

export const isStatusFallback = (error: object): boolean => fallbacks.has(error)

export const failureOf = (error: ClientFailure): Failure =>
  error._tag === "ConnectError"
    ? {
        _tag: "ConnectError",
        code: error.code as Code,
        httpStatus: error.httpStatus,
        statusFallback: fallbacks.has(error)
      }
    : (error as Failure)

export const isRetryableError = (error: ClientFailure, safeToRetry: boolean): boolean =>
  isRetryable(failureOf(error), safeToRetry)

export const isRetryable = (failure: Failure, safeToRetry: boolean): boolean =>
  safeToRetry ? isRetryableRead(failure) : isRetryableWrite(failure)

export const DEFAULT_POLICY = {
  retries: 2,
  baseMillis: 500,
  factor: 2,
  capMillis: 8000,
  jitter: true
} as const

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

export const MAX_RETRY_AFTER_MILLIS = 60_000

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

export const parseRetryAfter = (
  headers: Readonly<Record<string, string | undefined>>,
  nowMillis: number
): number | undefined => retryAfterMillis((name) => headers[name], nowMillis)

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

export const reasonOf = (failure: {
  readonly _tag: string
  readonly code?: string | undefined
}): string =>
  failure._tag === "ConnectError" && failure.code !== undefined ? failure.code : failure._tag

export const retryMessage = (
  operation: string,
  attempt: number,
  reason: string,
  delayMillis: number
): string =>
  `${operation}: attempt ${attempt} failed (${reason}); retrying in ${Math.round(delayMillis)} ms`
