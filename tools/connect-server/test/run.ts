// One run of the contract runner against a fresh Connect-stack server: the faithful proof's case.
import { ContractTests, Report } from "@data-access/contract-tests"
import { ContractRules } from "@data-access/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Server from "../src/server.js"

/** Runs the runner against a fresh server (demo data, its known ids as fixtures) and logs the run's time. */
export const run = (
  seed: number,
  examples: number,
  options: Server.Options = {},
  runOptions: Partial<ContractTests.Options> = {}
) =>
  Effect.gen(function* () {
    const server = yield* Server.make(options)
    const started = performance.now()
    const report = yield* ContractTests.run({
      baseUrl: server.url,
      apiKey: Redacted.make(server.apiKeys[0]!),
      fixtures: server.knownIds,
      seed,
      examples,
      ...runOptions
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const { passed } = Report.totals(report)
    yield* Effect.logInfo(
      `connect server, seed ${seed}, --examples ${examples}: ${seconds} s, ${passed} passed, ${report.findings.length} findings`
    )
    return report
  }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))

/** Every check of the contract's rules. */
const checks = [...new Set(ContractRules.rules.map((r) => r.check))]

/**
 * A test of one run: zero findings (each printed in full: a bug of the server or a false alarm
 * of the runner), and every check exercised.
 */
export const zeroFindings = (
  seed: number,
  examples: number,
  timeoutSeconds: number,
  variant?: { readonly name: string; readonly options: Server.Options }
) =>
  it.live(
    `${variant === undefined ? "" : `${variant.name}, `}seed ${seed}, --examples ${examples}: zero findings`,
    () =>
      Effect.gen(function* () {
        const report = yield* run(seed, examples, variant?.options)
        expect(report.findings.map(Report.findingText)).toEqual([])
        // Every check ran against this server, none skipped.
        expect(Report.totals(report).skipped).toBe(0)
        const exercised = new Set(report.cells.filter((c) => c.passed > 0).map((c) => c.check))
        expect(checks.filter((c) => !exercised.has(c))).toEqual([])
      }),
    timeoutSeconds * 1000
  )
