// One run of the contract runner against a fresh Connect-stack server, directly or through the
// conformance proxy: the faithful proof's case.
import { ContractTests, Proxy, Report } from "@data-access/contract-tests"
import { ContractRules } from "@data-access/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Server from "../src/server.js"

/**
 * Runs the runner against a fresh server (demo data, its known ids as fixtures), through a
 * conformance proxy in front of it when `throughProxy`, and logs the run's time; returns the
 * runner's report and the proxy's.
 */
const runAgainst = (
  seed: number,
  examples: number,
  options: Server.Options,
  runOptions: Partial<ContractTests.Options>,
  throughProxy: boolean
) =>
  Effect.gen(function* () {
    const server = yield* Server.make(options)
    const proxy = throughProxy ? yield* Proxy.start({ target: server.url }) : undefined
    const started = performance.now()
    const report = yield* ContractTests.run({
      baseUrl: proxy?.url ?? server.url,
      apiKey: Redacted.make(server.apiKeys[0]!),
      fixtures: server.knownIds,
      seed,
      examples,
      ...runOptions
    })
    const judged = proxy === undefined ? undefined : yield* proxy.report
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const { passed } = Report.totals(report)
    yield* Effect.logInfo(
      `connect server${throughProxy ? " through the proxy" : ""}, seed ${seed}, --examples ${examples}: ${seconds} s, ${passed} passed, ${report.findings.length} findings`
    )
    return { report, judged }
  }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))

/** Runs the runner against a fresh server (demo data, its known ids as fixtures) and logs the run's time. */
export const run = (
  seed: number,
  examples: number,
  options: Server.Options = {},
  runOptions: Partial<ContractTests.Options> = {}
) => Effect.map(runAgainst(seed, examples, options, runOptions, false), ({ report }) => report)

/** Every check of the contract's rules. */
const checks = [...new Set(ContractRules.rules.map((r) => r.check))]

/**
 * A configuration of the server (its name leads the test's title), and whether the runner
 * reaches it through the conformance proxy.
 */
export interface Target {
  readonly name?: string
  readonly options?: Server.Options
  readonly throughProxy?: boolean
  /**
   * Also every rule judged, but those judged only on a rate limit's answers (the server sends
   * none): the run's example count is enough to reach each rule it covers.
   */
  readonly everyRuleJudged?: boolean
}

/** The rules judged only on the answers of a rate limit, which the server does not apply. */
const RATE_LIMIT_RULES: ReadonlyArray<string> = ["errors.retry-after", "errors.rate-limit-headers"]

/**
 * A test of one run: zero findings (each printed in full: a bug of the server or a false alarm
 * of the runner), and every check exercised (and every rule judged, when the target asks); through the proxy, also no server finding from the
 * proxy, which judged exchanges.
 */
export const zeroFindings = (
  seed: number,
  examples: number,
  timeoutSeconds: number,
  target: Target = {}
) =>
  it.live(
    `${target.name === undefined ? "" : `${target.name}, `}${target.throughProxy === true ? "through the proxy, " : ""}seed ${seed}, --examples ${examples}: zero findings${target.throughProxy === true ? ", and no server finding from the proxy" : ""}`,
    () =>
      Effect.gen(function* () {
        const { judged, report } = yield* runAgainst(
          seed,
          examples,
          target.options ?? {},
          {},
          target.throughProxy === true
        )
        expect(report.findings.map(Report.findingText)).toEqual([])
        // Every check ran against this server, none skipped.
        expect(Report.totals(report).skipped).toBe(0)
        const exercised = new Set(report.cells.filter((c) => c.passed > 0).map((c) => c.check))
        expect(checks.filter((c) => !exercised.has(c))).toEqual([])
        if (target.everyRuleJudged === true)
          expect(
            (report.coverage ?? [])
              .filter((c) => c.judged === 0 && !RATE_LIMIT_RULES.includes(c.rule))
              .map((c) => `${c.rule}: ${c.reason}`)
          ).toEqual([])
        if (judged !== undefined) {
          // The runner's invalid requests are client findings; the server's side of each is faithful.
          expect(
            judged.findings.filter((f) => f.side === "server").map(Report.findingText)
          ).toEqual([])
          expect(Report.totals(judged).passed).toBeGreaterThan(0)
        }
      }),
    timeoutSeconds * 1000
  )
