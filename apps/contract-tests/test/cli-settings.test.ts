import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { ContractChecks, ContractRules, Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import type * as Report from "../src/Report.js"
import { configJsonSchema } from "../src/cli/settings.js"
import { cli } from "./cliRun.js"
import { run } from "./cliProcess.js"

const packageJson = fileURLToPath(new URL("../package.json", import.meta.url))
const schemaFile = fileURLToPath(new URL("../contract-tests.config.schema.json", import.meta.url))

const tmp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-settings-"))

const reportOf = (file: string) => JSON.parse(Fs.readFileSync(file, "utf8")) as Report.Report
const operationsOf = (report: Report.Report) => [...new Set(report.cells.map((c) => c.operation))]
const checksOf = (report: Report.Report) => [...new Set(report.cells.map((c) => c.check))]

describe("settings from a config file and the environment", () => {
  it.effect(
    "the nearest contract-tests.config.json upward is read, its paths relative to it; the environment wins over it and a flag over both",
    () =>
      Effect.gen(function* () {
        const dir = tmp()
        const sub = Path.join(dir, "a", "b")
        Fs.mkdirSync(sub, { recursive: true })
        Fs.writeFileSync(
          Path.join(dir, "contract-tests.config.json"),
          JSON.stringify({
            $schema: "./contract-tests.config.schema.json",
            examples: 2,
            seed: 3,
            operations: ["ListSatellites", "GetResource"],
            checks: ["paging"],
            json: "reports/run.json",
            quiet: true
          })
        )
        Fs.mkdirSync(Path.join(dir, "reports"))
        // The file alone.
        const fromFile = yield* run([], { cwd: sub })
        expect(fromFile.err).toBe("")
        expect(fromFile.code).toBe(0)
        const first = reportOf(Path.join(dir, "reports", "run.json"))
        expect(first.seed).toBe(3)
        expect(operationsOf(first).sort()).toEqual(["ListSatellites"])
        expect(checksOf(first)).toEqual(["paging"])
        // The environment over the file.
        const fromEnv = yield* run([], {
          cwd: sub,
          env: {
            CONTRACT_TESTS_OPERATIONS: "GetResource,ListSatellites",
            CONTRACT_TESTS_CHECKS: "stable-reads"
          }
        })
        expect(fromEnv.code).toBe(0)
        const second = reportOf(Path.join(dir, "reports", "run.json"))
        expect(checksOf(second)).toEqual(["stable-reads"])
        expect(operationsOf(second)).toContain("GetResource")
        // A flag over both.
        const fromFlag = yield* run(["--checks", "paging", "--seed", "9"], {
          cwd: sub,
          env: { CONTRACT_TESTS_CHECKS: "stable-reads" }
        })
        expect(fromFlag.code).toBe(0)
        const third = reportOf(Path.join(dir, "reports", "run.json"))
        expect(checksOf(third)).toEqual(["paging"])
        expect(third.seed).toBe(9)
      }),
    120_000
  )

  it.effect(
    "--config names the file; an unknown key, a wrong type or a bad environment value stops the run with exit 2 and says what is wrong",
    () =>
      Effect.gen(function* () {
        const dir = tmp()
        const file = Path.join(dir, "staging.json")
        Fs.writeFileSync(file, JSON.stringify({ exampels: 3 }))
        const unknown = yield* cli("--config", file)
        expect(unknown.code).toBe(2)
        expect(unknown.err).toContain(`"exampels" (did you mean "examples"?)`)
        Fs.writeFileSync(file, JSON.stringify({ examples: "many" }))
        const wrongType = yield* cli("--config", file)
        expect(wrongType.code).toBe(2)
        expect(wrongType.err).toMatch(/not valid[\s\S]*examples/)
        Fs.writeFileSync(file, JSON.stringify({ apiKey: "k" }))
        const key = yield* cli("--config", file)
        expect(key.code).toBe(2)
        expect(key.err).toContain("DATA_ACCESS_API_KEY, never in a file")
        Fs.writeFileSync(file, "{ examples: 3 ")
        const notJson = yield* cli("--config", file)
        expect(notJson.code).toBe(2)
        expect(notJson.err).toContain("is not JSON")
        Fs.writeFileSync(file, JSON.stringify({ examples: 3 }))
        const badEnv = yield* Effect.acquireUseRelease(
          Effect.sync(() => (process.env.CONTRACT_TESTS_EXAMPLES = "lots")),
          () => cli("--config", file),
          () => Effect.sync(() => delete process.env.CONTRACT_TESTS_EXAMPLES)
        )
        expect(badEnv.code).toBe(2)
        expect(badEnv.err).toContain("CONTRACT_TESTS_EXAMPLES")
        for (const r of [unknown, wrongType, key, notJson, badEnv])
          expect(r.err).not.toMatch(/\n\s+at /)
      }),
    120_000
  )

  it.effect(
    "a base URL from the environment is tested like the flag's",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: ["settings-key-1234567890"] })
        const dir = tmp()
        Fs.writeFileSync(Path.join(dir, "ids.json"), JSON.stringify(server.knownIds))
        const r = yield* run(
          [
            "--fixtures",
            "ids.json",
            "--examples",
            "2",
            "--operations",
            "GetResource",
            "--json",
            "r.json",
            "--quiet"
          ],
          {
            cwd: dir,
            env: {
              CONTRACT_TESTS_BASE_URL: server.url,
              CONTRACT_TESTS_RATE_LIMIT: "0",
              DATA_ACCESS_API_KEY: "settings-key-1234567890"
            }
          }
        )
        expect(r.err).toBe("")
        expect(r.code).toBe(0)
        expect(reportOf(Path.join(dir, "r.json")).target).toBe(server.url)
      }).pipe(Effect.scoped),
    120_000
  )

  it("the committed JSON Schema of the config file is the one the settings make", () => {
    expect(JSON.parse(Fs.readFileSync(schemaFile, "utf8"))).toEqual(configJsonSchema())
  })
})

