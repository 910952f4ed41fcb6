// The runner of the catalogue against a real reference server behind the front: the control is
// faithful (no finding) and a fault's run ends with a report. Whether a fault is caught is the
// measurement the command prints, not an assertion.
import { describe, expect, it } from "vitest"
import { catalogue } from "../src/catalogue.mjs"
import { control, runOne } from "../src/run.mjs"
import { frontPaged } from "../src/second.mjs"

/** Few examples on the few operations the chosen fault changes, to keep the test cheap. */
const small = {
  seed: 1,
  examples: 3,
  runOptions: { operations: ["GetResource", "ListSatellites"] }
}

describe("blind faults", () => {
  it("finds nothing through a front with no fault", async () => {
    const { report, counts } = await runOne(control, small)
    expect(report.findings).toEqual([])
    expect(counts.exchanges).toBeGreaterThan(0)
    expect(counts.changed).toBe(0)
  })

  it("finds nothing when the front pages a List itself without a fault", async () => {
    const paged = { name: "paged", fault: frontPaged(["ListSatellites"], {}) }
    const { report, counts } = await runOne(paged, small)
    expect(report.findings).toEqual([])
    expect(counts.changed).toBeGreaterThan(0)
  })

  it("ends a fault's run with a report", async () => {
    const fault = catalogue.find((entry) => entry.name === "port-as-string")
    const { report, counts } = await runOne(fault, small)
    expect(report.requests).toBeGreaterThan(0)
    expect(Array.isArray(report.findings)).toBe(true)
    expect(counts.changed).toBeGreaterThan(0)
  })

  it("names the must and the batch of each fault, the second batch with kinds of its own", () => {
    for (const entry of catalogue) {
      expect(["interface.md", "decisions.md"]).toContain(entry.must.document)
      expect(entry.must.quote.length).toBeGreaterThan(0)
      expect(entry.fault.request ?? entry.fault.response).toBeTypeOf("function")
      expect([1, 2]).toContain(entry.batch)
    }
    expect(new Set(catalogue.map((entry) => entry.name)).size).toBe(catalogue.length)
    const kindsOf = (batch) =>
      new Set(catalogue.filter((entry) => entry.batch === batch).map((entry) => entry.kind))
    const firstKinds = kindsOf(1)
    expect([...kindsOf(2)].filter((kind) => firstKinds.has(kind))).toEqual([])
  })
})
