// Dry run of the release flow, on a copy: the repository's .changeset directory, root and
// workspace package.json files and changelogs are copied to a temporary directory and
// `changeset version` (what `pnpm version-packages` runs) is applied there. The real working
// tree is never touched (checked).
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type CommandResult, runCommand } from "../src/command.mjs"
import { publishable, root, workspaceDirs } from "../src/workspace.mjs"

type Bump = "major" | "minor" | "patch"
const rank: Record<Bump, number> = { patch: 0, minor: 1, major: 2 }
const bump = (version: string, kind: Bump) => {
  const [major, minor, patch] = version.split(".").map(Number) as [number, number, number]
  return kind === "major"
    ? `${major + 1}.0.0`
    : kind === "minor"
      ? `${major}.${minor + 1}.0`
      : `${major}.${minor}.${patch + 1}`
}
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"))
const published: ReadonlyArray<{ name: string; version: string; dir: string }> = publishable()

/** The pending changesets: `{ file, releases: { name: bump }, summary }`. */
const changesets = readdirSync(join(root, ".changeset"))
  .filter((f) => f.endsWith(".md") && f !== "README.md")
  .map((file) => {
    const text = readFileSync(join(root, ".changeset", file), "utf8")
    const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)
    if (!m) throw new Error(`${file}: no front matter`)
    const releases = Object.fromEntries(
      m[1]!
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => {
          const r = /^["']?([^"']+)["']?:\s*(major|minor|patch)\s*$/.exec(l.trim())
          if (!r) throw new Error(`${file}: bad release line ${l}`)
          return [r[1]!, r[2] as Bump]
        })
    )
    return { file, releases, summary: m[2]!.trim() }
  })

/** The bump of the one version every published package shares (changesets' fixed group). */
const groupKind = changesets
  .flatMap((c) => Object.values(c.releases))
  .reduce<Bump>((a, b) => (rank[a] >= rank[b] ? a : b), "patch")

let copy: string
const snapshot = () =>
  Object.fromEntries(
    [
      join(root, "package.json"),
      ...workspaceDirs().flatMap((d: string) => [join(d, "package.json"), join(d, "CHANGELOG.md")])
    ]
      .filter((f) => existsSync(f))
      .map((f) => [f, readFileSync(f, "utf8")])
  )
let before: Record<string, string>
let version: CommandResult
let status: CommandResult

beforeAll(async () => {
  before = snapshot()
  copy = mkdtempSync(join(tmpdir(), "data-access-release-"))
  copyFileSync(join(root, "package.json"), join(copy, "package.json"))
  copyFileSync(join(root, "pnpm-workspace.yaml"), join(copy, "pnpm-workspace.yaml"))
  cpSync(join(root, ".changeset"), join(copy, ".changeset"), { recursive: true })
  for (const dir of workspaceDirs() as ReadonlyArray<string>) {
    const to = join(copy, relative(root, dir))
    mkdirSync(to, { recursive: true })
    for (const f of ["package.json", "CHANGELOG.md"])
      if (existsSync(join(dir, f))) copyFileSync(join(dir, f), join(to, f))
  }
  // the changelog generator named in .changeset/config.json resolves from here
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"), "dir")
  // `changeset status` compares with the base branch: make the copy a repository on main
  const git = (...args: ReadonlyArray<string>) =>
    runCommand(
      "git",
      ["-c", "user.name=release-check", "-c", "user.email=release-check@example.invalid", ...args],
      { cwd: copy, encoding: "utf8" }
    )
  await git("init", "-q", "-b", "main")
  await git("add", "-A")
  await git("commit", "-q", "-m", "copy", "--no-gpg-sign")
  status = await runCommand(
    process.execPath,
    [join(root, "node_modules/@changesets/cli/bin.js"), "status", "--output=status.json"],
    {
      cwd: copy,
      encoding: "utf8",
      env: { ...process.env, CI: "true" }
    }
  )
  version = await runCommand(
    process.execPath,
    [join(root, "node_modules/@changesets/cli/bin.js"), "version"],
    {
      cwd: copy,
      encoding: "utf8",
      env: { ...process.env, CI: "true" }
    }
  )
})

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

it("every pending changeset names published packages only and says something", () => {
  const names = new Set(published.map((p) => p.name))
  for (const c of changesets) {
    expect(c.summary.length, c.file).toBeGreaterThan(10)
    for (const name of Object.keys(c.releases))
      expect(names.has(name), `${c.file}: ${name}`).toBe(true)
  }
})

it("the changesets config publishes publicly from main and moves internal ranges", () => {
  const config = readJson(join(root, ".changeset/config.json"))
  expect(config).toMatchObject({
    access: "public",
    baseBranch: "main",
    updateInternalDependencies: "patch"
  })
  expect(config.ignore).toEqual([])
  // One version for every published package: a release bumps them all together.
  expect(config.fixed).toEqual([published.map((p) => p.name)])
})

