// Packed-install smoke test, as a new user installs. For pnpm and for npm, an empty project in
// os.tmpdir() (outside the workspace) runs the install lines of every README verbatim (a line two
// READMEs share, once), with only our package names replaced by the packed tarballs. The project holds nothing else but the
// overrides that point our packages' dependencies on each other at the tarballs too (their
// ^0.0.0 ranges name versions the registry does not have), for pnpm the workspace's resolution of
// better-sqlite3's dependencies (pnpm's store keys its build by them), and an .npmrc that makes
// the install prefer the shared npm cache / pnpm store. @data-access/testing's lines run first,
// in the empty project; then the others. Then: no native module in the tree, the READMEs' first examples run
// (the client's five lines against the reference server's command line, the test layer's as a
// test), an app over every package type-checks and runs, one copy of effect, ./internal/* closed,
// the command lines, a SQLite store without @effect/sql-sqlite-node (a StartError naming it) and
// with it (the reference server README's SQLite line: installed with pnpm, whose store reuses the
// workspace's build of better-sqlite3; resolved with --dry-run by npm, whose build would compile
// for a minute). Last, the client's line without its ranges (what `effect@latest` gives today)
// meets each package manager's peer-dependency check: npm refuses it, pnpm warns.
import { spawn } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { Checks } from "@data-access/contract-tests"
import { Operations } from "@data-access/schema"
import {
  effectLineOf,
  installCommands,
  packageOf,
  publishable,
  readmeExamples,
  root
} from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"
import {
  copiesIn,
  emptyProject,
  exampleFile,
  type Manager,
  type Package,
  strictOptions,
  tsc,
  userEnv as env
} from "./smoke-project.js"

const here = dirname(fileURLToPath(import.meta.url))
// The Effect 3 line: the Effect 4 packages are installed apart (smoke-effect4.test.ts), as an app
// never holds both lines.
const packages = (publishable() as ReadonlyArray<Package>).filter((p) => effectLineOf(p.pkg) === 3)
const ours = new Set(packages.map((p) => p.name))
const packageNamed = (name: string) => packages.find((p) => p.name === name)!
const readmeOf = (name: string) => join(packageNamed(name).dir, "README.md")
/** The optional peer dependency of the reference server's SQLite store. */
const SQLITE = "@effect/sql-sqlite-node"
interface InstallLine {
  readonly manager: Manager
  /** The whole line, as the README shows it. */
  readonly line: string
  /** The words of its install command. */
  readonly words: ReadonlyArray<string>
}
/** Whether an install line is the reference server's opt-in SQLite line. */
const isSqliteLine = (l: InstallLine) => l.words.some((w) => packageOf(w) === SQLITE)
/** A README's install lines for one package manager. */
const linesOf = (name: string, manager: Manager) =>
  (installCommands(readmeOf(name)) as ReadonlyArray<InstallLine>).filter(
    (c) => c.manager === manager
  )
/** The test layer's README first (its lines in the empty project), then the others. */
const readmeOrder = [
  "@data-access/testing",
  ...packages.map((p) => p.name).filter((n) => n !== "@data-access/testing")
]

const sh = (
  cwd: string,
  cmd: string,
  args: ReadonlyArray<string>,
  extra: Record<string, string> = {}
) =>
  runCommand(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...env, NO_COLOR: "1", ...extra },
    // An install that compiles better-sqlite3 takes a minute on an idle 2-core machine and several
    // on a loaded or slower one: the limit only catches a hang.
    timeout: 900_000
  })
const outputOf = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr

/** Runs an install line verbatim in a shell, with our package names replaced by the tarball paths. */
const installLine = async (
  dir: string,
  line: string,
  tarballs: Record<string, string>,
  extra: ReadonlyArray<string> = []
) => {
  const started = Date.now()
  const result = await sh(dir, "sh", [
    "-c",
    [line.replace(/\S+/g, (w) => tarballs[w] ?? w), ...extra].join(" ")
  ])
  return {
    line,
    status: result.status,
    output: outputOf(result),
    seconds: (Date.now() - started) / 1000
  }
}

