import { messageOf } from "./operation.js"
import * as Timeout from "./timeout.js"
import type { Bound } from "../Deadline.js"

export const DEFAULT_TIMEOUT_MILLIS = 30_000

export const DEFAULT_ATTEMPT_TIMEOUT_MILLIS = 10_000

export const bound = (
  nowMillis: number,
  deadlineMillis: number,
  budgetMillis: number,
  attemptMillis: number
): Bound => {
  const remaining = deadlineMillis - nowMillis
  const overallBinds = remaining <= attemptMillis
  const limitMillis = overallBinds ? remaining : attemptMillis
  if (limitMillis <= 0) return { _tag: "Expired" }
  return {
    _tag: "Bounded",
    limitMillis,
    scope: overallBinds ? "overall" : "attempt",
    timeoutMillis: overallBinds ? budgetMillis : attemptMillis,
    header: Number.isFinite(limitMillis) ? Timeout.formatTimeout(limitMillis) : undefined
  }
}

export const timeoutMessage = (
  operation: string,
  scope: "attempt" | "overall",
  timeoutMillis: number,
  attempts: number
): string =>
  messageOf(
    operation,
    `the ${scope === "overall" ? "overall deadline" : "attempt timeout"} of ${timeoutMillis} ms ran out after ${attempts} attempt(s)`
  )
