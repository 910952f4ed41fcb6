// The faithful proof on the official Connect stack: the contract runner against the server at
// several seeds (20 examples each, and one run at 5).
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(1, 20, 300)
  zeroFindings(2, 20, 300)
  zeroFindings(3, 20, 300)
  zeroFindings(4, 5, 120)
})
