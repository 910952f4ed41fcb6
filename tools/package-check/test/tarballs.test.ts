// The packed tarballs, as `changeset publish` would upload them: publint and
// @arethetypeswrong/cli (ESM-only profile: the packages are ESM) find nothing, every subpath
// module resolves to types, `workspace:` ranges are rewritten, and nothing from the workspace
// (tests, build info) leaks in.
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, inject, it } from "vitest"
import { publishable } from "../src/workspace.mjs"
import { commandOutput, runCommand } from "../src/command.mjs"

const bin = (name: string) =>
  fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url))

interface Pkg {
  readonly name: string
  readonly version: string
  readonly dir: string
  readonly pkg: Record<string, any>
}
const packages = publishable() as ReadonlyArray<Pkg>
const versions = new Map(packages.map((p) => [p.name, p.version]))

const list = async (tarball: string) =>
  (await commandOutput("tar", ["tzf", tarball], { encoding: "utf8" }))
    .split("\n")
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ""))
const packedManifest = async (tarball: string) =>
  JSON.parse(
    await commandOutput("tar", ["xzf", tarball, "-O", "package/package.json"], { encoding: "utf8" })
  )

/** The public modules of a packed package: `dist/<Module>.d.ts`, not index, bin or internal. */
const subpaths = (files: ReadonlyArray<string>) =>
  files
    .map((f) => /^dist\/([A-Za-z0-9]+)\.d\.ts$/.exec(f)?.[1])
    .filter((m): m is string => m !== undefined && m !== "index" && m !== "bin")
    .map((m) => `./${m}`)

it("the release publishes the effect-free core, the five Effect 3 packages and the three of the Effect 4 line", () => {
  expect(packages.map((p) => p.name)).toEqual([
    "@data-access/client",
    "@data-access/client-effect4",
    "@data-access/contract-tests",
    "@data-access/core",
    "@data-access/reference-server",
    "@data-access/schema",
    "@data-access/schema-effect4",
    "@data-access/testing",
    "@data-access/testing-effect4"
  ])
})

it("@data-access/contract-tests ships its proxy's judging thread: the worker module the proxy starts by its path, beside the module that starts it", async () => {
  const files = await list(inject("tarballs")["@data-access/contract-tests"]!)
  expect(files).toContain("dist/internal/proxy/worker.js")
  expect(files).toContain("dist/internal/proxy/state.js")
})

describe.each(packages.map((p) => [p.name, p] as const))("%s", (name, p) => {
  const tarball = () => inject("tarballs")[name]!

  it("publint: no error, warning or suggestion", async () => {
    const run = await runCommand(
      bin("publint"),
      ["run", tarball(), "--strict", "--level", "suggestion"],
      {
        encoding: "utf8"
      }
    )
    expect({ status: run.status, output: run.stdout + run.stderr }).toMatchObject({ status: 0 })
    expect(run.stdout).toContain("All good!")
  })

  it("attw (esm-only profile): every entry point and module resolves to ESM with types", async () => {
    const files = await list(tarball())
    const modules = subpaths(files)
    expect(modules.length).toBeGreaterThan(0)
    const run = await runCommand(
      bin("attw"),
      [
        tarball(),
        "--profile",
        "esm-only",
        "--no-definitely-typed",
        "--format",
        "ascii",
        "--no-color",
        "--include-entrypoints",
        ...modules
      ],
      { encoding: "utf8" }
    )
    expect({ status: run.status, output: run.stdout + run.stderr }).toMatchObject({ status: 0 })
    for (const m of [".", ...modules]) {
      const entry = m === "." ? `"${name}"` : `"${name}/${m.slice(2)}"`
      expect(run.stdout).toContain(entry)
    }
    expect(run.stdout).not.toMatch(/Resolution failed[^\n]*\n[^\n]*node16 \(from ESM\)/)
  })

  it("ships dist with types, the README and the license; no tests, build info or bench", async () => {
    const files = await list(tarball())
    expect(files).toContain("package.json")
    expect(files).toContain("README.md")
    expect(files).toContain("LICENSE")
    expect(files).toContain("dist/index.js")
    expect(files).toContain("dist/index.d.ts")
    expect(
      files.filter((f) => /\.test\.ts$|tsbuildinfo$|^test\/|^bench\/|^reports\//.test(f))
    ).toEqual([])
  })

  it("the packed manifest: workspace ranges rewritten, ./internal/* blocked, effect a peer only (and none at all for the core)", async () => {
    const manifest = await packedManifest(tarball())
    const deps: Record<string, string> = manifest.dependencies ?? {}
    for (const [dep, range] of Object.entries(deps)) {
      expect(range, dep).not.toMatch(/^workspace:/)
      if (versions.has(dep)) expect(range, dep).toBe(`^${versions.get(dep)}`)
    }
    expect(deps).not.toHaveProperty("effect")
    expect(deps).not.toHaveProperty("@effect/platform")
    // The effect-free core serves both lines: no effect of either, not even as a peer.
    if (name === "@data-access/core")
      expect({ dependencies: manifest.dependencies, peers: manifest.peerDependencies }).toEqual({})
    else expect(manifest.peerDependencies).toHaveProperty("effect")
    expect(manifest.type).toBe("module")
    expect(manifest.sideEffects).toBe(false)
    expect(manifest.exports["./internal/*"]).toBeNull()
    expect(manifest.exports["."].types).toBe("./dist/index.d.ts")
    expect(manifest.engines?.node).toBeDefined()
    expect(manifest.publishConfig?.access).toBe("public")
  })

  it("every bin points at a committed file (linked at install, before any build) that is packed and starts with a node shebang", async () => {
    const bins: Record<string, string> = p.pkg.bin ?? {}
    const files = await list(tarball())
    for (const [cmd, file] of Object.entries(bins)) {
      const path = file.replace(/^\.\//, "")
      expect(
        (await runCommand("git", ["ls-files", "--error-unmatch", path], { cwd: p.dir })).status,
        `${cmd}: ${path} is not committed`
      ).toBe(0)
      expect(files, cmd).toContain(path)
      const text = await commandOutput("tar", ["xzf", tarball(), "-O", `package/${path}`], {
        encoding: "utf8"
      })
      expect(text.startsWith("#!/usr/bin/env node\n"), cmd).toBe(true)
      // the bin imports the build (statically, or which of its files it picks), which must be packed too
      const imported = [...text.matchAll(/"(\.\.\/[^"]+)"/g)].map((m) =>
        join("bin", m[1]!).replace(/^bin\/\.\.\//, "")
      )
      expect(imported, cmd).not.toEqual([])
      for (const path of imported) expect(files, cmd).toContain(path)
    }
  })
})

it("the command-line packages have their bins", () => {
  const byName = new Map(packages.map((p) => [p.name, p.pkg]))
  expect(Object.keys(byName.get("@data-access/contract-tests")!.bin)).toEqual(["contract-tests"])
  expect(Object.keys(byName.get("@data-access/reference-server")!.bin)).toEqual([
    "data-access-reference-server"
  ])
})