describe("the command line's edges", () => {
  it.effect("a misspelt flag is named with the nearest one, exit 2, no stack trace", () =>
    Effect.gen(function* () {
      const r = yield* cli("--exampels", "3")
      expect(r.code).toBe(2)
      expect(r.err).toContain("unknown option --exampels: did you mean --examples?")
      expect(r.err).not.toMatch(/\n\s+at /)
    })
  )

  it.effect("a flag's value that is not a number says what the flag takes, exit 2", () =>
    Effect.gen(function* () {
      const r = yield* cli("--seed", "abc")
      expect(r).toMatchObject({
        code: 2,
        err: "contract-tests: --seed takes a whole number, not 'abc'\n"
      })
    })
  )

  it.effect(
    "--help, piped or under NO_COLOR: no ANSI colour, no line restating a type, every default shown; --version is package.json's",
    () =>
      Effect.gen(function* () {
        const helps = [yield* cli("--help"), yield* run(["--help"], { env: { NO_COLOR: "1" } })]
        for (const help of helps) {
          expect(help.code).toBe(0)
          // eslint-disable-next-line no-control-regex
          expect(help.out).not.toMatch(/\u001b\[/)
          expect(help.out).not.toContain("A user-defined piece of text")
          expect(help.out).not.toContain("An integer.")
          expect(help.out).toContain("(default: 100)")
          expect(help.out).toContain("(default: 10_000)")
          expect(help.out).toContain("CONTRACT_TESTS_BASE_URL")
        }
        const v = yield* cli("--version")
        const pkg = JSON.parse(Fs.readFileSync(packageJson, "utf8")) as { version: string }
        expect(v.out.trim()).toBe(pkg.version)
      })
  )

  it.effect(
    "list prints the checks, the rules, the operations and the violations from their tables",
    () =>
      Effect.gen(function* () {
        const checks = yield* cli("list", "checks")
        expect(checks.code).toBe(0)
        for (const c of ContractChecks.ids) expect(checks.out).toMatch(new RegExp(`^${c}\\s`, "m"))
        const rules = yield* cli("list", "rules", "--json")
        expect((JSON.parse(rules.out) as Array<{ id: string }>).map((r) => r.id)).toEqual(
          ContractRules.rules.map((r) => r.id)
        )
        const operations = yield* cli("list", "operations", "--json")
        expect(
          (JSON.parse(operations.out) as Array<{ method: string }>).map((o) => o.method)
        ).toEqual(Operations.all.map((o) => o.method))
        const violations = yield* cli("list", "violations")
        for (const v of ReferenceServer.violations) expect(violations.out).toContain(v.name)
        const bad = yield* cli("list", "rulez")
        expect(bad.code).toBe(2)
      })
  )

  it.effect(
    "--operations and --checks take globs; a pattern naming nothing stops the run; --fail-on-skip fails a run that skipped",
    () =>
      Effect.gen(function* () {
        const dir = tmp()
        const json = Path.join(dir, "r.json")
        const globbed = yield* cli(
          "--operations",
          "List*s",
          "--exclude-operations",
          "ListPolicy*",
          "--checks",
          "pag*",
          "--examples",
          "2",
          "--quiet",
          "--json",
          json
        )
        expect(globbed.code).toBe(0)
        const report = reportOf(json)
        const listUsers = Operations.all
          .map((o) => o.method)
          .filter((m) => /^List.*s$/.test(m) && !m.startsWith("ListPolicy"))
        expect(listUsers.length).toBeGreaterThan(0)
        expect(operationsOf(report).sort()).toEqual(listUsers.sort())
        expect(checksOf(report)).toEqual(["paging"])
        const none = yield* cli("--operations", "Nothing*", "--quiet")
        expect(none.code).toBe(2)
        expect(none.err).toContain("patterns naming none): Nothing*")
        const readOnly = [
          "--operations",
          "CreateConnector",
          "--read-only",
          "--examples",
          "2",
          "--quiet"
        ]
        const passes = yield* cli(...readOnly)
        expect(passes.code).toBe(0)
        const fails = yield* cli(...readOnly, "--fail-on-skip")
        expect(fails.code).toBe(1)
        expect(fails.err).toMatch(/--fail-on-skip: \d+ examples skipped \(.+\)/)
      }),
    120_000
  )

  it.scoped(
    "--dry-run prints the plan and sends nothing: operations, suites, cases, checks, the least requests and time at the rate limit",
    () =>
      Effect.gen(function* () {
        let received = 0
        const counter = Http.createServer((_req, res) => {
          received++
          res.writeHead(500).end()
        })
        yield* Effect.acquireRelease(
          Effect.async<void>(
            (resume) => void counter.listen(0, "127.0.0.1", () => resume(Effect.void))
          ),
          () => Effect.async<void>((resume) => void counter.close(() => resume(Effect.void)))
        )
        const url = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`
        const server = yield* ReferenceServer.start({})
        const dir = tmp()
        Fs.writeFileSync(Path.join(dir, "ids.json"), JSON.stringify(server.knownIds))
        const r = yield* cli(
          "--dry-run",
          "--base-url",
          url,
          "--api-key",
          "dry-run-key-0192837465",
          "--fixtures",
          Path.join(dir, "ids.json"),
          "--operations",
          "List*",
          "--examples",
          "10"
        )
        expect(r.err).toBe("")
        expect(r.code).toBe(0)
        expect(received).toBe(0)
        expect(r.out).toContain(`the plan against ${url}; nothing was sent`)
        for (const m of Operations.all.filter((o) => o.method.startsWith("List")))
          expect(r.out).toMatch(new RegExp(`^${m.method}\\s+\\d`, "m"))
        expect(r.out).not.toMatch(/^GetResource\s/m)
        const least = /at least ([\d,]+) requests/.exec(r.out)
        expect(Number(least![1]!.replace(/,/g, ""))).toBeGreaterThan(10)
        expect(r.out).toMatch(/at least \d+ min at 20 requests per second/)
        const embedded = yield* cli(
          "--dry-run",
          "--operations",
          "GetResource",
          "--operations",
          "CreateConnector",
          "--operations",
          "UpdateSatellite",
          "--examples",
          "5"
        )
        expect(embedded.code).toBe(0)
        expect(embedded.out).toContain("the plan against the embedded reference server")
        // Each operation lists only the checks of its kind: a create's echo, an update's semantics.
        const checksOf = (method: string) =>
          new RegExp(`^${method}\\s.*$`, "m").exec(embedded.out)![0]
        expect(checksOf("GetResource")).not.toMatch(/create-echo|update-semantics/)
        expect(checksOf("CreateConnector")).toContain("create-echo")
        expect(checksOf("CreateConnector")).not.toContain("update-semantics")
        expect(checksOf("UpdateSatellite")).toContain("update-semantics")
        expect(checksOf("UpdateSatellite")).not.toContain("create-echo")
      }),
    120_000
  )
})
