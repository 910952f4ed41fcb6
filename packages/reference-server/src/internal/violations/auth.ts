/**
 * The violations of the `auth` check: the records whose rule `ContractRules` gives to that check,
 * and the helpers only they use.
 *
 * @internal
 */
import { without } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

export const authIgnored = violation({
  name: "auth-ignored",
  rule: "auth.key-required",
  description: "A missing, empty or unknown `X-API-KEY` is accepted.",
  hooks: { checks: without("auth") }
})
