// The faithful proof on the official Connect stack: the contract runner against the server at two
// seeds (20 examples each), and a variant of the stack.
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner against the Connect-stack server", () => {
  zeroFindings(1, 20, 300)
  zeroFindings(2, 20, 300)
  // Another faithful variant of the stack: the reference server's default choices in the domain,
  // Connect GET for the reads, zero values written, a body limit of 1 MiB, no compression.
  zeroFindings(7, 20, 300, {
    name: "a variant (no latitude switch, Connect GET, zero values written, 1 MiB, no compression)",
    options: {
      latitude: [],
      connectGet: true,
      stack: {
        jsonOptions: { alwaysEmitImplicit: true },
        readMaxBytes: 1024 * 1024,
        acceptCompression: []
      }
    }
  })
})