/** What of a native build the tree holds: better-sqlite3 anywhere, any compiled build/Release. */
const nativeIn = (dir: string) => {
  const { builds, copies } = copiesIn(dir)
  return { betterSqlite3: copies.get("better-sqlite3") ?? [], builds }
}

/** Starts the packed reference server's command line; resolves once it prints its URL. */
const startServer = async (dir: string, args: ReadonlyArray<string>) => {
  const server = spawn(
    join(dir, "node_modules/.bin/data-access-reference-server"),
    ["--port", "0", ...args],
    {
      cwd: dir,
      env,
      stdio: ["ignore", "pipe", "inherit"]
    }
  )
  const lines: Array<string> = []
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error("the reference server printed no URL in 30 s")),
      30_000
    )
    server.on("exit", (code) => reject(new Error(`the reference server exited with ${code}`)))
    createInterface({ input: server.stdout! }).on("line", (line) => {
      lines.push(line)
      const m = /listening on (http:\/\/\S+)/.exec(line)
      if (m) {
        clearTimeout(timer)
        resolve(m[1]!)
      }
    })
  })
  const stop = () => {
    server.kill("SIGTERM")
    return new Promise<number | null>((resolve) =>
      server.exitCode !== null ? resolve(server.exitCode) : server.on("exit", resolve)
    )
  }
  return { url, lines, stop }
}

const firstExample = (name: string) => (readmeExamples(readmeOf(name)) as ReadonlyArray<string>)[0]!
/** The first examples that are programs (run with node); the test layer's is a test (vitest). */
const programs = ["@data-access/schema", "@data-access/client", "@data-access/reference-server"]

