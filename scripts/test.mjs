/* global process, console, URL */
// Runs every package's tests through turbo (dependency order, two tasks at a time: the packed
// install checks of package-check wait mostly on the registry and the compiler, so they run beside
// the CPU-bound contract tests), then prints one summary line over all packages:
// "Tests: N passed, N failed, N skipped", after each package's test duration (from turbo's run
// summary), so the next slow suite is visible.
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"

const root = new URL("..", import.meta.url).pathname
const workspaces = ["packages", "apps", "tools", "examples"]
  .filter((dir) => existsSync(join(root, dir)))
  .flatMap((dir) =>
    existsSync(join(root, dir, "package.json"))
      ? [join(root, dir)]
      : readdirSync(join(root, dir)).map((name) => join(root, dir, name))
  )
  .filter((dir) => existsSync(join(dir, "package.json")))

const reportOf = (dir) => join(dir, "reports", "vitest.json")
for (const dir of workspaces) rmSync(reportOf(dir), { force: true })

const summaries = join(root, ".turbo", "runs")
const started = Date.now()
const run = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "test", "--concurrency=2", "--continue", "--summarize", "--", "--reporter=default", "--reporter=json", "--outputFile.json=reports/vitest.json", ...process.argv.slice(2)],
  { cwd: root, stdio: "inherit" }
)

// Each task's wall time from the summary turbo wrote for this run (the newest one, written after it started).
const summaryFile = existsSync(summaries)
  ? readdirSync(summaries)
      .map((name) => join(summaries, name))
      .filter((file) => file.endsWith(".json") && statSync(file).mtimeMs >= started)
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
  : undefined
const durations = new Map()
if (summaryFile !== undefined) {
  for (const task of JSON.parse(readFileSync(summaryFile, "utf8")).tasks ?? []) {
    const { startTime, endTime } = task.execution ?? {}
    if (typeof startTime !== "number" || typeof endTime !== "number") continue
    durations.set(task.taskId, { seconds: (endTime - startTime) / 1000, cached: task.cache?.status === "HIT" })
  }
}
const durationOf = (name, task) => {
  const d = durations.get(`${name}#${task}`)
  return d === undefined ? "" : d.cached ? `${task} cached` : `${task} ${d.seconds.toFixed(1)} s`
}

let passed = 0
let failed = 0
let skipped = 0
const missing = []
for (const dir of workspaces) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  if (!pkg.scripts?.test) continue
  if (!existsSync(reportOf(dir))) {
    missing.push(pkg.name)
    continue
  }
  const report = JSON.parse(readFileSync(reportOf(dir), "utf8"))
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += report.numPendingTests + report.numTodoTests
  const times = [durationOf(pkg.name, "build"), durationOf(pkg.name, "test")].filter((t) => t !== "").join(", ")
  console.log(`${pkg.name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed${times === "" ? "" : ` (${times})`}`)
}
for (const name of missing) console.log(`${name}: no test report (its tests did not run)`)
const status = run.status ?? 1
console.log(`All tasks: ${((Date.now() - started) / 1000).toFixed(1)} s`)
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(status !== 0 || failed > 0 || missing.length > 0 ? status || 1 : 0)
