// Packed-install smoke test: a temporary project in os.tmpdir() (outside the workspace) installs
// the packed tarballs with pnpm (the shared store, --prefer-offline), with effect,
// @effect/platform and @effect/platform-node as its own dependencies at the workspace's versions.
// Then: the app type-checks and runs against the reference server, the tree holds exactly one
// copy of effect, ./internal/* is not importable, and both command lines run from the tarballs.
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"

const here = dirname(fileURLToPath(import.meta.url))
/** The version the workspace resolved for a dependency (the app pins the same). */
const workspaceVersion = (name: string) => {
  for (const dir of [new URL("../", import.meta.url), new URL("../../../", import.meta.url)]) {
    const manifest = join(fileURLToPath(dir), "node_modules", name, "package.json")
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).version as string
  }
  throw new Error(`${name} is not installed in the workspace`)
}
const tsc = fileURLToPath(new URL("../node_modules/.bin/tsc", import.meta.url))

let app: string
const run = (cmd: string, args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  spawnSync(cmd, args, { cwd: app, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 180_000 })

beforeAll(() => {
  const tarballs = inject("tarballs")
  app = mkdtempSync(join(tmpdir(), "data-access-smoke-"))
  const file = (name: string) => `file:${tarballs[name]}`
  const internal = ["@data-access/schema", "@data-access/client", "@data-access/reference-server", "@data-access/testing", "@data-access/contract-tests"]
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify(
      {
        name: "smoke-app",
        private: true,
        type: "module",
        dependencies: {
          ...Object.fromEntries(internal.map((n) => [n, file(n)])),
          effect: workspaceVersion("effect"),
          "@effect/platform": workspaceVersion("@effect/platform"),
          "@effect/platform-node": workspaceVersion("@effect/platform-node")
        },
        devDependencies: { "@types/node": workspaceVersion("@types/node") },
        pnpm: {
          // the tarballs' own ranges (^0.0.0...) name versions the registry may not have yet
          overrides: Object.fromEntries(internal.map((n) => [n, file(n)])),
          onlyBuiltDependencies: ["better-sqlite3"],
          ignoredBuiltDependencies: ["@parcel/watcher", "msgpackr-extract"]
        }
      },
      null,
      2
    )
  )
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        types: ["node"],
        outDir: "dist"
      },
      files: ["main.ts"]
    })
  )
  copyFileSync(join(here, "fixtures/smoke-app.ts"), join(app, "main.ts"))
  const started = Date.now()
  // the workspace's store, also when the temp directory is on another file system (pnpm would
  // otherwise start an empty store there, download everything and compile better-sqlite3 again)
  const store = spawnSync("pnpm", ["store", "path"], { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" }).stdout.trim()
  const install = run("pnpm", ["install", "--prefer-offline", "--store-dir", store, "--config.confirmModulesPurge=false"])
  expect({ status: install.status, output: install.stdout + install.stderr }).toMatchObject({ status: 0 })
  console.log(`smoke test: pnpm install of the tarballs took ${((Date.now() - started) / 1000).toFixed(1)} s`)
})

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true })
})

it("the app is outside the workspace", () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url))
  expect(realpathSync(app).startsWith(realpathSync(root))).toBe(false)
  expect(realpathSync(realpathSync(join(app, "node_modules/@data-access/client"))).startsWith(realpathSync(root))).toBe(false)
})

it("exactly one copy of effect and of @effect/platform is installed, and every package resolves it", () => {
  const store = readdirSync(join(app, "node_modules/.pnpm"))
  expect(store.filter((d) => /^effect@/.test(d))).toEqual([`effect@${workspaceVersion("effect")}`])
  expect(store.filter((d) => /^@effect\+platform@/.test(d))).toHaveLength(1)
  const appEffect = realpathSync(createRequire(join(app, "package.json")).resolve("effect"))
  for (const name of ["schema", "client", "reference-server", "testing", "contract-tests"]) {
    const pkgDir = realpathSync(join(app, "node_modules/@data-access", name))
    expect(realpathSync(createRequire(join(pkgDir, "package.json")).resolve("effect")), name).toBe(appEffect)
  }
  const listed = run("pnpm", ["list", "effect", "--depth", "Infinity", "--json"])
  expect(listed.status).toBe(0)
  // every place effect appears in the dependency tree, at any depth: one version, one path
  const seen = new Set<string>()
  const walk = (deps: Record<string, any> | undefined): void => {
    for (const [name, node] of Object.entries(deps ?? {})) {
      if (name === "effect") seen.add(`${node.version} ${node.path}`)
      walk(node.dependencies)
    }
  }
  for (const project of JSON.parse(listed.stdout)) walk({ ...project.dependencies, ...project.devDependencies })
  expect([...seen]).toEqual([`${workspaceVersion("effect")} ${join(realpathSync(app), "node_modules/.pnpm", `effect@${workspaceVersion("effect")}`, "node_modules/effect")}`])
})

