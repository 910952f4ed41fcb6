// The build order turbo runs: a package's build waits for the builds of the workspace packages its
// sources import, and otherwise for its dependencies' only. A devDependency that only its tests
// need (the reference server under the client's tests) is built before its tests run (the `test`
// task's `^build`), not before its build: on a 2-core machine, the chain of builds before the
// contract tests start is the longest wait of `pnpm test`. A package's own turbo.json that names
// its build's dependencies is held to its imports here.
import { readFileSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { commandOutput } from "../src/command.mjs"
import { root, workspaceDirs } from "../src/workspace.mjs"

interface Manifest {
  readonly name: string
  readonly scripts?: Record<string, string>
  readonly dependencies?: Record<string, string>
}

const packages = workspaceDirs().map((dir) => ({
  dir,
  pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest
}))
const built = new Set(packages.filter((p) => p.pkg.scripts?.build).map((p) => p.pkg.name))

/** The TypeScript files a package's build compiles: `src/`, or the package's folder when it has none. */
const sources = (dir: string): ReadonlyArray<string> => {
  const walk = (d: string): ReadonlyArray<string> =>
    readdirSync(d).flatMap((name) => {
      const path = join(d, name)
      if (name === "node_modules" || name === "dist" || name === "test") return []
      if (statSync(path).isDirectory()) return walk(path)
      return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : []
    })
  const src = join(dir, "src")
  return walk(statSync(src, { throwIfNoEntry: false })?.isDirectory() ? src : dir)
}

/** A source without its comments. */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")

/** The other workspace packages with a build that a package's sources import. */
const imported = (dir: string, self: string): ReadonlyArray<string> => {
  const names = new Set<string>()
  for (const file of sources(dir))
    // a statement's `from`: comments (an example's import) left out, no quote between `import` and `from`
    for (const m of withoutComments(readFileSync(file, "utf8")).matchAll(
      /^\s*(?:import|export)\s[^"]*?\bfrom\s*"(@data-access\/[a-z0-9-]+)/gm
    ))
      if (m[1] !== self && built.has(m[1]!)) names.add(m[1]!)
  return [...names].sort()
}

it("each package's build waits for the builds of the packages its sources import, and otherwise of its dependencies only", async () => {
  const dry = JSON.parse(
    await commandOutput(
      join(root, "node_modules", ".bin", "turbo"),
      ["run", "build", "--dry=json"],
      {
        cwd: root,
        encoding: "utf8"
      }
    )
  ) as { tasks: ReadonlyArray<{ package: string; dependencies: ReadonlyArray<string> }> }
  const waits = new Map(
    dry.tasks
      .filter((t) => built.has(t.package))
      .map((t) => [t.package, t.dependencies.map((d) => d.replace(/#build$/, ""))])
  )
  for (const { dir, pkg } of packages.filter((p) => built.has(p.pkg.name))) {
    const waited = (waits.get(pkg.name) ?? []).filter((d) => built.has(d))
    const needed = imported(dir, pkg.name)
    const runtime = Object.keys(pkg.dependencies ?? {})
    expect(
      needed.filter((d) => !waited.includes(d)),
      `${pkg.name}: imported, not waited for`
    ).toEqual([])
    expect(
      waited.filter((d) => !needed.includes(d) && !runtime.includes(d)),
      `${pkg.name}: waited for, neither imported nor a dependency`
    ).toEqual([])
  }
  // The builds the contract tests wait for: what the command line imports, not the client its tests use.
  expect([...(waits.get("@data-access/contract-tests") ?? [])].sort()).toEqual([
    "@data-access/core",
    "@data-access/reference-server",
    "@data-access/schema"
  ])
})
