// The faithful proof on the official Connect stack: one run at 300 examples.
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(6, 300, 900)
})
