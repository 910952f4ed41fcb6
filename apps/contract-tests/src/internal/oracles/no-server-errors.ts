/**
 * no-server-errors: a response came, and no 5xx a faithful server would not send.
 */
import * as Option from "effect/Option"
import { Deadline } from "@data-access/schema"
import type { Exchange } from "../http.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import { codeOf, excerpt, mib, slowNotHung } from "../answerReading.js"
import { type ExchangeOracle, oracle } from "../exchangeOracle.js"

/**
 * no-server-errors: a response came, and it is not a 5xx. `unavailable` (503, a temporary
 * overload that decisions.md section 2 allows) is not held against the server, nor
 * `deadline_exceeded` (504) to a call that set a `Connect-Timeout-Ms` deadline (whether that came
 * too early is protocol.deadline-elapsed's verdict, judged against the time that passed), nor
 * `unimplemented` (501) to a form a server may leave out (`optionalForm`: Connect GET, a
 * compressed body; decisions.md section 10).
 */
export const noServerErrors = (e: Exchange, optionalForm = false): Outcome =>
  Option.match(e.response, {
    onNone: () => {
      // No answer within the timeout is a hang only next to the target's own latency: it answered
      // the same operation in this run in a small part of that time. A slow target is no fault.
      if (slowNotHung(e)) return pass("no-server-errors")
      const measured =
        e.timedOut === undefined
          ? ""
          : ` (it served this operation in at most ${e.timedOut.slowestAnswerMs} ms in this run)`
      return fail(
        "errors.no-internal-for-client-faults",
        "no response",
        `no response: ${e.transportError ?? "connection closed"}${measured}`,
        e
      )
    },
    onSome: (r) => {
      const excused =
        (r.status === 503 && codeOf(e) === "unavailable") ||
        (optionalForm && r.status === 501 && codeOf(e) === "unimplemented")
      if (r.status < 500 || excused) return passes(["errors.no-internal-for-client-faults"])
      if (r.status === 504 && codeOf(e) === "deadline_exceeded") {
        if (e.request.headers[Deadline.TIMEOUT_HEADER] !== undefined)
          return passes(["errors.no-internal-for-client-faults"])
        return fail(
          "errors.no-internal-for-client-faults",
          "deadline_exceeded without a deadline",
          `the server answered deadline_exceeded after ${e.durationMs} ms to a call with no deadline`,
          e,
          excerpt(r)
        )
      }
      return fail(
        "errors.no-internal-for-client-faults",
        `HTTP ${r.status}`,
        `the server answered HTTP ${r.status}`,
        e,
        excerpt(r)
      )
    }
  })

const noServerErrorsOracle = oracle({
  name: "no-server-errors",
  rules: ["errors.no-internal-for-client-faults"],
  judge: (v) => [noServerErrors(v.exchange, v.optionalForm)]
})

/**
 * errors.no-internal-for-client-faults: a valid read of `bytes` over 1 MiB gets an answer when a
 * larger one (`largestServed`) was served; a server may refuse a body above its limit before
 * reading it and close the connection. Live traffic: the proxy does not know what a target served
 * before, so it does not judge a closed connection so.
 */
export const closedWithinLimit = (
  bytes: number,
  largestServed: number,
  e: Exchange
): Outcome | undefined =>
  Option.isNone(e.response) && !slowNotHung(e) && largestServed > bytes
    ? fail(
        "errors.no-internal-for-client-faults",
        "no response to a body within the limit",
        `no response to a valid read of ${mib(bytes)} (${e.transportError ?? "connection closed"}), though a body of ${mib(largestServed)} was served`,
        e
      )
    : undefined

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [noServerErrorsOracle]
