/**
 * The violations of the `timestamps` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { onTarget } from "../violationHooks.js"
import { violation } from "../violationRecord.js"

export const createdAtInFuture = violation({
  name: "created-at-in-future",
  rule: "timestamps.past",
  description: "`createdAt` of returned objects is one day after the response time.",
  hooks: {
    respond: onTarget((target) => {
      if (typeof target.createdAt === "string")
        target.createdAt = new Date(Date.now() + 86_400_000).toISOString()
    })
  }
})

export const expiresAtInPast = violation({
  name: "expires-at-in-past",
  rule: "timestamps.expires-future",
  description: "CreateHumanUserPassword's `expiresAt` is one hour before the response time.",
  hooks: {
    respond: onTarget((target) => {
      if (typeof target.expiresAt === "string")
        target.expiresAt = new Date(Date.now() - 3_600_000).toISOString()
    })
  }
})
