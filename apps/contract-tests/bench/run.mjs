/* global process, console, performance, fetch */
// Benchmark: the default run (100 examples per operation plus the stateful, paging and search
// checks) against the embedded reference server, as `contract-tests` with no flags runs it.
// Prints wall time, requests, requests per second, the ratio to the 3 s goal, the same server's own
// answer rate measured in the same run (a plain request loop, the baseline), and the figures of
// earlier versions for comparison. Then the
// self-proof: every violation of the reference server's catalogue over 5 seeds with the default
// options (caught when a finding names the check of the violation's rule), and the faithful
// server with each latitude switch and with all of them over the same seeds (every finding there
// is a false alarm). Two runs at a time.
//
//   pnpm --filter @data-access/contract-tests bench          (build first)
//   BENCH_RUNS=1 BENCH_EXAMPLES=100 node bench/run.mjs
//   BENCH_PROOF_SEEDS=1 BENCH_PROOF_EXAMPLES=20 node bench/run.mjs   a quicker self-proof
//   BENCH_PROOF_VIOLATIONS=name,name node bench/run.mjs   only these violations (empty: none)
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import { ContractRules } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { Embedded, Report } from "../dist/index.js"

const RUNS = Number(process.env.BENCH_RUNS ?? 2)
const EXAMPLES = Number(process.env.BENCH_EXAMPLES ?? 100)
const GOAL_SECONDS = 3
const CEILING_SECONDS = 15
/** Earlier figures of the default run on the same kind of machine, from BENCHMARKS.md and the issue that set the 3 s goal. */
const EARLIER = [
  { when: "f031932 (BENCHMARKS.md)", wall: 7.9, rps: 719 },
  { when: "da55bc0 (CPU profile of one run)", wall: 11.2, rps: 5646 / 11.2 }
]
const BASELINE_REQUESTS = 4000
const BASELINE_CONCURRENCY = 4

/**
 * The embedded server's own answer rate in this process: a plain loop of reads (GetResource and
 * ListSatellites alternately, `BASELINE_CONCURRENCY` at a time, as many as the runner's suites) with
 * fetch; what the runner's requests per second are compared with.
 */
const serverAlone = () =>
  Effect.runPromise(
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({})
      const headers = { "content-type": "application/json", "connect-protocol-version": "1", "x-api-key": server.apiKeys[0] }
      const calls = [
        [`${server.url}/core.v1.ResourceService/GetResource`, JSON.stringify({ id: server.knownIds.resources[0] })],
        [`${server.url}/core.v1.SatelliteService/ListSatellites`, JSON.stringify({ limit: 10 })]
      ]
      return yield* Effect.promise(async () => {
        let next = 0
        const started = performance.now()
        await Promise.all(Array.from({ length: BASELINE_CONCURRENCY }, async () => {
          while (next < BASELINE_REQUESTS) {
            const [url, body] = calls[next++ % calls.length]
            const res = await fetch(url, { method: "POST", headers, body })
            if (res.status !== 200) throw new Error(`baseline call answered ${res.status}`)
            await res.arrayBuffer()
          }
        }))
        return BASELINE_REQUESTS / ((performance.now() - started) / 1000)
      })
    }).pipe(Effect.scoped)
  )
const PROOF_SEEDS = Array.from({ length: Number(process.env.BENCH_PROOF_SEEDS ?? 5) }, (_, i) => 1 + i)
const PROOF_EXAMPLES = Number(process.env.BENCH_PROOF_EXAMPLES ?? 100)
const PROOF_VIOLATIONS = process.env.BENCH_PROOF_VIOLATIONS?.split(",").filter((name) => name !== "")
const unknown = (PROOF_VIOLATIONS ?? []).filter((name) => !ReferenceServer.violations.some((v) => v.name === name))
if (unknown.length > 0) throw new Error(`BENCH_PROOF_VIOLATIONS: no violation named ${unknown.join(", ")}`)
const proofViolations = ReferenceServer.violations.filter((v) => PROOF_VIOLATIONS === undefined || PROOF_VIOLATIONS.includes(v.name))