it("changeset status plans the releases the changesets ask for", () => {
  expect({ status: status.status, stderr: String(status.stderr) }).toMatchObject({ status: 0 })
  const planned = JSON.parse(readFileSync(join(copy, "status.json"), "utf8")) as {
    releases: ReadonlyArray<{ name: string; type: string; oldVersion: string; newVersion: string }>
  }
  for (const p of published) {
    expect(
      planned.releases.find((r) => r.name === p.name),
      p.name
    ).toMatchObject({
      type: groupKind,
      oldVersion: p.version,
      newVersion: bump(p.version, groupKind)
    })
  }
})

it("changeset version succeeds on the copy", () => {
  expect({ status: version.status, stderr: String(version.stderr) }).toMatchObject({ status: 0 })
  expect(
    readdirSync(join(copy, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md")
  ).toEqual([])
})

it("each package gets the version its changesets ask for, and a CHANGELOG entry with their text", () => {
  for (const p of published) {
    const dir = join(copy, relative(root, p.dir))
    const after = readJson(join(dir, "package.json"))
    expect(after.version, p.name).toBe(bump(p.version, groupKind))
    const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8")
    expect(changelog.startsWith(`# ${p.name}\n`), p.name).toBe(true)
    expect(changelog).toContain(`## ${after.version}`)
    for (const c of changesets.filter((c) => c.releases[p.name]))
      expect(changelog).toContain(c.summary.split("\n")[0])
  }
})

it("every published package gets one version, and the CI files under docs/ci pin it", () => {
  const versions = new Set(
    published.map((p) => readJson(join(copy, relative(root, p.dir), "package.json")).version)
  )
  expect([...versions]).toHaveLength(1)
  const [version] = versions
  const ci = readdirSync(join(root, "docs", "ci")).filter((f) => f.endsWith(".yml"))
  expect(ci.length).toBeGreaterThan(0)
  for (const file of ci) {
    const pins = [
      ...readFileSync(join(root, "docs", "ci", file), "utf8").matchAll(
        /CONTRACT_TESTS_VERSION: "([^"]*)"/g
      )
    ].map((m) => m[1])
    expect(pins, file).toEqual([`^${version}`])
  }
})

it("internal dependencies stay workspace ranges that the new versions satisfy (pnpm pack rewrites them)", () => {
  const versions = new Map(
    published.map((p) => [
      p.name,
      readJson(join(copy, relative(root, p.dir), "package.json")).version as string
    ])
  )
  for (const p of published) {
    const after = readJson(join(copy, relative(root, p.dir), "package.json"))
    for (const [dep, range] of Object.entries<string>(after.dependencies ?? {})) {
      if (!versions.has(dep)) continue
      expect(range, `${p.name} -> ${dep}`).toBe("workspace:^")
      // a dependent of a bumped package is released too (its packed range names the new version)
      const dependency = published.find((q) => q.name === dep)!
      if (versions.get(dep) !== dependency.version)
        expect(after.version, `${p.name} after ${dep}`).not.toBe(p.version)
    }
  }
})

it("the root scripts run the flow: changeset, version-packages, release (build, checks, publish)", () => {
  const scripts = readJson(join(root, "package.json")).scripts
  expect(scripts.changeset).toBe("changeset")
  expect(scripts["version-packages"]).toMatch(/^changeset version\b/)
  expect(scripts.release).toMatch(/turbo run build/)
  expect(scripts.release).toMatch(/@data-access\/package-check/)
  expect(scripts.release).toMatch(/changeset publish$/)
})

it("docs/releasing.md names every published package and every private one, as the workspace has them", () => {
  const text = readFileSync(join(root, "docs", "releasing.md"), "utf8")
  /** The package names of the paragraph that starts with `opening`. */
  const named = (opening: string) => {
    const paragraph = text.slice(text.indexOf(opening)).split("\n\n")[0]!
    return [...paragraph.matchAll(/`(@data-access\/[\w-]+)`/g)].map((m) => m[1]).sort()
  }
  const all = workspaceDirs().map((d: string) => readJson(join(d, "package.json")))
  expect(named("The nine published packages")).toEqual(published.map((p) => p.name).sort())
  expect(published).toHaveLength(9)
  expect(named("The private workspace packages")).toEqual(
    all
      .filter((p: { private?: boolean }) => p.private === true)
      .map((p: { name: string }) => p.name)
      .sort()
  )
})

it("the working tree's versions and changelogs were not touched", () => {
  expect(snapshot()).toEqual(before)
})
