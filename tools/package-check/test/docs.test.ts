// The generated documentation: docs/checks.md is what the generator makes of `Checks.checks`
// today; the API reference generates for every public module and every export carries @since
// and @category; every `@example` in the JSDoc and every complete TypeScript example of the
// READMEs type-checks against the built packages.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { Checks } from "@data-access/contract-tests"
import { ReferenceServer } from "@data-access/reference-server"
import { ContractRules } from "@data-access/schema"
// @ts-expect-error plain ESM helper without types
import { generate, modules } from "../src/api-doc.mjs"
// @ts-expect-error plain ESM helper without types
import { findingsPath, pagePath, render } from "../src/checks-doc.mjs"
import {
  effectLineOf,
  installCommands,
  packageOf,
  publishable,
  readmeExamples,
  root
} from "../src/workspace.mjs"
import { runCommand } from "../src/command.mjs"

interface Export {
  readonly name: string
  readonly kind: string
  readonly since?: string
  readonly category?: string
  readonly examples: ReadonlyArray<string>
}
interface Module {
  readonly package: string
  readonly module: string
  readonly since?: string
  readonly description: string
  readonly examples: ReadonlyArray<string>
  readonly exports: ReadonlyArray<Export>
}
const all = modules() as ReadonlyArray<Module>

describe("docs/checks.md", () => {
  const findings = JSON.parse(readFileSync(findingsPath, "utf8")) as Record<
    string,
    { violation: string; text: string }
  >

  it("is the page generated from Checks.checks and the violation catalogue (run `pnpm docs:generate` when this fails)", () => {
    const expected = render({
      checks: Checks.checks,
      violations: ReferenceServer.violations,
      findings,
      rules: ContractRules.rules,
      latitude: ContractRules.latitude,
      notes: ContractRules.notes
    })
    expect(readFileSync(pagePath, "utf8")).toBe(expected)
  })

  it("shows every rule under its check, with its source and violation, and every latitude switch", () => {
    const page = readFileSync(pagePath, "utf8")
    for (const r of ContractRules.rules) expect(page).toContain(`| \`${r.id}\` |`)
    for (const l of ContractRules.latitude) expect(page).toContain(`| \`${l.name}\` |`)
  })

  it("lists every check with its severity and a real example finding of that check", () => {
    const page = readFileSync(pagePath, "utf8")
    for (const c of Checks.checks) {
      expect(page).toContain(`## ${c.id}\n`)
      const f = findings[c.id]
      expect(f, c.id).toBeDefined()
      expect(f!.text.startsWith(`[${c.severity}] ${c.id} · `), c.id).toBe(true)
      expect(ReferenceServer.violations.find((v) => v.name === f!.violation)?.check, c.id).toBe(
        c.id
      )
      expect(f!.text).toContain("replay: contract-tests --replay ")
      expect(f!.text).not.toContain("reference-key")
    }
  })
})

describe("API reference", () => {
  it("covers every public module of every published package", () => {
    const out = mkdtempSync(join(tmpdir(), "data-access-api-"))
    try {
      const files = generate(out) as ReadonlyArray<string>
      for (const p of publishable() as ReadonlyArray<{ name: string; dir: string }>) {
        const pages = files.filter((f) => f.startsWith(`${p.name.replace("@data-access/", "")}/`))
        expect(pages.length, p.name).toBeGreaterThan(0)
      }
      expect(files.length).toBe(all.length + 1)
      const retry = readFileSync(join(out, "client/RetryPolicy.md"), "utf8")
      expect(retry).toContain("### defaultPolicy")
      expect(retry).toContain("export declare const defaultPolicy")
    } finally {
      rmSync(out, { recursive: true, force: true })
    }
  })

  it("every module and export has a description or tags: @since, and @category on exports", () => {
    const missing: Array<string> = []
    for (const m of all) {
      if (!m.since) missing.push(`${m.package}/${m.module}: module @since`)
      if (!m.description) missing.push(`${m.package}/${m.module}: module description`)
      for (const e of m.exports) {
        if (e.kind === "re-export") continue
        if (!e.since) missing.push(`${m.package}/${m.module}.${e.name}: @since`)
        if (!e.category) missing.push(`${m.package}/${m.module}.${e.name}: @category`)
      }
    }
    expect(missing).toEqual([])
  })
})

