// The tests never block their worker on a child process. A vitest worker whose event loop is
// blocked for a minute (a synchronous `pnpm add` compiling better-sqlite3) misses vitest's 60 s
// RPC deadline ("Timeout calling onTaskUpdate") and the run fails although every test passed.
// So: no test file of any workspace package, nor a module of this package's src that the tests
// import, names one of child_process's synchronous functions (also not under another name);
// they await runCommand (src/command.mjs), which keeps the event loop running (checked below).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs"
import { dirname, extname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { commandOutput, runCommand } from "../src/command.mjs"
import { root, workspaceDirs } from "../src/workspace.mjs"

/** child_process's synchronous functions, spelled so that this file does not name them. */
const SYNC = new Set(["spawn", "exec", "execFile"].map((name) => `${name}Sync`))
const CHILD_PROCESS = new Set(["child_process", "node:child_process"])
const SOURCE = new Set([".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"])
const src = fileURLToPath(new URL("../src/", import.meta.url))

const moduleName = (node: ts.Node | undefined) =>
  node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined
/** `require("x")` or `import("x")` (awaited or not): its module name. */
const loadedModule = (node: ts.Node): string | undefined => {
  if (ts.isAwaitExpression(node) || ts.isParenthesizedExpression(node))
    return loadedModule(node.expression)
  if (!ts.isCallExpression(node)) return undefined
  const callee = node.expression
  const loads =
    callee.kind === ts.SyntaxKind.ImportKeyword ||
    (ts.isIdentifier(callee) && callee.text === "require")
  return loads ? moduleName(node.arguments[0]) : undefined
}

/**
 * Where a source file names a synchronous child_process function: as an identifier (a call, an
 * import, a property `cp.<name>`, a destructured `{ <name>: alias }`, a type), as `cp["<name>"]`,
 * or through a local name it was imported or destructured under. Comments and strings do not
 * count. Also the relative modules the file imports.
 */
const scan = (file: string, text: string) => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const findings: Array<{ line: number; text: string }> = []
  const imports: Array<string> = []
  const aliases = new Set<string>()
  const report = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line
    findings.push({ line: line + 1, text: text.split("\n")[line]!.trim() })
  }
  const collect = (node: ts.Node): void => {
    // import { <sync> as alias } from "child_process"
    if (ts.isImportDeclaration(node)) {
      const from = moduleName(node.moduleSpecifier)
      if (from !== undefined) imports.push(from)
      const named = node.importClause?.namedBindings
      if (from !== undefined && CHILD_PROCESS.has(from) && named && ts.isNamedImports(named))
        for (const el of named.elements)
          if (SYNC.has((el.propertyName ?? el.name).text)) aliases.add(el.name.text)
    }
    if (ts.isExportDeclaration(node)) {
      const from = moduleName(node.moduleSpecifier)
      if (from !== undefined) imports.push(from)
    }
    const loaded = loadedModule(node)
    if (loaded !== undefined && !ts.isAwaitExpression(node) && !ts.isParenthesizedExpression(node))
      imports.push(loaded)
    // const { <sync>: alias } = require("child_process") / await import("child_process") / cp
    if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name))
      for (const el of node.name.elements) {
        const key = el.propertyName ?? el.name
        if (
          (ts.isIdentifier(key) || ts.isStringLiteralLike(key)) &&
          SYNC.has(key.text) &&
          ts.isIdentifier(el.name)
        )
          aliases.add(el.name.text)
      }
    ts.forEachChild(node, collect)
  }
  const check = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && (SYNC.has(node.text) || aliases.has(node.text))) report(node)
    else if (
      ts.isElementAccessExpression(node) &&
      SYNC.has(moduleName(node.argumentExpression) ?? "")
    )
      report(node)
    ts.forEachChild(node, check)
  }
  collect(source)
  check(source)
  const lines = new Set<number>()
  return {
    findings: findings.filter((f) => !lines.has(f.line) && lines.add(f.line)),
    imports: imports.filter((m) => m.startsWith("."))
  }
}

