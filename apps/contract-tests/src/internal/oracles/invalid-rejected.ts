/**
 * invalid-rejected: a request that breaks a must is never served, and the protocol's own refusals
 * (unknown route, method, content type) and a missing key get their own statuses.
 */
import * as Option from "effect/Option"
import type { ContractRules } from "@data-access/schema"
import { fail, pass, passes } from "../outcome.js"
import { answeredFirst, codeOf, excerpt, summary } from "./answer.js"
import { type ExchangeOracle, oracle } from "./oracle.js"

/**
 * The rules a request can break on its own (the proxy's client side): a request that breaks one
 * is never served.
 */
export const requestRules = [
  "protocol.unknown-route",
  "protocol.method",
  "protocol.content-type",
  "protocol.version-header",
  "auth.key-required",
  "wire.empty-body",
  "wire.json-object-body",
  "fields.required",
  "fields.min-length",
  "fields.enum",
  "fields.json-type",
  "fields.one-of",
  "fields.connector-name",
  "lists.limit-range",
  "filter.unknown-key",
  "filter.group-not-empty"
] as const satisfies ReadonlyArray<ContractRules.RuleId>

/** A rule a request can break on its own. */
export type RequestRule = (typeof requestRules)[number]

/** The answer to a request that breaks a must: never a success, and the protocol's own statuses. */
const refused = oracle({
  name: "refused",
  check: "invalid-rejected",
  rules: requestRules,
  judge: ({ breaches, exchange: e, keyPresent, op }) => {
    const response = Option.getOrUndefined(e.response)
    const musts = breaches.filter((b) => b.latitude === undefined)
    // A rate limit or an overload may answer any request first: it is no answer to the request's fault.
    if (response === undefined || musts.length === 0 || answeredFirst(e)) return []
    const first = musts[0]!
    const got = summary(e)
    const code = codeOf(e)
    // Without a key, a server may check the key first (401) whatever else the request breaks.
    if (!keyPresent && response.status === 401 && code === "unauthenticated")
      return [passes(["auth.key-required"])]
    if (op === undefined) {
      // An unknown route is 404 with the code unimplemented (an empty body is no Connect error: error-shape says so).
      if (response.status === 404 && (code === "unimplemented" || code === undefined))
        return [passes(["protocol.unknown-route"])]
      return [
        fail(
          "protocol.unknown-route",
          `unknown route: got ${got}`,
          `an unknown route got ${got}, expected 404 unimplemented`,
          e,
          excerpt(response, 300)
        )
      ]
    }
    if (first.rule === "protocol.method") {
      if (response.status === 405 && /(^|,)\s*POST\s*(,|$)/i.test(response.headers["allow"] ?? ""))
        return [passes(["protocol.method"])]
      // A GET that is no Connect GET: a server may serve Connect GET, refusing a GET it cannot read
      // (connect-es answers 415), or leave it out (415 / unimplemented, decisions.md section 10), so
      // any refusal passes, as in the runner's GET probes.
      if (e.request.method === "GET" && response.status !== 200)
        return [passes(["protocol.method"])]
      return [
        fail(
          "protocol.method",
          `${first.cause}: got ${got}`,
          `${first.message} got ${got}, expected 405 with Allow: POST`,
          e,
          excerpt(response, 300)
        )
      ]
    }
    if (first.rule === "protocol.content-type") {
      if (response.status === 415) return [passes(["protocol.content-type"])]
      return [
        fail(
          "protocol.content-type",
          `content type: got ${got}`,
          `${first.message} got ${got}, expected 415`,
          e,
          excerpt(response, 300)
        )
      ]
    }
    if (response.status === 200) {
      return [
        fail(
          first.rule,
          `${first.cause}: got 200`,
          `a request that breaks ${first.rule} (${first.message}) was served with 200, expected an error`,
          e,
          excerpt(response, 300)
        )
      ]
    }
    // Any other refusal passes under invalid-rejected, whichever check the broken rule belongs to.
    return [pass("invalid-rejected", [first.rule])]
  }
})

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [refused]
