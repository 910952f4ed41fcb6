// docs/ci/contract-tests.yml, the GitHub Actions example: valid YAML, the key only from the secret
// store, every flag it passes exists in the runner's --help, and the JUnit report it writes is
// the one it uploads (also when the tests fail).
import { readFileSync, readdirSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { parse } from "yaml"
import { root } from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"

const text = readFileSync(join(root, "docs/ci/contract-tests.yml"), "utf8")
const workflow = parse(text)
const steps: ReadonlyArray<Record<string, any>> = workflow.jobs["contract-tests"].steps
const runStep = steps.find((s) => typeof s.run === "string" && s.run.includes("contract-tests"))!
const binDir = dirname(
  createRequire(import.meta.url).resolve("@data-access/contract-tests/package.json")
)

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

  it("every flag it passes is an option of the runner", async () => {
    const help = await runCommand(
      process.execPath,
      [join(binDir, "bin/contract-tests.js"), "--help"],
      { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } }
    )
    expect(help.status).toBe(0)
    const flags = [
      ...new Set([...String(runStep.run).matchAll(/(?<![\w-])--([a-z][a-z-]+)/g)].map((m) => m[1]!))
    ].filter((f) => f !== "yes")
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

describe("the contract-tests version the workflow installs", () => {
  /** `^x.y.z` as npm reads it: same major, or for 0.x the same minor. */
  const satisfiesCaret = (range: string, version: string) => {
    const [ra, rb, rc] = range.replace(/^\^/, "").split(".").map(Number) as [number, number, number]
    const [a, b, c] = version.split(".").map(Number) as [number, number, number]
    if (a !== ra) return false
    if (ra === 0) return b === rb && (rb !== 0 || c === rc) && c >= rc
    return b > rb || (b === rb && c >= rc)
  }
  const bumps = { patch: 0, minor: 1, major: 2 } as const
  const next = (version: string) => {
    // the version the pending changesets make of it
    const kinds = readdirSync(join(root, ".changeset"))
      .filter((f) => f.endsWith(".md") && f !== "README.md")
      .flatMap((f) =>
        [
          ...readFileSync(join(root, ".changeset", f), "utf8").matchAll(
            /^"@data-access\/contract-tests":\s*(major|minor|patch)/gm
          )
        ].map((m) => m[1] as keyof typeof bumps)
      )
    if (kinds.length === 0) return version
    const kind = kinds.reduce((x, y) => (bumps[x] >= bumps[y] ? x : y))
    const [a, b, c] = version.split(".").map(Number) as [number, number, number]
    return kind === "major"
      ? `${a + 1}.0.0`
      : kind === "minor"
        ? `${a}.${b + 1}.0`
        : `${a}.${b}.${c + 1}`
  }

  it("is satisfied by the version the next release publishes", () => {
    const range = String(workflow.jobs["contract-tests"].env.CONTRACT_TESTS_VERSION)
    expect(range).toMatch(/^\^\d+\.\d+\.\d+$/)
    const version = JSON.parse(readFileSync(join(binDir, "package.json"), "utf8")).version as string
    const candidates = [version, next(version)].filter((v) => v !== "0.0.0")
    expect(
      candidates.some((v) => satisfiesCaret(range, v)),
      `${range} vs ${candidates.join(", ")}`
    ).toBe(true)
  })
})