describe.each(["pnpm", "npm"] as const)("installed with %s from the README lines", (manager) => {
  let app: string
  let afterTesting: ReturnType<typeof nativeIn>
  let compiled: { status: number | null; output: string }
  const run = (cmd: string, args: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
    sh(app, cmd, args, extra)
  const exec = (bin: string, args: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
    manager === "pnpm"
      ? run("pnpm", ["exec", bin, ...args], extra)
      : run("npx", ["--no", "--", bin, ...args], extra)

  beforeAll(async () => {
    const tarballs = inject("tarballs")
    app = await emptyProject(manager, tarballs, "smoke-app")
    const installs: Array<Awaited<ReturnType<typeof installLine>>> = []
    for (const name of readmeOrder) {
      for (const l of linesOf(name, manager)) {
        if (isSqliteLine(l)) continue // the opt-in SQLite line: its own test below
        // A line that an earlier README has (the test layer's README repeats the client's) ran
        // in this project already: the same install again would show nothing more.
        if (installs.some((i) => i.line === l.line)) continue
        const done = await installLine(app, l.line, tarballs)
        installs.push(done)
        expect({
          line: done.line,
          status: done.status,
          output: done.output.slice(-3000)
        }).toMatchObject({ status: 0 })
      }
      if (name === "@data-access/testing") afterTesting = nativeIn(app)
    }
    const total = installs.reduce((s, i) => s + i.seconds, 0)
    console.log(
      `smoke test (${manager}): ${installs.length} distinct README install lines took ${total.toFixed(1)} s (${installs.map((i) => i.seconds.toFixed(1)).join(" + ")})`
    )
    // The READMEs' first programs and the app over every package, compiled with a strict tsconfig.
    for (const name of programs) writeFileSync(join(app, exampleFile(name)), firstExample(name))
    copyFileSync(join(here, "fixtures/smoke-app.ts"), join(app, "main.ts"))
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { ...strictOptions, outDir: "dist" },
        files: ["main.ts", ...programs.map(exampleFile)]
      })
    )
    const tscRun = await run(tsc, ["-p", "tsconfig.json"])
    compiled = { status: tscRun.status, output: outputOf(tscRun) }
  })

  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true })
  })

  it("@data-access/testing's README lines in an empty project install no native module: no better-sqlite3, nothing compiled; nor do all the READMEs' lines", () => {
    expect(afterTesting).toEqual({ betterSqlite3: [], builds: [] })
    expect(nativeIn(app)).toEqual({ betterSqlite3: [], builds: [] })
  })

  it("the test layer's README example passes as a test", async () => {
    writeFileSync(join(app, "readme.test.ts"), firstExample("@data-access/testing"))
    const tested = await exec("vitest", ["run", "readme.test.ts"])
    expect({ status: tested.status, output: outputOf(tested).slice(-3000) }).toMatchObject({
      status: 0
    })
    expect(tested.stdout).toMatch(/Tests\s+1 passed/)
  })

  it("the READMEs' first programs and the app over every package type-check against the packed types", () => {
    expect(compiled).toEqual({ status: 0, output: "" })
  })

  it("the client README's five lines read a resource from the packed reference server's command line", async () => {
    const id = /resource_[0-9a-z]{26}/.exec(firstExample("@data-access/client"))![0]
    const resource = {
      id,
      name: "from-the-client-readme",
      technology: "postgres",
      hostname: "db.internal",
      port: 5432,
      createdAt: "2025-01-07T10:00:00Z",
      updatedAt: "2025-01-07T10:00:00Z"
    }
    writeFileSync(join(app, "fixtures.json"), JSON.stringify({ resources: [resource] }))
    const server = await startServer(app, ["--api-key", "smoke-key", "--fixtures", "fixtures.json"])
    try {
      const ran = await run(
        process.execPath,
        [join("dist", exampleFile("@data-access/client").replace(/\.ts$/, ".js"))],
        {
          DATA_ACCESS_BASE_URL: server.url,
          DATA_ACCESS_API_KEY: "smoke-key"
        }
      )
      expect({ status: ran.status, output: outputOf(ran) }).toEqual({ status: 0, output: "" })
    } finally {
      expect(await server.stop()).toBe(0)
    }
    const served = server.lines
      .filter((l) => l.includes('"GetResource"'))
      .map((l) => JSON.parse(l) as { annotations?: Record<string, unknown> })
    expect(served.map((l) => l.annotations?.status)).toEqual([200])
  })

  it("the schema and reference-server READMEs' first programs run", async () => {
    for (const name of ["@data-access/schema", "@data-access/reference-server"]) {
      const ran = await run(process.execPath, [
        join("dist", exampleFile(name).replace(/\.ts$/, ".js"))
      ])
      expect({ name, status: ran.status, output: outputOf(ran) }).toEqual({
        name,
        status: 0,
        output: ""
      })
    }
  })

  it("the app runs against the reference server over a socket and in process", async () => {
    const ran = await run(process.execPath, ["dist/main.js"])
    expect({ status: ran.status, stderr: ran.stderr }).toMatchObject({ status: 0 })
    const result = JSON.parse(ran.stdout.trim().split("\n").at(-1)!)
    const expected = { firstPage: 5, all: 230, missing: "not_found 404" }
    expect(result).toEqual({
      overHttp: expected,
      inProcess: expected,
      sameEffect: { code: "not_found", timestamp: "2025-01-01T01:00:00.500Z" },
      operations: Operations.all.length,
      checks: Checks.checks.length
    })
  })

  it("the app and every package are outside the workspace", () => {
    expect(realpathSync(app).startsWith(realpathSync(root))).toBe(false)
    for (const p of packages)
      expect(
        realpathSync(join(app, "node_modules", p.name)).startsWith(realpathSync(root)),
        p.name
      ).toBe(false)
  })

  it("exactly one copy of effect and of @effect/platform is installed, and every package resolves it", () => {
    const { copies } = copiesIn(app)
    expect(copies.get("effect")).toHaveLength(1)
    expect(copies.get("@effect/platform")).toHaveLength(1)
    const appEffect = realpathSync(createRequire(join(app, "package.json")).resolve("effect"))
    expect(appEffect.startsWith(realpathSync(join(app, copies.get("effect")![0]!)))).toBe(true)
    for (const p of packages) {
      const pkgDir = realpathSync(join(app, "node_modules", p.name))
      expect(
        realpathSync(createRequire(join(pkgDir, "package.json")).resolve("effect")),
        p.name
      ).toBe(appEffect)
    }
  })

  it("./internal/* modules are not importable; the public modules and openapi.json are", async () => {
    const probe = await run(process.execPath, [
      "--input-type=module",
      "-e",
      `const r = await Promise.allSettled([import("@data-access/client/internal/calls.js"), import("@data-access/client/internal/calls"), import("@data-access/reference-server/bin"), import("@data-access/schema/Timestamp"), import("@data-access/schema/Decode"), import("@data-access/client/RetryPolicy"), import("@data-access/schema/openapi.json", { with: { type: "json" } })]);
       console.log(JSON.stringify(r.map((x) => x.status === "rejected" ? x.reason.code : "ok")))`
    ])
    expect(probe.stderr).toBe("")
    expect(JSON.parse(probe.stdout)).toEqual([
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "ok",
      "ok",
      "ok",
      "ok"
    ])
  })

  it("the tarballs carry no workspace: range (pnpm pack rewrote them)", () => {
    for (const p of packages)
      expect(readFileSync(join(app, "node_modules", p.name, "package.json"), "utf8")).not.toContain(
        "workspace:"
      )
  })

  describe("the command lines from the tarballs", () => {
    it("contract-tests --help and data-access-reference-server --help", async () => {
      const ct = await exec("contract-tests", ["--help"])
      expect({ status: ct.status, stderr: ct.stderr }).toMatchObject({ status: 0 })
      expect(ct.stdout).toContain("--base-url")
      const rs = await exec("data-access-reference-server", ["--help"])
      expect({ status: rs.status, stderr: rs.stderr }).toMatchObject({ status: 0 })
      expect(rs.stdout).toContain("--port")
    })

    // The same packed files with either package manager: these run once, with pnpm.
    if (manager === "pnpm") {
      it("contract-tests --examples 5 against the embedded reference server passes", async () => {
        const ct = await exec("contract-tests", ["--examples", "5", "--quiet", "--seed", "1"])
        expect({
          status: ct.status,
          stdout: ct.stdout.slice(-2000),
          stderr: ct.stderr
        }).toMatchObject({ status: 0 })
        expect(ct.stdout).toMatch(/PASS: 0 findings/)
      })

      it("the reference server's command line serves, and contract-tests against its URL writes a JUnit report", async () => {
        const server = await startServer(app, ["--api-key", "smoke-key", "--quiet"])
        try {
          const ct = await runCommand(
            "pnpm",
            [
              "exec",
              "contract-tests",
              "--base-url",
              server.url,
              // The whole run from the tarball is the test above: two operations show the rest.
              "--operations",
              "GetResource,ListSatellites",
              "--examples",
              "3",
              "--rate-limit",
              "0",
              "--quiet",
              "--seed",
              "2",
              "--junit",
              "junit.xml"
            ],
            {
              cwd: app,
              env: { ...env, NO_COLOR: "1", DATA_ACCESS_API_KEY: "smoke-key" }
            }
          )
          expect({ status: ct.status, stdout: ct.stdout.slice(-2000) }).toMatchObject({ status: 0 })
          expect(ct.stdout).toContain(server.url)
          expect(ct.stdout).not.toContain("smoke-key")
          const junit = readFileSync(join(app, "junit.xml"), "utf8")
          expect(junit).toMatch(/<testsuites[^>]*failures="0"/)
          expect(junit).not.toContain("smoke-key")
        } finally {
          expect(await server.stop()).toBe(0)
        }
      })
    }
  })

  it(`a SQLite store without ${SQLITE}: ReferenceServer.start fails with a StartError naming it, and the command line says what to add`, async () => {
    const started = await run(process.execPath, [
      "--input-type=module",
      "-e",
      `import { ReferenceServer } from "@data-access/reference-server"
       import { Effect } from "effect"
       const e = await Effect.runPromise(ReferenceServer.start({ store: { _tag: "Sqlite", filename: "store.sqlite" } }).pipe(Effect.scoped, Effect.flip))
       console.log(JSON.stringify({ tag: e._tag, reason: e.reason, packageName: e.packageName, message: e.message }))`
    ])
    expect(started.stderr).toBe("")
    expect(JSON.parse(started.stdout)).toEqual({
      tag: "StartError",
      reason: "Store",
      packageName: SQLITE,
      message: expect.stringContaining(`npm install ${SQLITE}@^0.53`)
    })
    const cli = await exec("data-access-reference-server", [
      "--port",
      "0",
      "--store",
      "store.sqlite"
    ])
    expect(cli.status).not.toBe(0)
    expect(outputOf(cli)).toContain(
      `the SQLite store needs ${SQLITE}, which is not installed: add it with \`npm install ${SQLITE}@^0.53\` or \`pnpm add ${SQLITE}@^0.53\``
    )
    expect(existsSync(join(app, "store.sqlite"))).toBe(false)
  })

  // Last: it adds better-sqlite3 to the project.
  it(`the reference-server README's SQLite line: ${manager === "pnpm" ? "installed, a store opens and keeps its data" : "resolves on the registry (--dry-run)"}`, async () => {
    const lines = linesOf("@data-access/reference-server", manager).filter(isSqliteLine)
    expect(lines).toHaveLength(1)
    const tarballs = inject("tarballs")
    if (manager === "npm") {
      const done = await installLine(app, lines[0]!.line, tarballs, ["--dry-run"])
      expect({ status: done.status, output: done.output.slice(-3000) }).toMatchObject({ status: 0 })
      expect(done.output).toMatch(/add better-sqlite3 \d/)
      expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).allowScripts).toEqual({
        "better-sqlite3": true
      })
      return
    }
    const done = await installLine(app, lines[0]!.line, tarballs)
    console.log(`smoke test (pnpm): the SQLite line took ${done.seconds.toFixed(1)} s`)
    expect({ status: done.status, output: done.output.slice(-3000) }).toMatchObject({ status: 0 })
    expect(nativeIn(app).betterSqlite3).not.toEqual([])
    const first = await startServer(app, [
      "--store",
      "store.sqlite",
      "--quiet",
      "--write-ids",
      "ids.json"
    ])
    expect(await first.stop()).toBe(0)
    const ids = JSON.parse(readFileSync(join(app, "ids.json"), "utf8")) as {
      satellites: ReadonlyArray<string>
    }
    expect(ids.satellites.length).toBeGreaterThan(0)
    const second = await startServer(app, [
      "--store",
      "store.sqlite",
      "--quiet",
      "--no-demo",
      "--write-ids",
      "ids-again.json"
    ])
    expect(await second.stop()).toBe(0)
    expect(JSON.parse(readFileSync(join(app, "ids-again.json"), "utf8"))).toEqual(ids)
  }, 1_200_000)
})