const results = []
for (let i = 0; i < RUNS; i++) {
  const seed = 1000 + i
  const started = performance.now()
  const report = await Effect.runPromise(
    Embedded.run({ seed, examples: EXAMPLES }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))
  )
  const wall = (performance.now() - started) / 1000
  const t = Report.totals(report)
  results.push({ seed, wall, requests: report.requests, findings: report.findings.length, examples: t.passed + t.failed })
  console.log(
    `run ${i + 1}/${RUNS} seed ${seed}: ${wall.toFixed(1)} s wall, ${report.requests} requests, ${(report.requests / wall).toFixed(0)} req/s, ` +
      `${t.passed + t.failed} checked examples, ${report.findings.length} findings`
  )
}
const walls = results.map((r) => r.wall).sort((a, b) => a - b)
const median = walls[Math.floor(walls.length / 2)]
const requests = results.reduce((n, r) => n + r.requests, 0) / results.length
const rps = requests / median
await serverAlone() // warm-up
const alone = await serverAlone()
console.log("")
console.log(`default run (${EXAMPLES} examples per operation), embedded reference server, ${RUNS} runs`)
console.log(`  median wall time   ${median.toFixed(1)} s   (goal ${GOAL_SECONDS} s, ratio ${(median / GOAL_SECONDS).toFixed(2)} of the goal; ceiling ${CEILING_SECONDS} s)`)
console.log(`  requests per run   ${requests.toFixed(0)}`)
console.log(`  requests / second  ${rps.toFixed(0)}   (ratio ${(rps / alone).toFixed(2)} of the server alone)`)
console.log(`  server alone, req/s   ${alone.toFixed(0)}   (baseline: ${BASELINE_REQUESTS} reads, ${BASELINE_CONCURRENCY} at a time, same process, same run)`)
for (const e of EARLIER) {
  console.log(`  earlier at ${e.when}   ${e.wall.toFixed(1)} s, ${e.rps.toFixed(0)} req/s   (ratio ${(median / e.wall).toFixed(2)} of its wall time, not measured in this run)`)
}
if (results.some((r) => r.findings > 0)) console.log("  WARNING: findings against the faithful server")

// Self-proof: recall over the violations, false alarms over the latitude variants.
const runOnce = (options) =>
  Effect.runPromise(Embedded.run({ examples: PROOF_EXAMPLES, ...options }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici)))
const pool = async (jobs, width = 2) => {
  const results = new Array(jobs.length)
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++
      results[i] = await jobs[i]()
    }
  }))
  return results
}
const proofStarted = performance.now()
const violationJobs = proofViolations.flatMap((v) =>
  PROOF_SEEDS.map((seed) => async () => {
    const check = ContractRules.get(v.rule).check
    const report = await runOnce({ seed, server: { faults: { rules: [{ fault: { _tag: "Violation", name: v.name } }] } } })
    return { name: v.name, seed, caught: report.findings.some((f) => f.check === check), exact: report.findings.some((f) => f.rule === v.rule) }
  })
)
const caught = await pool(violationJobs)
const missed = caught.filter((c) => !c.caught)
const variants = [...ContractRules.latitude.map((l) => [l.name]), "all"]
const latitudeJobs = variants.flatMap((latitude) => PROOF_SEEDS.map((seed) => async () => {
  const report = await runOnce({ seed, server: { latitude } })
  return { latitude, seed, findings: report.findings }
}))
const faithful = await pool([...PROOF_SEEDS.map((seed) => async () => ({ latitude: "none", seed, findings: (await runOnce({ seed })).findings })), ...latitudeJobs])
const falseAlarms = faithful.flatMap((r) => r.findings.map((f) => ({ ...r, f })))
console.log("")
console.log(`self-proof: ${PROOF_SEEDS.length} seeds, ${PROOF_EXAMPLES} examples, ${((performance.now() - proofStarted) / 1000).toFixed(0)} s`)
console.log(`  violations caught   ${caught.length - missed.length}/${caught.length}   (${caught.length === 0 ? "-" : ((100 * (caught.length - missed.length)) / caught.length).toFixed(1)}%, ${proofViolations.length} violations x ${PROOF_SEEDS.length} seeds)`)
console.log(`  named by their rule   ${caught.filter((c) => c.exact).length}/${caught.length}`)
console.log(`  findings on the latitude variants   ${falseAlarms.length}   (${faithful.length} runs: no switch, ${ContractRules.latitude.length} switches alone, all)`)
for (const m of missed) console.log(`  MISSED: ${m.name} seed ${m.seed}`)
for (const a of falseAlarms) console.log(`  FALSE ALARM: latitude ${a.latitude} seed ${a.seed}: ${Report.findingText(a.f).replaceAll("\n", "\n    ")}`)