describe("examples type-check against the built packages", () => {
  const here = fileURLToPath(new URL("..", import.meta.url))
  const packages = publishable() as ReadonlyArray<{
    name: string
    dir: string
    pkg: Record<string, any>
  }>
  const lineOf = new Map(packages.map((p) => [p.name, effectLineOf(p.pkg) as 3 | 4]))
  const jsdocOf = (line: 3 | 4) =>
    all
      .filter((m) => (lineOf.get(m.package) ?? 3) === line)
      .flatMap((m) => [
        ...m.examples.map((code, i) => ({
          name: `${m.package}/${m.module} example ${i + 1}`,
          code
        })),
        ...m.exports.flatMap((e) =>
          e.examples.map((code, i) => ({
            name: `${m.package}/${m.module}.${e.name} example ${i + 1}`,
            code
          }))
        )
      ])
  const readmesOf = (line: 3 | 4) =>
    [
      ...(line === 3 ? [join(root, "README.md")] : []),
      ...packages.filter((p) => effectLineOf(p.pkg) === line).map((p) => join(p.dir, "README.md"))
    ]
      .filter((f) => existsSync(f))
      .flatMap((f) =>
        (readmeExamples(f) as ReadonlyArray<string>).map((code, i) => ({
          name: `${relative(root, f)} example ${i + 1}`,
          code
        }))
      )
  // Each line compiles where its own `effect` resolves: the Effect 3 examples here, the Effect 4
  // ones inside packages/testing-effect4 (which depends on the other two Effect 4 packages).
  const effect4Home = packages.find((p) => p.name === "@data-access/testing-effect4")?.dir
  const sets = {
    3: { JSDoc: jsdocOf(3), README: readmesOf(3), home: here },
    4: { JSDoc: jsdocOf(4), README: readmesOf(4), home: effect4Home }
  } as const

  /**
   * One tsc program per line over both of its sets (one start of the compiler and one read of the
   * packages' types, not two): tsc's output cut into its diagnostics, each with the set of the
   * file it is in (`undefined` for one in no file), example files named back to their examples.
   */
  const compiled = new Map<
    3 | 4,
    Promise<{
      status: number | null
      diagnostics: ReadonlyArray<{ set: string | undefined; text: string }>
    }>
  >()
  const compile = (line: 3 | 4) => {
    let done = compiled.get(line)
    if (done === undefined) compiled.set(line, (done = compileLine(line)))
    return done
  }
  const compileLine = async (line: 3 | 4) => {
    const { home, ...bySet } = sets[line]
    const dir = join(home!, ".examples", `effect${line}`)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const files = Object.entries(bySet).flatMap(([set, examples]) =>
      examples.map((e, i) => {
        const file = join(dir, `${set}-example${i}.ts`)
        writeFileSync(file, `// ${e.name}\n${e.code}\nexport {}\n`)
        return file
      })
    )
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: relative(dir, join(root, "tsconfig.base.json")),
        compilerOptions: {
          noEmit: true,
          composite: false,
          incremental: false,
          noUnusedLocals: false,
          noUnusedParameters: false,
          declaration: false,
          declarationMap: false
        },
        files: files.map((f) => relative(dir, f))
      })
    )
    const tsc = await runCommand(
      join(here, "node_modules/.bin/tsc"),
      ["-p", join(dir, "tsconfig.json")],
      { encoding: "utf8" }
    )
    rmSync(join(home!, ".examples"), { recursive: true, force: true })
    // A diagnostic starts at an unindented line; the indented lines after it continue it.
    const blocks: Array<Array<string>> = []
    for (const text of tsc.stdout.split("\n")) {
      if (text.startsWith(" ") && blocks.length > 0) blocks.at(-1)!.push(text)
      else if (text.trim() !== "") blocks.push([text])
    }
    const diagnostics = blocks.map((block) => {
      const named = /^\S*?\b(JSDoc|README)-example\d+\.ts\(/.exec(block[0]!)
      const text = block
        .join("\n")
        .replace(
          /(JSDoc|README)-example(\d+)\.ts/g,
          (_m, set: "JSDoc" | "README", i) => bySet[set][Number(i)]!.name
        )
      return { set: named?.[1], text }
    })
    return { status: tsc.status, diagnostics }
  }

  it.each([
    ["JSDoc @example blocks (Effect 3)", 3, "JSDoc"],
    ["README examples (Effect 3)", 3, "README"],
    ["JSDoc @example blocks (Effect 4)", 4, "JSDoc"],
    ["README examples (Effect 4)", 4, "README"]
  ] as const)("%s", async (_, line, set) => {
    expect(sets[line][set].length).toBeGreaterThan(0)
    expect(sets[line].home).toBeDefined()
    const { status, diagnostics } = await compile(line)
    // This set's errors, and any in no file (the compiler's own: a bad option, a missing file).
    const errors = diagnostics
      .filter((d) => d.set === set || d.set === undefined)
      .map((d) => d.text)
    expect(errors).toEqual([])
    // tsc fails only with a diagnostic, which is some set's: this one's is above.
    if (diagnostics.length === 0) expect(status).toBe(0)
  })
})

