// The faithful proof on the official Connect stack: the contract runner against a server serving
// Connect GET for its reads at 20 examples (the default server at 20 examples and the stack's
// variant run through the proxy, in runner-through-proxy.test.ts).
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(1, 20, 300, {
    name: "a server serving Connect GET for its reads",
    options: { connectGet: true }
  })
})
