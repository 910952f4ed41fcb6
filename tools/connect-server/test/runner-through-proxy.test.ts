// The contract runner through the conformance proxy against the Connect-stack server: the runner's
// faithful proof (zero findings, every check exercised), and the proxy judges every exchange the
// runner makes, odd requests included, with its own rules; the server's side of each is faithful,
// so the proxy reports no server finding (the runner's invalid requests are client findings). Each
// run judges every rule it can (the direct run is at 5 examples: these are at 10 and 5).
import { describe } from "@effect/vitest"
import { zeroFindings } from "./run.js"

describe("the contract runner through the proxy against the Connect-stack server", () => {
  // The default server, serving Connect GET for its reads (the stack's own GET support).
  zeroFindings(2, 10, 300, {
    name: "the default server serving Connect GET for its reads",
    throughProxy: true,
    everyRuleJudged: true,
    options: { connectGet: true }
  })
  // Another faithful variant of the stack: the reference server's default choices in the domain,
  // Connect GET for the reads, zero values written, a body limit of 1 MiB, no compression.
  zeroFindings(7, 5, 300, {
    name: "a variant (no latitude switch, Connect GET, zero values written, 1 MiB, no compression)",
    throughProxy: true,
    everyRuleJudged: true,
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
