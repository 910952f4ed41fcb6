import type { ReferenceServer } from "@data-access/reference-server"
import * as Baseline from "../src/Baseline.js"
import type * as Report from "../src/Report.js"

/** The embedded server's options for a server that commits these violations of the catalogue. */
export const violating = (names: ReadonlyArray<ReferenceServer.ViolationName>) => ({
  faults: {
    rules: names.map((name) => ({ fault: { _tag: "Violation" as const, name } }))
  }
})

/** A report's findings by their baseline keys, sorted: equal for the same findings of a seed. */
export const findingKeys = (findings: ReadonlyArray<Report.Finding>) =>
  findings.map(Baseline.key).sort()