describe("READMEs", () => {
  const packages = publishable() as ReadonlyArray<{
    name: string
    dir: string
    pkg: Record<string, any>
  }>
  const ours = new Set(packages.map((p) => p.name))

  it.each(packages.map((p) => [p.name, p] as const))(
    "%s: an npm and a pnpm install line add the package with every required peer dependency, in a range of the peer's; every other package named carries a range; the Effect line is named (both, for a package of neither)",
    (name, p) => {
      const file = join(p.dir, "README.md")
      const commands = installCommands(file) as ReadonlyArray<{
        manager: "npm" | "pnpm"
        words: ReadonlyArray<string>
      }>
      const optional = new Set(
        Object.keys(p.pkg.peerDependenciesMeta ?? {}).filter(
          (peer) => p.pkg.peerDependenciesMeta[peer].optional === true
        )
      )
      for (const manager of ["npm", "pnpm"] as const) {
        const words = commands.filter((c) => c.manager === manager).flatMap((c) => c.words.slice(2))
        expect(words, `no "${manager}" line adding ${name}`).toContain(name)
        const named = new Map(
          words.flatMap((w) =>
            packageOf(w) === undefined
              ? []
              : [[packageOf(w) as string, w.slice((packageOf(w) as string).length + 1)] as const]
          )
        )
        for (const [peer, peerRange] of Object.entries<string>(p.pkg.peerDependencies ?? {})) {
          if (optional.has(peer)) continue
          const range = named.get(peer)
          expect(range, `${manager}: ${peer}`).toBeDefined()
          // "^3.22" names the line of the peer range "^3.22.4" (it installs the newest 3.x)
          expect(
            peerRange === range || peerRange.startsWith(`${range}.`),
            `${manager}: ${peer}@${range} against the peer range ${peerRange}`
          ).toBe(true)
        }
        for (const [dep, range] of named)
          if (!ours.has(dep))
            expect(range, `${manager}: ${dep} without a range installs its latest`).not.toBe("")
        // An example that imports a test library comes with its install, in the line we test with.
        for (const lib of ["@effect/vitest", "vitest"]) {
          const imported = (readmeExamples(file) as ReadonlyArray<string>).some((code) =>
            code.includes(`from "${lib}"`)
          )
          const ours = p.pkg.devDependencies?.[lib] as string | undefined
          if (!imported || ours === undefined) continue
          const range = named.get(lib)
          expect(range, `${manager}: the examples import ${lib}; no line installs it`).toBeDefined()
          expect(ours.startsWith(range!), `${manager}: ${lib}@${range} against ${ours}`).toBe(true)
        }
      }
      // A package without an `effect` peer (@data-access/core) serves both lines and names both.
      const text = readFileSync(file, "utf8")
      if (p.pkg.peerDependencies?.effect === undefined)
        for (const line of [/Effect 3 line/, /Effect 4 line/]) expect(text).toMatch(line)
      else expect(text).toMatch(effectLineOf(p.pkg) === 4 ? /Effect 4 line/ : /Effect 3 line/)
    }
  )
})
