// docs/ci/contract-tests-sharded.yml run as its jobs run: the four shard steps' scripts under
// `bash -e` at once against one reference server that breaks a rule, their reports gathered as
// the download step gathers them, then the merge step's script. Only what GitHub provides is
// stood in for: `npx` of the published package (this workspace's build), the `${{ }}` values,
// and a small run (a few examples of two operations, no rate limit) in place of staging's.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { ReferenceServer } from "@data-access/reference-server"
import { root } from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"

const KEY = "ci-shards-job-key-5647382910"
const workflow = parse(readFileSync(join(root, "docs/ci/contract-tests-sharded.yml"), "utf8"))
const stepOf = (job: string, named: RegExp) =>
  (workflow.jobs[job].steps as ReadonlyArray<Record<string, any>>).find((s) =>
    named.test(String(s.name))
  )!
const shardStep = stepOf("shard", /^Contract tests/)
const mergeStep = stepOf("merge", /^Merge/)
const bin = join(
  dirname(createRequire(import.meta.url).resolve("@data-access/contract-tests/package.json")),
  "bin/contract-tests.js"
)

/** A step's script with GitHub's values put in and `npx` of the package replaced by its build. */
const scriptOf = (step: Record<string, any>, shard?: number) => {
  const script = String(step.run)
    .replace(
      /npx --yes "@data-access\/contract-tests@\$\{CONTRACT_TESTS_VERSION\}"/g,
      `node ${bin}`
    )
    .replace(/\$\{\{ matrix\.shard \}\}/g, String(shard))
    .replace(/--examples \d+/, "--examples 3 --operations GetResource,ListSatellites")
    .replace(/--rate-limit \d+/, "--rate-limit 0")
  expect(script).not.toMatch(/npx|\$\{\{/)
  return script
}

describe("docs/ci/contract-tests-sharded.yml, run as its jobs run", () => {
  const scope = Effect.runSync(Scope.make())
  let url: string
  beforeAll(async () => {
    const server = await Effect.runPromise(
      ReferenceServer.start({
        apiKeys: [KEY],
        faults: { rules: [{ fault: { _tag: "Violation", name: "limit-off-by-one" } }] }
      }).pipe(Scope.extend(scope))
    )
    url = server.url
  })
  afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

  it("is four shards of one seed and a merge job after them, which runs even when a shard fails", () => {
    expect(workflow.jobs.shard.strategy.matrix.shard).toEqual([1, 2, 3, 4])
    expect(workflow.jobs.shard.strategy["fail-fast"]).toBe(false)
    expect(String(shardStep.run)).toContain('--shard "${{ matrix.shard }}/4"')
    expect(String(shardStep.run)).toContain('--seed "$SEED"')
    expect(workflow.env.SEED).toBeDefined()
    expect(workflow.jobs.merge.needs).toBe("shard")
    expect(workflow.jobs.merge.if).toBe("always()")
    expect(shardStep.env.DATA_ACCESS_API_KEY).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/)
    expect(String(shardStep.run)).not.toContain("--api-key")
  })

  it("the shards pass their findings on, the merge fails the run with them in its reports, and no key in them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "contract-shards-job-"))
    const env = {
      ...process.env,
      SEED: "7",
      BASE_URL: url,
      DATA_ACCESS_API_KEY: KEY,
      NO_COLOR: "1",
      CONTRACT_TESTS_VERSION: String(workflow.env.CONTRACT_TESTS_VERSION)
    }
    const shards = await Promise.all(
      [1, 2, 3, 4].map(async (shard) => {
        const cwd = join(dir, `machine-${shard}`)
        mkdirSync(cwd)
        const result = await runCommand("bash", ["-e", "-c", scriptOf(shardStep, shard)], {
          cwd,
          encoding: "utf8",
          timeout: 600_000,
          env
        })
        return { cwd, shard, result }
      })
    )
    const merged = join(dir, "merge")
    mkdirSync(join(merged, "shards"), { recursive: true })
    for (const { cwd, shard, result } of shards) {
      expect({ shard, status: result.status, stderr: result.stderr.slice(-2000) }).toMatchObject({
        status: 0
      })
      // what the download step with merge-multiple puts together
      copyFileSync(
        join(cwd, "reports", `shard-${shard}.json`),
        join(merged, "shards", `shard-${shard}.json`)
      )
    }
    const result = await runCommand("bash", ["-e", "-c", scriptOf(mergeStep)], {
      cwd: merged,
      encoding: "utf8",
      timeout: 600_000,
      env
    })
    expect(result.status, result.stderr).toBe(1)
    expect(result.stdout).toMatch(/note: merged from 4 shards/)
    for (const f of ["contract-tests.xml", "contract-tests.json", "contract-tests.html"]) {
      expect(existsSync(join(merged, "reports", f)), f).toBe(true)
      expect(readFileSync(join(merged, "reports", f), "utf8"), f).not.toContain(KEY)
    }
    const report = JSON.parse(readFileSync(join(merged, "reports/contract-tests.json"), "utf8"))
    expect(report.mergedFrom).toHaveLength(4)
    expect(report.findings.map((f: { rule: string }) => f.rule)).toContain("lists.limit-accepted")
  }, 600_000)
})
