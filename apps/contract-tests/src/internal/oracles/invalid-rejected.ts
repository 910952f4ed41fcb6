/**
 * invalid-rejected: a request that breaks a must is never served, and the protocol's own refusals
 * (unknown route, method, content type) get their own statuses; a missing key is the auth check's.
 */
import type { ContractRules } from "@data-access/schema"
import type { Op } from "../context.js"
import type { Exchange } from "../http.js"
import { fail, type Outcome, pass } from "../outcome.js"
import {
  answerExcerpt,
  codeOf,
  encodingLeftOut,
  got,
  statusOf,
  tellsNothing
} from "../answerReading.js"
import { type ExchangeOracle, oracle } from "../exchangeOracle.js"
import { liveTraffic, refusalVerdict } from "../refusalVerdict.js"

/**
 * The rules a request can break on its own (the proxy's client side) but the key's: a request that
 * breaks one is never served.
 */
export const requestRules = [
  "protocol.unknown-route",
  "protocol.method",
  "protocol.content-type",
  "protocol.version-header",
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
  "filter.group-not-empty",
  "filter.one-of"
] as const satisfies ReadonlyArray<ContractRules.RuleId>

/** A rule a request can break on its own. */
export type RequestRule = (typeof requestRules)[number]

/**
 * The answer to a request that breaks a must. Live traffic: the request's breaches are read from
 * its body, its key and ids are unknown (`liveTraffic`); a request whose first breach is its key
 * is the auth check's to judge, with the same decision.
 */
const refused = oracle({
  name: "refused",
  check: "invalid-rejected",
  rules: requestRules,
  judge: ({ breaches, exchange: e, optionalForm }) => {
    const musts = breaches.filter((b) => b.latitude === undefined)
    if (musts.length > 0 && !(requestRules as ReadonlyArray<string>).includes(musts[0]!.rule))
      return []
    const verdict = refusalVerdict(e, musts, liveTraffic, optionalForm)
    return verdict === undefined ? [] : [verdict]
  }
})

/**
 * wire.json-object-body: a body that says gzip and is plain JSON (`what`) is refused as malformed
 * (invalid_argument) or for its encoding (415, unimplemented), or read as it came; never refused as
 * something else. Live traffic: the proxy reads such a body as undecodable and does not judge it.
 */
export const mislabelledBody = (e: Exchange, what: string): Outcome | undefined => {
  if (tellsNothing(e)) return undefined
  const status = statusOf(e)!
  if (status === 200 || (status === 400 && codeOf(e) === "invalid_argument") || encodingLeftOut(e))
    return pass("protocol")
  return fail(
    "wire.json-object-body",
    `${what}: got ${codeOf(e) ?? `HTTP ${status}`}`,
    `${what} got ${got(e)}; a server refuses it as malformed (invalid_argument) or for its encoding (415, unimplemented)`,
    e,
    answerExcerpt(e)
  )
}

/**
 * protocol.method: a GET without a message, or a Connect GET of a method with side effects (`what`),
 * is not served (decisions.md section 10: only POST and a Connect GET of a read are). Live traffic:
 * the proxy judges a GET by `refusal` only when it breaks a must (invalid-rejected).
 */
export const getRefused = (e: Exchange, what: string): Outcome | undefined =>
  tellsNothing(e)
    ? undefined
    : statusOf(e) === 200
      ? fail(
          "protocol.method",
          `${what}: served`,
          `${what} was served with 200; only POST and Connect GET of a read are served`,
          e,
          answerExcerpt(e)
        )
      : pass("protocol", ["protocol.method"])

/**
 * protocol.method: a Connect GET of a read (`what`) not served is refused as a server that leaves
 * Connect GET out does: the wrong method (405), the form or codec not served (415), no such route
 * or unimplemented (404, 501); with `connect=v1` and a valid message a 400 is a message misread.
 * Live traffic: the proxy does not judge a Connect GET (a form a server may leave out).
 */
export const connectGetRefused = (op: Op, e: Exchange, what: string): Outcome | undefined => {
  if (tellsNothing(e)) return undefined
  return [405, 415, 404, 501].includes(statusOf(e)!)
    ? pass("protocol")
    : fail(
        "protocol.method",
        `${what}: got ${got(e)}`,
        `${what} of ${op.method} got ${got(e)}; a server serves it or refuses it (405, 415, unimplemented)`,
        e,
        answerExcerpt(e)
      )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [refused]
