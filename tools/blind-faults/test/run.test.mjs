// The runner of the catalogue against a real reference server behind the front: the control is
// faithful (no finding) and a fault's run ends with a report. Whether a fault is caught is the
// measurement the command prints, not an assertion.
import { describe, expect, it } from "vitest"
import { catalogue } from "../src/catalogue.mjs"
import { control, runOne } from "../src/run.mjs"
import { frontPaged } from "../src/second.mjs"
import { fourthControls } from "../src/fourth.mjs"
import { thirdControls } from "../src/third.mjs"

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

  it("finds nothing when the front writes answers in small chunks, with unknown fields", async () => {
    const chunked = thirdControls.find((entry) => entry.name === "control-chunked-with-extras")
    const { report, counts } = await runOne(chunked, {
      ...small,
      runOptions: { operations: ["GetResource"] }
    })
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

  it("names the must and the batch of each fault, each later batch with kinds of its own", () => {
    const controls = [...thirdControls, ...fourthControls]
    for (const entry of [...catalogue, ...controls]) {
      expect(["interface.md", "decisions.md"]).toContain(entry.must.document)
      expect(entry.must.quote.length).toBeGreaterThan(0)
      expect(entry.fault.request ?? entry.fault.response).toBeTypeOf("function")
    }
    for (const entry of catalogue) expect([1, 2, 3, 4]).toContain(entry.batch)
    const names = [...catalogue, ...controls].map((entry) => entry.name)
    expect(new Set(names).size).toBe(names.length)
    const kindsOf = (batch) =>
      new Set(catalogue.filter((entry) => entry.batch === batch).map((entry) => entry.kind))
    for (const batch of [2, 3, 4]) {
      const earlier = new Set(
        catalogue.filter((entry) => entry.batch < batch).map((entry) => entry.kind)
      )
      expect([...kindsOf(batch)].filter((kind) => earlier.has(kind))).toEqual([])
    }
  })
})
