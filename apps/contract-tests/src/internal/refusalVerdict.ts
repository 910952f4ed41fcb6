/**
 * The one decision on the answer to a request that breaks musts, shared by the checks whose rules
 * a request breaks on its own (invalid-rejected, auth): the answer each must calls for, and the
 * errors another fault of the request, or what the sender does not know, explains.
 */
import * as Option from "effect/Option"
import { type ContractRules, Deadline, JsonBody } from "@data-access/schema"
import { operationOf } from "./answerReading.js"
import { type Exchange, type RawResponse, requestBytesOf } from "./http.js"
import { fail, type Outcome, passes } from "./outcome.js"
import { referenceOf } from "./pools.js"
import { answeredFirst, bareUnknownRoute, codeOf, excerpt } from "./answerReading.js"
import type { Breach } from "./exchangeOracle.js"

/**
 * What the sender of a request knows beyond its exchange. The runner knows its own requests; live
 * traffic (the proxy, a HAR) knows nothing more than `liveTraffic` says.
 */
export interface Known {
  /** The key sent is one the target takes: unauthenticated is then no answer to the request. */
  readonly keyValid: boolean
  /** Every id the body names names an object: not_found is then no answer to the request. */
  readonly idsExist: boolean
  /** The body breaks no must beyond the request's breaches: invalid_argument is then no answer to another fault. */
  readonly bodyKnown: boolean
}

/** What an exchange of live traffic tells: its body is read whole (its breaches are all known), its key and ids are not. */
export const liveTraffic: Known = { keyValid: false, idsExist: false, bodyKnown: true }

/** What the runner knows of a request it made from valid parts: everything. */
export const madeValid: Known = { keyValid: true, idsExist: true, bodyKnown: true }

/** The answer a broken must calls for, as a finding says it (decisions.md sections 1 and 2). */
const expectedFor = (rule: ContractRules.RuleId): string => {
  switch (rule) {
    case "protocol.unknown-route":
      return "404 unimplemented"
    case "protocol.method":
      return "405 with Allow: POST"
    case "protocol.content-type":
      return "415"
    case "auth.key-required":
      return "unauthenticated (401)"
    default:
      return "invalid_argument"
  }
}

/** Whether an `Allow` header names POST among its methods. */
const allowsPost = (allow: string | undefined): boolean =>
  allow !== undefined && allow.split(",").some((m) => m.trim().toUpperCase() === "POST")

/** Whether the answer is the one a broken must calls for (decisions.md sections 1 and 2). */
const answers = (rule: ContractRules.RuleId, e: Exchange, r: RawResponse): boolean => {
  const code = codeOf(e)
  switch (rule) {
    case "protocol.unknown-route":
      return r.status === 404 && (code === "unimplemented" || bareUnknownRoute(e))
    case "protocol.method":
      // A GET that is no Connect GET: a server may serve Connect GET, refusing a GET it cannot
      // read (connect-es answers 415), or leave it out (415 / unimplemented, decisions.md section
      // 10), so any refusal answers it.
      return (
        (r.status === 405 && allowsPost(r.headers["allow"])) ||
        (e.request.method === "GET" && r.status !== 200)
      )
    case "protocol.content-type":
      return r.status === 415
    case "auth.key-required":
      return r.status === 401 && code === "unauthenticated"
    default:
      return r.status === 400 && code === "invalid_argument"
  }
}

/** Whether the body names an id (a reference field with a value): an id that names nothing is not_found. */
const namesIds = (e: Exchange): boolean => {
  const op = operationOf(e.request.path)
  if (op === undefined || e.request.body === undefined) return false
  let body: unknown
  try {
    body = JSON.parse(e.request.body)
  } catch {
    return false
  }
  return (
    typeof body === "object" &&
    body !== null &&
    Object.entries(body).some(
      ([k, v]) =>
        v !== null &&
        v !== "" &&
        referenceOf(
          op,
          k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())
        ) !== undefined
    )
  )
}

/**
 * Whether the answer is an error some other fault of the request, or the sender's, explains
 * (decisions.md section 10: a request that breaks several rules, or has both a bad key and another
 * fault, may get any one of the errors that apply): unauthenticated to a key not known valid,
 * not_found to ids not known to exist, invalid_argument to a body not known whole, resource_exhausted
 * to a body over 1 MiB, deadline_exceeded to a call with a deadline, 415 / unimplemented to a form
 * a server may leave out.
 */
const explained = (e: Exchange, r: RawResponse, known: Known, optionalForm: boolean): boolean => {
  const code = codeOf(e)
  return (
    (!known.keyValid && r.status === 401 && code === "unauthenticated") ||
    (!known.idsExist && code === "not_found" && namesIds(e)) ||
    (!known.bodyKnown && code === "invalid_argument") ||
    (code === "resource_exhausted" && requestBytesOf(e) > JsonBody.GUARANTEED_MAX_BYTES) ||
    (code === "deadline_exceeded" && e.request.headers[Deadline.TIMEOUT_HEADER] !== undefined) ||
    (optionalForm && (r.status === 415 || code === "unimplemented"))
  )
}

/** How the answer to a request that breaks musts stands: one of the answers they call for, one another fault explains, or neither. */
export type Refusal =
  | { readonly _tag: "Right"; readonly rule: ContractRules.RuleId }
  | { readonly _tag: "Explained" }
  | { readonly _tag: "Wrong"; readonly got: string; readonly expected: string }

/**
 * The one decision on the answer to a request that breaks the musts `rules` (the runner's families,
 * the proxy and the HAR judge all call it): `undefined` when the answer says nothing of the
 * request (no answer; a rate limit or an overload, which may answer any request first).
 */
export const refusal = (
  e: Exchange,
  rules: ReadonlyArray<ContractRules.RuleId>,
  known: Known,
  optionalForm = false
): Refusal | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || rules.length === 0 || answeredFirst(e)) return undefined
  const right = rules.find((rule) => answers(rule, e, r))
  if (right !== undefined) return { _tag: "Right", rule: right }
  if (r.status !== 200 && explained(e, r, known, optionalForm)) return { _tag: "Explained" }
  const code = codeOf(e)
  return {
    _tag: "Wrong",
    got: code ?? `HTTP ${r.status}`,
    expected: [...new Set(rules.map(expectedFor))].join(" or ")
  }
}

/**
 * The verdict on the answer to a request that breaks musts, the first of `breaches` the one a
 * failure names: a pass of the rule answered (or of the first, when another fault explains the
 * answer), a failure otherwise, none when the answer says nothing of the request.
 */
export const refusalVerdict = (
  e: Exchange,
  breaches: ReadonlyArray<Pick<Breach, "rule" | "cause">>,
  known: Known,
  optionalForm = false
): Outcome | undefined => {
  const decision = refusal(
    e,
    breaches.map((b) => b.rule),
    known,
    optionalForm
  )
  if (decision === undefined) return undefined
  const first = breaches[0]!
  if (decision._tag === "Right") return passes([decision.rule])
  if (decision._tag === "Explained") return passes([first.rule])
  return fail(
    first.rule,
    `${first.cause}: got ${decision.got}`,
    `an invalid request (${first.cause}) got ${decision.got}, expected ${decision.expected}`,
    e,
    Option.match(e.response, { onNone: () => undefined, onSome: (r) => excerpt(r, 300) })
  )
}