describe.each(["pnpm", "npm"] as const)("Effect 4 with %s", (manager) => {
  it("the client's README line without its ranges (effect@latest is Effect 4) meets the peer-dependency check: npm refuses, pnpm warns, naming effect", async () => {
    const tarballs = inject("tarballs")
    // fresh registry metadata: what a user gets today
    const dir = await emptyProject(manager, tarballs, "smoke-app", false)
    try {
      const client = packageNamed("@data-access/client")
      const words = linesOf(client.name, manager)[0]!.words.map((w) =>
        packageOf(w) !== undefined && !ours.has(packageOf(w)!) ? packageOf(w)! : w
      )
      expect(words).toContain("effect")
      const line = words.join(" ")
      const peer = client.pkg.peerDependencies.effect as string
      if (manager === "npm") {
        const done = await installLine(dir, line, tarballs, ["--dry-run"])
        expect(done.status).not.toBe(0)
        expect(done.output).toContain("ERESOLVE")
        expect(done.output).toContain(`peer effect@"${peer}"`)
        return
      }
      // pnpm add never stops on a peer: it warns
      const added = await installLine(dir, line, tarballs, ["--lockfile-only"])
      expect({ status: added.status, output: added.output.slice(-3000) }).toMatchObject({
        status: 0
      })
      expect(added.output).toMatch(
        new RegExp(`✕ unmet peer effect@${peer.replace(/[.^]/g, "\\$&")}: found (?!3\\.)\\d`)
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
