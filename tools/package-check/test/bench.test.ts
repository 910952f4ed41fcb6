// scripts/bench.mjs turns each benchmark's printed tables into the one table of BENCHMARKS.md:
// checked on real `console.table` output, and the committed BENCHMARKS.md covers every benchmark.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
// @ts-expect-error plain ESM script without types
import { figures } from "../../../scripts/bench.mjs"
import { root, workspaceDirs } from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"

it("reads figures, ratios and the scenario from console.table output and summary lines", async () => {
  const { stdout: printed } = await runCommand(
    process.execPath,
    [
      "-e",
      `console.log("GetResource benchmark")
       console.table([{ scenario: "GetResource c=1", "fetch calls/s": "907", "client/fetch": "41.0%", "p50/p99 ms": "0.76 / 2.10", goal: "MISSED (< 85%)" }])
       console.log("  median wall time   17.0 s   (goal 60 s, ratio 0.28 of the goal)")
       console.log("  requests per run   9000")`
    ],
    { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } }
  )
  expect(figures(printed)).toEqual([
    {
      scenario: "GetResource c=1",
      figures: "fetch calls/s: 907 · p50/p99 ms: 0.76 / 2.10",
      ratios: "client/fetch: 41.0% · goal: MISSED (< 85%)"
    },
    {
      scenario: "median wall time",
      figures: "17.0 s",
      ratios: "goal 60 s, ratio 0.28 of the goal"
    },
    { scenario: "requests per run", figures: "9000", ratios: "" }
  ])
})

it("BENCHMARKS.md notes the machine and has figures of every package with a benchmark", () => {
  const file = join(root, "BENCHMARKS.md")
  expect(existsSync(file)).toBe(true)
  const text = readFileSync(file, "utf8")
  expect(text).toMatch(/^- \d+ cores/m)
  expect(text).toMatch(/^- Node v\d+/m)
  expect(text).toMatch(/load average/)
  const benched = (workspaceDirs() as ReadonlyArray<string>)
    .map((dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")))
    .filter((pkg) => pkg.scripts?.bench)
    .map((pkg) => pkg.name as string)
  expect(benched.length).toBeGreaterThan(0)
  for (const name of benched)
    expect(text, name).toMatch(new RegExp(`^\\| ${name} \\| [^|]+ \\| [^|]*\\d`, "m"))
  expect(text).not.toMatch(/\*\*failed/)
})