/** The source files under a directory (no node_modules, no build output). */
const sourcesUnder = (dir: string): Array<string> =>
  !existsSync(dir)
    ? []
    : readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name)
        if (entry.isDirectory())
          return ["node_modules", "dist", ".turbo"].includes(entry.name) ? [] : sourcesUnder(path)
        return SOURCE.has(extname(entry.name)) && !entry.name.endsWith(".d.ts") ? [path] : []
      })

/** A relative import as a file: the path itself, or the .ts a `.js` specifier stands for. */
const resolveImport = (from: string, specifier: string) =>
  [specifier, specifier.replace(/\.(m|c)?js$/, ".$1ts")]
    .map((s) => resolve(dirname(from), s))
    .find((path) => existsSync(path) && statSync(path).isFile())

/**
 * The files checked: every workspace package's test directory and vitest config, the examples
 * workspace, and the modules of this package's src that they import (transitively).
 */
const checkedFiles = () => {
  const dirs = workspaceDirs() as ReadonlyArray<string>
  const start = dirs.flatMap((dir) => [
    ...(relative(root, dir) === "examples" ? sourcesUnder(dir) : sourcesUnder(join(dir, "test"))),
    ...readdirSync(dir)
      .filter((f) => /^vitest\.config\.[cm]?[jt]s$/.test(f))
      .map((f) => join(dir, f))
  ])
  const files = new Set<string>(start)
  const queue = [...start]
  const scans = new Map<string, ReturnType<typeof scan>>()
  while (queue.length > 0) {
    const file = queue.shift()!
    const result = scan(file, readFileSync(file, "utf8"))
    scans.set(file, result)
    for (const specifier of result.imports) {
      const target = resolveImport(file, specifier)
      if (target !== undefined && target.startsWith(src) && !files.has(target)) {
        files.add(target)
        queue.push(target)
      }
    }
  }
  return scans
}

describe("no test blocks its worker on a child process", () => {
  const scans = checkedFiles()
  const checked = [...scans.keys()].map((f) => relative(root, f))

  it("the check reads the test files of every workspace package and the src modules the tests import", () => {
    for (const f of [
      "tools/package-check/test/smoke.test.ts",
      "tools/package-check/test/pack.setup.ts",
      "tools/package-check/test/no-blocking.test.ts",
      "tools/package-check/src/workspace.mjs",
      "tools/package-check/src/command.mjs",
      "tools/package-check/src/checks-doc.mjs",
      "tools/package-check/vitest.config.ts"
    ])
      expect(checked).toContain(f)
    for (const dir of [
      "packages/client/test/",
      "packages/reference-server/test/",
      "packages/schema/test/",
      "packages/testing/test/",
      "apps/contract-tests/test/",
      "examples/"
    ])
      expect(
        checked.some((f) => f.startsWith(dir)),
        dir
      ).toBe(true)
    expect(checked.filter((f) => f.includes("node_modules") || f.startsWith("scripts/"))).toEqual(
      []
    )
  })

  it("no synchronous child_process call (spawn, exec or execFile + Sync), under any name", () => {
    const findings = [...scans].flatMap(([file, { findings }]) =>
      findings.map((f) => `${relative(root, file)}:${f.line}: ${f.text}`)
    )
    expect(
      findings,
      "await runCommand or commandOutput from tools/package-check/src/command.mjs instead"
    ).toEqual([])
  })

  it("the check finds them: called, imported under another name, through a namespace, required, destructured", () => {
    const [spawnS, execS, execFileS] = [...SYNC]
    const bad = [
      `import { ${spawnS} } from "node:child_process"`,
      `${spawnS}("git", ["status"])`,
      `import { ${execS} as sh } from "child_process"`,
      `const out = sh("ls")`,
      `import * as cp from "node:child_process"`,
      `cp.${execFileS}("tar", ["tzf", "x.tgz"])`,
      `cp["${spawnS}"]("ls")`,
      `const { ${execFileS}: tar } = require("child_process")`,
      `tar("tzf")`,
      `const { ${spawnS}: run } = await import("node:child_process")`,
      `// a comment naming ${spawnS} is fine, and so is "${execS}" in a string`,
      `spawn("ls"); execFile("ls"); exec("ls")`
    ].join("\n")
    expect(scan("bad.ts", bad).findings.map((f) => f.line)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10])
    expect(scan("bad.mjs", bad).findings.map((f) => f.line)).toEqual([1, 2, 3, 4, 6, 7, 8, 9, 10])
    expect(
      scan(
        "ok.ts",
        `import { spawn } from "node:child_process"\nimport { x } from "./y.mjs"\nexport * from "../z.js"`
      )
    ).toEqual({
      findings: [],
      imports: ["./y.mjs", "../z.js"]
    })
  })
})

