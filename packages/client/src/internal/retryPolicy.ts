import * as Retry from "@data-access/core/Retry"
import * as Duration from "effect/Duration"
import * as Schedule from "effect/Schedule"
import type { RetryPolicy, ExponentialOptions } from "../RetryPolicy.js"

export const exponential = (options: ExponentialOptions = {}): RetryPolicy => {
  const plan = Retry.exponentialPlan(options, (d) => Duration.toMillis(Duration.decode(d)))
  const growing = Schedule.exponential(Duration.millis(plan.baseMillis), plan.factor)
  const cap = Duration.millis(plan.capMillis)
  return (plan.jitter ? Schedule.jittered(growing) : growing).pipe(
    Schedule.modifyDelay((_, delay) => Duration.min(delay, cap)),
    Schedule.intersect(Schedule.recurs(plan.retries))
  )
}

export const defaultPolicy: RetryPolicy = exponential()

export const none: RetryPolicy = Schedule.stop

export const MAX_RETRY_AFTER: Duration.Duration = Duration.millis(Retry.MAX_RETRY_AFTER_MILLIS)

export const parseRetryAfter = Retry.parseRetryAfter
