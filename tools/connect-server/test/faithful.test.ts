// The faithful proof on the official Connect stack, directly: one run at 40 examples, the fewest
// at which the run still judges every rule it can (at 20, search.fields is not reached at seed 5).
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(5, 40, 600, { everyRuleJudged: true })
})