describe("runCommand", () => {
  /** How many times a 50 ms interval fires while `work` runs. */
  const ticksDuring = async (work: () => unknown) => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 50)
    const started = Date.now()
    try {
      await work()
    } finally {
      clearInterval(timer)
    }
    return { ticks, ms: Date.now() - started }
  }

  it("keeps the event loop running while it awaits a child: a 50 ms interval ticks through a 2 s child", async () => {
    let result: unknown
    const { ticks, ms } = await ticksDuring(async () => {
      result = await runCommand(process.execPath, ["-e", "setTimeout(() => {}, 2000)"])
    })
    expect(result).toMatchObject({ status: 0, signal: null, timedOut: false })
    expect(ms).toBeGreaterThanOrEqual(1900)
    expect(ticks).toBeGreaterThanOrEqual(20)
  })

  it("(the measure sees a blocked event loop: no tick while the worker waits 2 s synchronously)", async () => {
    const { ticks, ms } = await ticksDuring(() =>
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000)
    )
    expect(ms).toBeGreaterThanOrEqual(1900)
    expect(ticks).toBeLessThanOrEqual(1)
  })

  it("passes cwd, env and input; keeps stdout and stderr (UTF-8 across chunks) and the exit status", async () => {
    const result = await runCommand(
      process.execPath,
      [
        "-e",
        `let input = ""
         process.stdin.on("data", (d) => (input += d)).on("end", () => {
           process.stdout.write(JSON.stringify({ cwd: process.cwd(), input, v: process.env.RUN_COMMAND_TEST }) + "\\n" + "é".repeat(200000))
           process.stderr.write("to stderr")
           process.exitCode = 3
         })`
      ],
      {
        cwd: root,
        env: { ...process.env, RUN_COMMAND_TEST: "yes" },
        input: "naïve input",
        encoding: "utf8"
      }
    )
    expect(result).toMatchObject({ status: 3, signal: null, stderr: "to stderr", timedOut: false })
    const [first, rest] = result.stdout.split("\n")
    expect(JSON.parse(first!)).toEqual({ cwd: resolve(root), input: "naïve input", v: "yes" })
    expect(rest).toBe("é".repeat(200000))
  })

  it("kills a child at its timeout and says so", async () => {
    const started = Date.now()
    const result = await runCommand(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], {
      timeout: 300
    })
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(result).toMatchObject({ status: null, signal: "SIGTERM", timedOut: true })
    expect(result.stderr).toContain("killed after the 300 ms timeout")
  })

  it("reports a command that cannot start; commandOutput rejects with how the command ended and its stderr", async () => {
    const missing = await runCommand("data-access-no-such-command", [])
    expect(missing).toMatchObject({
      status: null,
      signal: null,
      timedOut: false,
      error: expect.objectContaining({ code: "ENOENT" })
    })
    expect(missing.stderr).toContain("data-access-no-such-command could not run")
    await expect(commandOutput(process.execPath, ["-e", "console.log('ok')"])).resolves.toBe("ok\n")
    await expect(
      commandOutput(process.execPath, ["-e", "console.error('broken'); process.exit(2)"])
    ).rejects.toThrow(/exit status 2\nbroken/)
  })
})
