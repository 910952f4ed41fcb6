// Runs the contract tests against a front with no fault (the control) and with each fault of the
// catalogue, and prints which faults the run caught and the share caught.
import { ContractTests } from "@data-access/contract-tests"
import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import console from "node:console"
import { performance } from "node:perf_hooks"
import process from "node:process"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { catalogue } from "./catalogue.mjs"
import { startFront } from "./front.mjs"
import { fourthControls } from "./fourth.mjs"
import { thirdControls } from "./third.mjs"

/** The faithful control: a front that forwards everything unchanged. */
export const control = { name: "control", must: "none: a faithful front", fault: {} }

/** The controls a run of `batch` (undefined: every batch) runs: each must have no finding. */
export const controlsOf = (batch) => [
  control,
  ...(batch === undefined || batch === 3 ? thirdControls : []),
  ...(batch === undefined || batch === 4 ? fourthControls : [])
]

/**
 * Runs the contract tests once against a fresh reference server behind a front with `fault`, and
 * resolves to the run's report and the front's counts (exchanges, and those the fault changed). `runOptions` are added to the run's options (`operations`...).
 */
export const runOne = (entry, { seed, examples, runOptions = {} }) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({ data: "demo" })
      const front = yield* Effect.acquireRelease(
        Effect.promise(() =>
          startFront({
            target: server.url,
            fault: entry.fault,
            knownIds: server.knownIds,
            apiKeys: server.apiKeys
          })
        ),
        (front) => Effect.promise(() => front.close())
      )
      const report = yield* ContractTests.run({
        baseUrl: front.url,
        apiKey: Redacted.make(server.apiKeys[0]),
        fixtures: server.knownIds,
        seed,
        examples,
        ...runOptions
      })
      return { report, counts: front.counts }
    }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))
  )

/** The distinct rules of a report's findings. */
export const rulesOf = (report) =>
  [...new Set(report.findings.map((finding) => finding.rule))].sort()

const main = async () => {
  const { values } = parseArgs({
    options: {
      seed: { type: "string", default: "1" },
      examples: { type: "string", default: "20" },
      only: { type: "string", multiple: true },
      batch: { type: "string" },
      "skip-controls": { type: "boolean", default: false }
    }
  })
  const seed = Number(values.seed)
  const examples = Number(values.examples)
  const only = values.only?.flatMap((names) => names.split(",")).filter((name) => name !== "")
  const unknown = (only ?? []).filter((name) => !catalogue.some((entry) => entry.name === name))
  if (unknown.length > 0) {
    console.error(`unknown faults: ${unknown.join(", ")}`)
    process.exitCode = 2
    return
  }
  const batch = values.batch === undefined ? undefined : Number(values.batch)
  const faults = catalogue.filter(
    (entry) =>
      (only === undefined || only.includes(entry.name)) &&
      (batch === undefined || entry.batch === batch)
  )
  console.log(
    `seed ${seed}, --examples ${examples}${batch === undefined ? "" : `, batch ${batch}`}, ${faults.length} faults`
  )
  const started = performance.now()
  for (const entry of values["skip-controls"] ? [] : controlsOf(batch)) {
    const { report } = await runOne(entry, { seed, examples })
    if (report.findings.length === 0) {
      console.log(`${entry.name}: 0 findings (${report.requests} requests)`)
    } else {
      console.log(
        `${entry.name}: ${report.findings.length} findings (false alarms or a front bug):`
      )
      for (const finding of report.findings) {
        console.log(`  ${finding.rule} ${finding.operation}: ${finding.message}`)
      }
    }
  }
  let caught = 0
  for (const entry of faults) {
    const outcome = await runOne(entry, { seed, examples }).catch((error) => ({ error }))
    if (outcome.error !== undefined) {
      console.log(`${entry.name}: no report (${String(outcome.error?.message ?? outcome.error)})`)
      continue
    }
    const rules = rulesOf(outcome.report)
    if (rules.length > 0) caught += 1
    const verdict = rules.length > 0 ? `caught (${rules.join(", ")})` : "missed"
    console.log(
      `${entry.name}: ${verdict}; the fault changed ${outcome.counts.changed} of ${outcome.counts.exchanges} exchanges`
    )
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0)
  console.log(
    `caught ${caught} of ${faults.length} (${((100 * caught) / Math.max(faults.length, 1)).toFixed(0)} %), ${seconds} s`
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main()
