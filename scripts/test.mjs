/* global process, console, URL */
// Runs every package's tests through turbo, then prints one summary line over all packages:
// "Tests: N passed, N failed, N skipped", after each package's test duration (from turbo's run
// summaries), so the next slow suite is visible. The library packages' suites also run under the
// other Node lines users run (node-lines/index.mjs), those of their files that a Node line can
// change, each line's outcome printed the same way; the summary line counts every line, and a
// failure under any Node fails the run.
//
// The order keeps a 2-core machine's cores busy to the end: every package is built first (turbo
// run build); then the contract tests, the longest suite by far, start at once in a turbo run of
// their own, beside a turbo run of every other package's tests (two at a time: the packed install
// checks of package-check wait mostly on the registry and the compiler) and beside the other Node
// lines' suites, one at a time while the turbo runs last and two at a time after. Those lines'
// Nodes are downloaded and their native addons compiled from the start, beside the builds.
import { spawn } from "node:child_process"
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { NODE_LINES, prepareNodeLines, runNodeLines } from "./node-lines/index.mjs"
import { workspaceDirs } from "./workspaces.mjs"

const root = new URL("..", import.meta.url).pathname
const workspaces = workspaceDirs(root)

const reportOf = (dir) => join(dir, "reports", "vitest.json")
for (const dir of workspaces) rmSync(reportOf(dir), { force: true })

const summaries = join(root, ".turbo", "runs")
const started = Date.now()
// The other lines' Nodes and native addons need only the install: made ready beside the builds.
const prepared = prepareNodeLines({ root })
/** `turbo run <task> <flags> -- <passed on>`, with a run summary; resolves to its exit code. */
const turbo = (task, flags, passedOn = []) =>
  new Promise((done) => {
    const child = spawn(
      "pnpm",
      [
        "exec",
        "turbo",
        "run",
        task,
        ...flags,
        "--summarize",
        ...(passedOn.length > 0 ? ["--", ...passedOn] : [])
      ],
      { cwd: root, stdio: "inherit" }
    )
    child.on("error", () => done(1))
    child.on("close", (code) => done(code ?? 1))
  })
const vitestArgs = [
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=reports/vitest.json",
  ...process.argv.slice(2)
]
const CONTRACT_TESTS = "@data-access/contract-tests"

const buildStatus = await turbo("build", ["--concurrency=2"])
const tests = Promise.all([
  turbo("test", ["--only", `--filter=${CONTRACT_TESTS}`, "--continue"], vitestArgs),
  turbo(
    "test",
    ["--only", `--filter=!${CONTRACT_TESTS}`, "--concurrency=2", "--continue"],
    vitestArgs
  )
])
// After the builds nothing writes to a package's dist: the lines' suites may run beside the tests.
const lines = runNodeLines({ root, workspaces, args: process.argv.slice(2), prepared, busy: tests })
const testStatuses = await tests
const turboStatus = [buildStatus, ...testStatuses].find((s) => s !== 0) ?? 0
const turboSeconds = (Date.now() - started) / 1000
const lineResults = await lines

// Each task's wall time from the summaries turbo wrote for this run's three turbo runs (written after it started).
const summaryFiles = existsSync(summaries)
  ? readdirSync(summaries)
      .map((name) => join(summaries, name))
      .filter((file) => file.endsWith(".json") && statSync(file).mtimeMs >= started)
  : []
const durations = new Map()
for (const summaryFile of summaryFiles) {
  for (const task of JSON.parse(readFileSync(summaryFile, "utf8")).tasks ?? []) {
    const { startTime, endTime } = task.execution ?? {}
    if (typeof startTime !== "number" || typeof endTime !== "number") continue
    durations.set(task.taskId, {
      seconds: (endTime - startTime) / 1000,
      cached: task.cache?.status === "HIT"
    })
  }
}
const durationOf = (name, task) => {
  const d = durations.get(`${name}#${task}`)
  return d === undefined ? "" : d.cached ? `${task} cached` : `${task} ${d.seconds.toFixed(1)} s`
}

let passed = 0
let failed = 0
let skipped = 0
let failures = turboStatus === 0 ? 0 : 1
const count = (report) => {
  const skips = report.numPendingTests + report.numTodoTests
  passed += report.numPassedTests
  failed += report.numFailedTests
  skipped += skips
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: skips }
}

const turboLine = { passed: 0, failed: 0, skipped: 0 }
const missing = []
for (const dir of workspaces) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  if (!pkg.scripts?.test) continue
  if (!existsSync(reportOf(dir))) {
    missing.push(pkg.name)
    continue
  }
  const report = JSON.parse(readFileSync(reportOf(dir), "utf8"))
  for (const [key, n] of Object.entries(count(report))) turboLine[key] += n
  const times = [durationOf(pkg.name, "build"), durationOf(pkg.name, "test")]
    .filter((t) => t !== "")
    .join(", ")
  console.log(
    `${pkg.name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed${times === "" ? "" : ` (${times})`}`
  )
}
for (const name of missing) console.log(`${name}: no test report (its tests did not run)`)
failures += missing.length
console.log(
  `Node ${process.versions.node} (every package, turbo): ${turboLine.passed} passed, ${turboLine.failed} failed, ${turboLine.skipped} skipped (${turboSeconds.toFixed(1)} s)`
)

for (const line of lineResults) {
  const label = `Node ${line.version}`
  const total = { passed: 0, failed: 0, skipped: 0 }
  if (line.addons.status !== 0) {
    failures++
    console.log(
      `${label}: the native addons could not be compiled for it (exit ${line.addons.status}; see the node@${line.version} lines above)`
    )
  }
  for (const p of line.packages) {
    if (p.report === undefined) {
      failures++
      console.log(`${label}: ${p.name}: no test report (its tests did not run; exit ${p.status})`)
      continue
    }
    if (p.status !== 0) failures++
    const n = count(p.report)
    for (const [key, value] of Object.entries(n)) total[key] += value
    const exit = p.status === 0 ? "" : `, exit ${p.status}`
    const files =
      p.files.run < p.files.of
        ? `; ${p.files.run} of its ${p.files.of} test files, the others the machine's Node's only`
        : ""
    console.log(
      `${label}: ${p.name}: ${n.passed} passed, ${n.failed} failed (test ${p.seconds.toFixed(1)} s${exit}${files})`
    )
  }
  for (const p of line.machineOnly)
    console.log(
      `${label}: ${p.name}: not run (each of its test files is the machine's Node's only)`
    )
  for (const p of line.notRun) console.log(`${label}: ${p.name}: not run (engines.node ${p.range})`)
  for (const p of line.inTurbo)
    console.log(
      `${label}: ${p.name}: tested under this Node in the turbo run (its test script runs through scripts/node22.mjs), counted there`
    )
  console.log(
    `${label} (library packages): ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped (its suites done ${((line.endedAt - started) / 1000).toFixed(1)} s into the run; the download and the addons, compiled with Node ${line.headers} headers, ready ${line.addons.seconds.toFixed(1)} s after the start)`
  )
}
console.log(
  `All tasks: ${((Date.now() - started) / 1000).toFixed(1)} s (turbo's builds and tests ${turboSeconds.toFixed(1)} s; the Node ${NODE_LINES.map((l) => l.node).join(" and ")} suites, beside and after them, ended ${((Date.now() - started) / 1000 - turboSeconds).toFixed(1)} s after turbo)`
)
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failures > 0 || failed > 0 ? turboStatus || 1 : 0)
