// The faithful proof on the official Connect stack: one run at 100 examples.
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(5, 100, 600)
})
