/**
 * protocol: the answers to other methods and content types, spellings of the JSON media type,
 * deadlines, the version header, unknown routes and body sizes; a body of at most 1 MiB is not
 * refused for its size; deadline_exceeded only once the deadline has elapsed.
 */
import * as Option from "effect/Option"
import { type ContractRules, Deadline, JsonBody } from "@data-access/schema"
import { type Exchange, requestBytesOf } from "../http.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import {
  answerExcerpt,
  answeredFirst,
  bareUnknownRoute,
  codeOf,
  earlyDeadline,
  encodingLeftOut,
  excerpt,
  got,
  mib,
  slowNotHung,
  statusOf
} from "../answerReading.js"
import { type ExchangeOracle, oracle } from "../exchangeOracle.js"
import { madeValid, refusal } from "../refusalVerdict.js"

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

/** What is wrong with an answer that should have `status` (and `code`, and a header matching a pattern). */
export const expectStatus =
  (status: number, code?: string, header?: readonly [string, RegExp]) =>
  (e: Exchange): string | undefined => {
    const got = statusOf(e)
    if (got === undefined) return "no response"
    if (got !== status) return `HTTP ${got}${codeOf(e) ? ` ${codeOf(e)}` : ""}, expected ${status}`
    if (code !== undefined && codeOf(e) !== code)
      return `code ${codeOf(e) ?? "(none)"}, expected ${code}`
    if (header !== undefined) {
      const v = Option.getOrUndefined(e.response)?.headers[header[0]]
      if (v === undefined || !header[1].test(v))
        return `header ${header[0]} is ${JSON.stringify(v ?? null)}`
    }
    return undefined
  }

/** 200, or one of the given codes with its status. */
export const expectOkOr =
  (...codes: ReadonlyArray<string>) =>
  (e: Exchange): string | undefined => {
    const got = statusOf(e)
    if (got === undefined) return "no response"
    if (got === 200) return undefined
    const code = codeOf(e)
    return code !== undefined && codes.includes(code)
      ? undefined
      : `HTTP ${got}${code ? ` ${code}` : ""}, expected 200${codes.length === 0 ? "" : ` or ${codes.join(" / ")}`}`
  }

/** Why the answer is not 404 unimplemented, or a 404 without a JSON body: the official stacks' default answer to an unknown route, which readers take as unimplemented (decisions.md section 2). */
export const expectUnknownRoute = (e: Exchange): string | undefined => {
  const got = statusOf(e)
  if (got === undefined) return "no response"
  const code = codeOf(e)
  if (got !== 404) return `HTTP ${got}${code ? ` ${code}` : ""}, expected 404`
  return code === "unimplemented" || bareUnknownRoute(e)
    ? undefined
    : `code ${code ?? "(none)"}, expected unimplemented`
}

/**
 * What is wrong with the answer to a request that breaks `rule`: the verdict is the one every
 * answer to a broken must gets (`refusal`), `say` only words what is wrong.
 */
export const expectRefusal =
  (rule: ContractRules.RuleId, say: (e: Exchange) => string | undefined) =>
  (e: Exchange): string | undefined => {
    if (statusOf(e) === undefined) return "no response"
    const decision = refusal(e, [rule], madeValid)
    return decision?._tag === "Wrong"
      ? (say(e) ?? `${decision.got}, expected ${decision.expected}`)
      : undefined
  }

// ---------------------------------------------------------------------------------------------
// A success long after the deadline
// ---------------------------------------------------------------------------------------------

/** A success this long past its deadline, at the least, is late (and past the target's own latency by `LATE_FACTOR`). */
const LATE_FLOOR_MS = 200
/** A success is late only past its deadline by this many times the slowest plain call as well. */
const LATE_FACTOR = 4
/** The plain calls (no deadline) that measure the target's latency for the same request. */
const PLAIN_CALLS = 3
/** The deadline call is sent again this many times, and every answer must be late too. */
const LATE_AGAIN = 2

const isSuccess = (e: Exchange) => statusOf(e) === 200

/**
 * The trace of a deadline call answered 200 (`first`), the same call sent without a deadline
 * (`plain`) and sent again with it (`again`), each as far as `lateState` asked for it.
 */
export interface LateTrace {
  readonly first: Exchange
  readonly plain: ReadonlyArray<Exchange>
  readonly again: ReadonlyArray<Exchange>
}

/**
 * protocol.deadline: a call whose `Connect-Timeout-Ms` deadline passed answers deadline_exceeded,
 * and a success is allowed only when the call finished first (decisions.md sections 2 and 10). A
 * success is judged to have come after the deadline only against the target's own latency for the
 * same request, measured now: it came later than the deadline by the floor and by `LATE_FACTOR`
 * times the slowest of `PLAIN_CALLS` calls without a deadline, and so did each of `LATE_AGAIN`
 * sends of it again. A slow target (whose latency may lie before its deadline clock starts, on
 * the network) is never late by that measure; a target that serves a call more slowly because it
 * carries a deadline is. The state of a trace: the next call to send (with the deadline or
 * without), or its verdict (none: not late). Live traffic: the proxy cannot send the calls that
 * measure the target's latency, so it does not judge a late success.
 */
