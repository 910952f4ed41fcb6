/**
 * protocol: a body of at most 1 MiB is not refused for its size; deadline_exceeded only once the
 * deadline has elapsed.
 */
import * as Option from "effect/Option"
import { Deadline, JsonBody } from "@data-access/schema"
import { type Exchange, requestBytesOf } from "../http.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { codeOf, excerpt } from "./answer.js"
import { type ExchangeOracle, oracle } from "./oracle.js"

/** A deadline_exceeded this much short of its deadline, at the least, came well before it passed. */
const EARLY_FLOOR_MS = 100
/** ...and short of it by this share of the deadline too (a server's timer may be coarse). */
const EARLY_SHARE = 0.1

/**
 * The deadline a call set with `Connect-Timeout-Ms` (milliseconds), when it answered
 * deadline_exceeded well before that time had elapsed; `undefined` otherwise. The time the caller
 * measured bounds the server's from above (its clock starts once the request has arrived), so on
 * any load an answer short of the deadline by the larger of `EARLY_FLOOR_MS` and `EARLY_SHARE` of
 * it came before the deadline passed. A value that is not a number of milliseconds says nothing.
 */
export const earlyDeadline = (e: Exchange): number | undefined => {
  if (codeOf(e) !== "deadline_exceeded") return undefined
  const timeout = Deadline.parseTimeout(e.request.headers[Deadline.TIMEOUT_HEADER])
  if (timeout._tag !== "Millis") return undefined
  const margin = Math.max(EARLY_FLOOR_MS, timeout.millis * EARLY_SHARE)
  return e.durationMs + margin < timeout.millis ? timeout.millis : undefined
}

/**
 * protocol.deadline-elapsed: the answer to a call sent with a deadline, judged against the time that
 * actually passed: deadline_exceeded well before the deadline elapsed is a fault (decisions.md
 * section 2: deadline_exceeded is the answer to a deadline that passed). A success after the
 * deadline is not judged here: only the target's own latency tells a late answer from a slow one.
 */
export const deadlineElapsed = (e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || e.request.headers[Deadline.TIMEOUT_HEADER] === undefined) return undefined
  const millis = earlyDeadline(e)
  if (millis === undefined) return passes(["protocol.deadline-elapsed"])
  return fail(
    "protocol.deadline-elapsed",
    "deadline_exceeded long before the deadline",
    `a call with Connect-Timeout-Ms ${millis} was answered deadline_exceeded after ${e.durationMs} ms, long before its deadline had passed`,
    e,
    excerpt(r, 300)
  )
}

const deadlineElapsedOracle = oracle({
  name: "deadline-elapsed",
  rules: ["protocol.deadline-elapsed"],
  judge: ({ exchange }) => {
    const verdict = deadlineElapsed(exchange)
    return verdict === undefined ? [] : [verdict]
  }
})

/** A body of at most 1 MiB is not refused for its size: resource_exhausted without `Retry-After` (a rate limit says when to retry). */
const bodyLimit = oracle({
  name: "body-limit",
  rules: ["protocol.body-limit"],
  judge: ({ exchange: e }) => {
    const r = Option.getOrUndefined(e.response)
    // A body not seen to its end is of unknown size.
    const bodyBytes = requestBytesOf(e)
    if (
      r === undefined ||
      bodyBytes > JsonBody.GUARANTEED_MAX_BYTES ||
      codeOf(e) !== "resource_exhausted" ||
      r.headers["retry-after"] !== undefined
    )
      return []
    return [
      fail(
        "protocol.body-limit",
        "refused for its size",
        `a ${bodyBytes}-byte body was refused with resource_exhausted and no Retry-After: a server serves bodies up to 1 MiB`,
        e,
        excerpt(r, 300)
      )
    ]
  }
})

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [bodyLimit, deadlineElapsedOracle]
