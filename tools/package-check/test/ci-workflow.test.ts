// docs/ci/contract-tests.yml, the GitHub Actions example: valid YAML, the key only from the secret
// store, every flag it passes exists in the runner's --help, and the JUnit report it writes is
// the one it uploads (also when the tests fail).
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { parse } from "yaml"
// @ts-expect-error plain ESM helper without types
import { root } from "../src/workspace.mjs"

const text = readFileSync(join(root, "docs/ci/contract-tests.yml"), "utf8")
const workflow = parse(text)
const steps: ReadonlyArray<Record<string, any>> = workflow.jobs["contract-tests"].steps
const runStep = steps.find((s) => typeof s.run === "string" && s.run.includes("contract-tests"))!
const binDir = dirname(createRequire(import.meta.url).resolve("@data-access/contract-tests/package.json"))

describe("docs/ci/contract-tests.yml", () => {
  it("runs the published contract-tests command against a URL from the CI's settings", () => {
    expect(runStep).toBeDefined()
    expect(runStep.run).toMatch(/npx --yes "@data-access\/contract-tests@/)
    expect(runStep.run).toMatch(/--base-url "\$BASE_URL"/)
    expect(runStep.env.BASE_URL).toMatch(/^\$\{\{ vars\.\w+ \}\}$/)
  })

  it("takes the API key from the secret store, through the environment only", () => {
    expect(runStep.env.DATA_ACCESS_API_KEY).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/)
    expect(runStep.run).not.toContain("--api-key")
  })

  it("every flag it passes is an option of the runner", () => {
    const help = spawnSync(process.execPath, [join(binDir, "bin/contract-tests.js"), "--help"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
    expect(help.status).toBe(0)
    const flags = [...new Set([...String(runStep.run).matchAll(/(?<![\w-])--([a-z][a-z-]+)/g)].map((m) => m[1]!))].filter((f) => f !== "yes")
    expect(flags.length).toBeGreaterThan(5)
    for (const flag of flags) expect(help.stdout, flag).toContain(`--${flag}`)
  })

  it("uploads the JUnit report it writes, also when the run fails", () => {
    const junit = /--junit (\S+)/.exec(runStep.run)![1]!
    const upload = steps.find((s) => String(s.uses).startsWith("actions/upload-artifact@"))!
    expect(upload.if).toBe("always()")
    expect(junit.startsWith(upload.with.path)).toBe(true)
    const summary = steps.find((s) => s.with?.report_paths)
    expect(summary?.with.report_paths).toBe(junit)
  })
})
