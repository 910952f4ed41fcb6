// The faithful proof on the official Connect stack, directly: one run at 5 examples, at a seed where
// the run still judges every rule it can (at 5, wire.snake-case is not reached at seed 2; at 10,
// search.fields is not reached at seeds 1, 4 and 5; most of a run is its fixed cases, not examples).
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(3, 5, 600, { everyRuleJudged: true })
})