it("the app type-checks against the packed types and runs against the reference server", () => {
  const compiled = run(tsc, ["-p", "tsconfig.json"])
  expect({ status: compiled.status, output: compiled.stdout + compiled.stderr }).toMatchObject({ status: 0 })
  const ran = run(process.execPath, ["dist/main.js"])
  expect({ status: ran.status, stderr: ran.stderr }).toMatchObject({ status: 0 })
  const result = JSON.parse(ran.stdout.trim().split("\n").at(-1)!)
  const expected = { firstPage: 5, all: 230, missing: "not_found 404" }
  expect(result).toEqual({
    overHttp: expected,
    inProcess: expected,
    sameEffect: { code: "not_found", timestamp: "2025-01-01T01:00:00.500Z" },
    operations: 22,
    checks: 15
  })
})

it("./internal/* modules are not importable; the public modules and openapi.json are", () => {
  const probe = run(process.execPath, [
    "--input-type=module",
    "-e",
    `const r = await Promise.allSettled([import("@data-access/client/internal/decode.js"), import("@data-access/client/internal/decode"), import("@data-access/reference-server/bin"), import("@data-access/schema/Timestamp"), import("@data-access/client/RetryPolicy"), import("@data-access/schema/openapi.json", { with: { type: "json" } })]);
     console.log(JSON.stringify(r.map((x) => x.status === "rejected" ? x.reason.code : "ok")))`
  ])
  expect(probe.stderr).toBe("")
  expect(JSON.parse(probe.stdout)).toEqual(["ERR_PACKAGE_PATH_NOT_EXPORTED", "ERR_PACKAGE_PATH_NOT_EXPORTED", "ERR_PACKAGE_PATH_NOT_EXPORTED", "ok", "ok", "ok"])
})

describe("the command lines from the tarballs", () => {
  it("contract-tests --help (pnpm exec and npx) and data-access-reference-server --help", () => {
    const ct = run("pnpm", ["exec", "contract-tests", "--help"])
    expect({ status: ct.status, stderr: ct.stderr }).toMatchObject({ status: 0 })
    expect(ct.stdout).toContain("--base-url")
    const npx = run("npx", ["--no", "--", "contract-tests", "--help"])
    expect({ status: npx.status, stderr: npx.stderr }).toMatchObject({ status: 0 })
    expect(npx.stdout).toContain("--examples")
    const rs = run("pnpm", ["exec", "data-access-reference-server", "--help"])
    expect({ status: rs.status, stderr: rs.stderr }).toMatchObject({ status: 0 })
    expect(rs.stdout).toContain("--port")
  })

  it("contract-tests --examples 5 against the embedded reference server passes", () => {
    const ct = run("pnpm", ["exec", "contract-tests", "--examples", "5", "--quiet", "--seed", "1"])
    expect({ status: ct.status, stdout: ct.stdout.slice(-2000), stderr: ct.stderr }).toMatchObject({ status: 0 })
    expect(ct.stdout).toMatch(/PASS: 0 findings/)
  })

  it("the reference server's command line serves, and contract-tests against its URL writes a JUnit report", async () => {
    const server = spawn(join(app, "node_modules/.bin/data-access-reference-server"), ["--port", "0", "--api-key", "smoke-key", "--quiet"], {
      cwd: app,
      stdio: ["ignore", "pipe", "inherit"]
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("the reference server printed no URL in 30 s")), 30_000)
        server.on("exit", (code) => reject(new Error(`the reference server exited with ${code}`)))
        createInterface({ input: server.stdout! }).on("line", (line) => {
          const m = /listening on (http:\/\/\S+)/.exec(line)
          if (m) {
            clearTimeout(timer)
            resolve(m[1]!)
          }
        })
      })
      const ct = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn("pnpm", ["exec", "contract-tests", "--base-url", url, "--examples", "3", "--rate-limit", "0", "--quiet", "--seed", "2", "--junit", "junit.xml"], {
          cwd: app,
          env: { ...process.env, NO_COLOR: "1", DATA_ACCESS_API_KEY: "smoke-key" }
        })
        let stdout = ""
        child.stdout.on("data", (d) => (stdout += d))
        child.on("exit", (status) => resolve({ status, stdout }))
      })
      expect({ status: ct.status, stdout: ct.stdout.slice(-2000) }).toMatchObject({ status: 0 })
      expect(ct.stdout).toContain(url)
      expect(ct.stdout).not.toContain("smoke-key")
      const junit = readFileSync(join(app, "junit.xml"), "utf8")
      expect(junit).toMatch(/<testsuites[^>]*failures="0"/)
      expect(junit).not.toContain("smoke-key")
    } finally {
      server.kill("SIGTERM")
    }
    const code = await new Promise<number | null>((resolve) => (server.exitCode !== null ? resolve(server.exitCode) : server.on("exit", resolve)))
    expect(code).toBe(0)
  })
})

it("the tarballs carry no workspace: range (pnpm pack rewrote them)", () => {
  for (const name of ["client", "testing", "contract-tests", "reference-server"]) {
    const manifest = readFileSync(join(app, "node_modules/@data-access", name, "package.json"), "utf8")
    expect(manifest).not.toContain("workspace:")
  }
})