export const lateState = (
  t: LateTrace
):
  | { readonly _tag: "Send"; readonly deadline: boolean }
  | { readonly _tag: "Judged"; readonly late: Outcome | undefined } => {
  const notLate = { _tag: "Judged", late: undefined } as const
  const { first } = t
  const timeout = Deadline.parseTimeout(first.request.headers[Deadline.TIMEOUT_HEADER])
  if (
    timeout._tag !== "Millis" ||
    !isSuccess(first) ||
    first.durationMs <= timeout.millis + LATE_FLOOR_MS
  )
    return notLate
  // A plain call that does not succeed measures nothing (and the target's answers are judged elsewhere).
  if (!t.plain.every(isSuccess)) return notLate
  if (t.plain.length < PLAIN_CALLS) return { _tag: "Send", deadline: false }
  const plain = t.plain.map((e) => e.durationMs)
  const slowest = Math.max(...plain)
  const threshold = timeout.millis + Math.max(LATE_FLOOR_MS, LATE_FACTOR * slowest)
  if (first.durationMs <= threshold) return notLate
  if (!t.again.every((e) => isSuccess(e) && e.durationMs > threshold)) return notLate
  if (t.again.length < LATE_AGAIN) return { _tag: "Send", deadline: true }
  const again = t.again
  const times = [first, ...again].map((e) => `${e.durationMs} ms`).join(", ")
  return {
    _tag: "Judged",
    late: fail(
      "protocol.deadline",
      "a success long after the deadline",
      `a call with Connect-Timeout-Ms ${timeout.millis} was answered 200 after ${times}; the same call without a deadline took at most ${slowest} ms (${plain.join(", ")} ms): the deadline had long passed, and a passed deadline is deadline_exceeded`,
      again[again.length - 1] ?? first,
      `${Deadline.TIMEOUT_HEADER}: ${timeout.millis}; answered 200 after ${times}`
    )
  }
}

/**
 * A deadline case's verdicts with its late success judged (`late`, from `lateState`): a late
 * success replaces the case's own pass of protocol.deadline.
 */
export const withLateSuccess = (
  verdicts: ReadonlyArray<Outcome>,
  late: Outcome | undefined
): ReadonlyArray<Outcome> =>
  late === undefined
    ? verdicts
    : [
        ...verdicts.filter((v) => v.rule !== undefined || !v.rules?.includes("protocol.deadline")),
        late
      ]

/**
 * What the oracle reads of a case of the protocol family: its name (and the finding's `cause`
 * when the name holds a value), the rule its request tells, whether no answer at all is allowed
 * (a body refused before it is read), and what is wrong with an answer (`expect`).
 */
export interface ProtocolExpectation {
  readonly name: string
  readonly mayDrop?: boolean
  readonly rule: ContractRules.RuleId
  readonly cause?: string
  readonly expect: (e: Exchange) => string | undefined
}

/**
 * The answer to a request of the protocol family (another method or content type, a spelling of
 * the JSON media type, a deadline, a missing version header, an unknown route, a body size):
 * judged by the case's `expect`; no answer where one may be dropped, a rate limit or an overload
 * answered first, or a slow target, says nothing of its rule. Live traffic: the proxy
 * does not know what a request was meant to tell beyond what it breaks, so it judges refusals by
 * `refusal` (invalid-rejected) and body sizes by `bodyLimit`.
 */
export const protocolAnswer = (c: ProtocolExpectation, e: Exchange): Outcome | undefined => {
  if ((c.mayDrop === true && Option.isNone(e.response)) || slowNotHung(e) || answeredFirst(e))
    return undefined
  const problem = c.expect(e)
  return problem === undefined
    ? pass("protocol", [c.rule])
    : fail(
        c.rule,
        `${c.cause ?? c.name}: ${problem.replace(/".*"/, "…")}`,
        `${c.name}: ${problem}`,
        e,
        Option.match(e.response, {
          onNone: () => undefined,
          onSome: (r) => excerpt(r, 200)
        })
      )
}

/**
 * A compressed body refused as a server that leaves compression out does (415, unimplemented):
 * a faithful answer (decisions.md section 10), which says nothing of its size. Live traffic: the
 * proxy does not judge a compressed body it cannot read.
 */
export const compressionLeftOut = (e: Exchange): Outcome | undefined =>
  encodingLeftOut(e) ? pass("protocol") : undefined

/**
 * protocol.body-limit: a valid read of `bytes` over 1 MiB is served, or refused for its size with
 * resource_exhausted (a rate limit says when to retry); a server that served a larger body
 * (`largestServed`) has a limit above this one, so it serves this one too. Live traffic: the proxy
 * judges only a refusal of a body of at most 1 MiB (`bodyLimit`).
 */
export const bodySizeAnswered = (
  bytes: number,
  largestServed: number,
  e: Exchange
): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status >= 500) return undefined
  const code = codeOf(e)
  if (r.status === 200) return pass("protocol", ["protocol.body-limit"])
  if (code === "resource_exhausted")
    return largestServed > bytes && r.headers["retry-after"] === undefined
      ? fail(
          "protocol.body-limit",
          "a body refused for its size, a larger one served",
          `a valid read of ${mib(bytes)} was refused with resource_exhausted, but one of ${mib(largestServed)} was served: no size limit refuses the smaller`,
          e,
          answerExcerpt(e)
        )
      : pass("protocol", ["protocol.body-limit"])
  return fail(
    "protocol.body-limit",
    `a body over 1 MiB: got ${code ?? `HTTP ${r.status}`}`,
    `a valid read of ${mib(bytes)} got ${got(e)}; a server serves it or refuses it for its size with resource_exhausted`,
    e,
    answerExcerpt(e)
  )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [bodyLimit, deadlineElapsedOracle]
