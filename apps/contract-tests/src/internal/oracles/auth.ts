/**
 * auth: a missing, empty or wrong `X-API-KEY` is unauthenticated on every operation (decisions.md
 * section 2), a key one step from a valid one included.
 */
import * as Option from "effect/Option"
import type { Exchange } from "../http.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { excerpt } from "../answerReading.js"
import { type ExchangeOracle, oracle } from "../exchangeOracle.js"
import { type Known, liveTraffic, refusal, refusalVerdict } from "../refusalVerdict.js"

/**
 * The trace of a request sent with a key that is not valid (`mode`: missing, empty, wrong or one
 * step from the valid key), `known` what the runner knows of its body: unauthenticated (401), or
 * an error another fault of the request explains; `undefined` when the answer says nothing of the
 * request (no answer, a rate limit or an overload). Live traffic: the proxy cannot tell a wrong key
 * from a valid one, so it judges only a request with no key or an empty one (`keyMissing`).
 */
export const wrongKey = (mode: string, e: Exchange, known: Known): Outcome | undefined => {
  const decision = refusal(e, ["auth.key-required"], known)
  if (decision === undefined) return undefined
  if (decision._tag !== "Wrong") return passes(["auth.key-required"])
  return fail(
    "auth.key-required",
    `${mode} key: got ${decision.got}`,
    `a request with a ${mode} API key got ${decision.got}, expected unauthenticated (401)`,
    e,
    Option.match(e.response, { onNone: () => undefined, onSome: (r) => excerpt(r, 200) })
  )
}

/**
 * A request of live traffic with no key or an empty one, that being its first breach: the same
 * decision as the invalid-rejected check's on a request's other breaches, any of them answered.
 */
const keyMissing = oracle({
  name: "key-missing",
  rules: ["auth.key-required"],
  judge: ({ breaches, exchange: e, optionalForm }) => {
    const musts = breaches.filter((b) => b.latitude === undefined)
    if (musts[0]?.rule !== "auth.key-required") return []
    const verdict = refusalVerdict(e, musts, liveTraffic, optionalForm)
    return verdict === undefined ? [] : [verdict]
  }
})

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [keyMissing]
