/**
 * invalid-rejected: a request that breaks a must is never served, and the protocol's own refusals
 * (unknown route, method, content type) get their own statuses; a missing key is the auth check's.
 */
import type { ContractRules } from "@data-access/schema"
import { type ExchangeOracle, oracle } from "./oracle.js"
import { liveTraffic, refusalVerdict } from "./refusal.js"

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

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [refused]
