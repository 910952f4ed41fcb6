/* global process, console, performance */
// Benchmark: the default run (100 examples per operation plus the stateful, paging and search
// checks) against the embedded reference server, as `contract-tests` with no flags runs it.
// Prints wall time, requests, requests per second and the ratio to the 60 s goal.
//
//   pnpm --filter @data-access/contract-tests bench          (build first)
//   BENCH_RUNS=1 BENCH_EXAMPLES=100 node bench/run.mjs
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Effect from "effect/Effect"
import { Embedded, Report } from "../dist/index.js"

const RUNS = Number(process.env.BENCH_RUNS ?? 2)
const EXAMPLES = Number(process.env.BENCH_EXAMPLES ?? 100)
const GOAL_SECONDS = 60

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
console.log("")
console.log(`default run (${EXAMPLES} examples per operation), embedded reference server, ${RUNS} runs`)
console.log(`  median wall time   ${median.toFixed(1)} s   (goal ${GOAL_SECONDS} s, ratio ${(median / GOAL_SECONDS).toFixed(2)} of the goal)`)
console.log(`  requests per run   ${requests.toFixed(0)}`)
console.log(`  requests / second  ${(requests / median).toFixed(0)}`)
if (results.some((r) => r.findings > 0)) console.log("  WARNING: findings against the faithful server")
