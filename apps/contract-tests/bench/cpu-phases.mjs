/* global console, URL */
// Where a default command-line run's main thread spends its time, by phase: one run of the
// command line as `bench/cpu-per-request.mjs` runs it (`--seed 1 --rate-limit 0 --quiet`, the
// reference server in its own process), from its modules one by one (dist/bin.js, so that each
// sample names its module) under V8's sampling profiler (`--cpu-prof`). Each sample goes to the
// phase of the innermost frame that names one: start-up (module loading), plan, generation (the
// families, fast-check, the generators), send (the target, undici's dispatch, socket writes),
// read/parse (undici's parser, the answer's bytes, text and JSON), judge (the oracles and their
// readings), runner (the suites' loop, slots, limits), record/report, garbage collection; samples
// with no such frame (effect's fiber runtime between them) are "effect runtime / other". Shared
// helpers (effect, the schemas' decoders, context.ts) name no phase: their caller's counts.
//
// The profiler samples wall time on the main thread, not CPU: a socket write that wakes the server
// may lose the core to it (2 cores), and that wait counts as the write's. The background threads
// (V8's optimizing compiler, GC helpers) are not in it.
//
//   node bench/cpu-phases.mjs              (build first)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { commandLineRun, load, startServer } from "./common.mjs"

const KEY = "cpu-bench-key"
const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url))
const dir = mkdtempSync(join(tmpdir(), "cpu-phases-"))
const idsFile = join(dir, "ids.json")
const profDir = join(dir, "prof")

/** The phase a frame names, or `undefined` for one that names none (its caller's phase counts). */
const phaseOf = ({ url, functionName: f }) => {
  if (url === "") {
    if (f === "(garbage collector)") return "garbage collection"
    if (f === "(idle)") return "idle"
    if (f === "(program)") return "V8 (program)"
    if (f === "writev" || f === "writeBuffer" || /^write\w+String$/.test(f)) return "send"
    return undefined
  }
  if (url.startsWith("node:internal/modules") || url.startsWith("node:internal/vm"))
    return "start-up"
  const own = /\/contract-tests\/dist\/(.*)$/.exec(url)?.[1]
  if (own !== undefined) {
    if (/^internal\/(oracles|judge)\//.test(own)) return "judge"
    if (
      /^internal\/(inspect|answerReading|refusalVerdict|filterReadings|exchangeOracle|outcome|customChecks)\.js/.test(
        own
      )
    )
      return "judge"
    if (/^internal\/(answerBody|decodedBodies)\.js/.test(own)) return "read/parse"
    if (own === "internal/http.js")
      return /^(onHeaders|onData|onComplete|answerBytes|answerHeaders)$/.test(f)
        ? "read/parse"
        : "send"
    if (/^internal\/(requestHooks|resend|keys)\.js/.test(own)) return "send"
    if (/^internal\/runner\/(plan|discovery|options|dryRun)\.js/.test(own)) return "plan"
    if (/^internal\/runner\//.test(own)) return "runner"
    if (/^internal\/(report|recording|har|findings|baseline|curl)/.test(own) || /^cli\//.test(own))
      return "record/report"
    if (
      /^internal\/(families|mutations|generate|dimensions|numberEdges|textLength|unicodeText|pools|requestShape|nestedCopies|storedValues|listWalk)/.test(
        own
      )
    )
      return "generation"
    return undefined
  }
  if (/\/(fast-check|pure-rand)@/.test(url)) return "generation"
  if (/\/undici@/.test(url))
    return /llhttp|wasm_on|onHeaders|onData|onComplete|onBody|onMessage|execute|readMore|parseHeaders/.test(
      f
    )
      ? "read/parse"
      : "send"
  if (url.startsWith("wasm://")) return "read/parse"
  if (/^node:(net|internal\/(stream_base_commons|streams\/writable|net))/.test(url)) return "send"
  return undefined
}

/** Milliseconds per phase of a `.cpuprofile`, and those of socket writes alone. */
const phases = (profile) => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map()
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
  )
  const out = new Map()
  let writes = 0
  for (const [id, micros] of self) {
    let phase
    for (let at = id; at !== undefined && phase === undefined; at = parent.get(at))
      phase = phaseOf(byId.get(at).callFrame)
    phase ??= "effect runtime / other"
    out.set(phase, (out.get(phase) ?? 0) + micros / 1000)
    if (byId.get(id).callFrame.functionName === "writev") writes += micros / 1000
  }
  return { out, writes }
}

/** Runs the command line once under the profiler: its requests and seconds. */
const profiledRun = (url) =>
  commandLineRun({
    bin,
    url,
    idsFile,
    key: KEY,
    nodeArgs: ["--max-semi-space-size=64", "--cpu-prof", "--cpu-prof-dir", profDir]
  })

const loadBefore = load()
const server = await startServer(KEY, ["--write-ids", idsFile])
try {
  const run = await profiledRun(server.url)
  const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"))
  const { out, writes } = phases(JSON.parse(readFileSync(join(profDir, file), "utf8")))
  out.delete("idle")
  const busy = [...out.values()].reduce((a, b) => a + b, 0)
  console.log(
    `\nthe main thread of one default command-line run by phase (${run.requests} requests in ${run.seconds} s; V8's sampling profiler, wall time of the main thread when not idle: ${(busy / 1000).toFixed(2)} s; load average ${loadBefore} before, ${load()} after)`
  )
  for (const [phase, ms] of [...out].sort((a, b) => b[1] - a[1]))
    console.log(
      `  ${phase}   ${((1000 * ms) / run.requests).toFixed(0)} µs per request (${((100 * ms) / busy).toFixed(1)} %)`
    )
  console.log(
    `  of send: socket writes (writev, a wait for the server's turn on the core included)   ${((1000 * writes) / run.requests).toFixed(0)} µs per request (${((100 * writes) / busy).toFixed(1)} %)`
  )
} finally {
  server.stop()
  rmSync(dir, { recursive: true, force: true })
}
