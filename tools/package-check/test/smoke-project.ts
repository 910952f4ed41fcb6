// What the packed-install smoke tests of both Effect lines share: the user's shell environment,
// the empty project the README lines install into, the strict compiler options the READMEs'
// examples are type-checked with, and the copies of each package the install left.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { parse } from "yaml"
import { runCommand } from "../src/command.mjs"
import { root } from "../src/workspace.mjs"

export type Manager = "pnpm" | "npm"

export interface Package {
  readonly name: string
  readonly dir: string
  readonly pkg: Record<string, any>
}

const here = dirname(fileURLToPath(import.meta.url))

/** The workspace's TypeScript compiler. */
export const tsc = fileURLToPath(new URL("../node_modules/.bin/tsc", import.meta.url))

// The user's shell, not the `pnpm run` this test runs in: no lifecycle or pnpm-set npm_* variables.
const keptNpmConfig =
  /^npm_config_(registry|cafile|cache|userconfig|proxy|https_proxy|noproxy|strict_ssl)$/i
export const userEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(npm|pnpm)_/i.test(k) || keptNpmConfig.test(k))
) as Record<string, string>

/** The workspace's pnpm store (also when the temp directory is on another file system). */
const pnpmStore = async () =>
  (await runCommand("pnpm", ["store", "path"], { cwd: here, encoding: "utf8" })).stdout.trim()

/** The native addon of the reference server's SQLite store, compiled on install. */
export const NATIVE = "better-sqlite3"

interface LockSnapshot {
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
}

/**
 * The workspace lockfile's resolution of `name` and of everything under it, as pnpm overrides
 * (`name` to its version, then "parent@version>child" to the child's version): pnpm keys its
 * store's build of a package by that dependency graph, so a project that resolves it the same way
 * reuses the workspace's build instead of compiling its own.
 */
const lockedGraph = (name: string) => {
  const lock = parse(readFileSync(join(root, "pnpm-lock.yaml"), "utf8")) as {
    snapshots: Record<string, LockSnapshot | null>
  }
  // "name@version(peer@version)" keys, without the peers (none under a native addon's install scripts)
  const noPeers = (v: string) => v.replace(/\(.*$/, "")
  const snapshots = Object.fromEntries(
    Object.entries(lock.snapshots).map(([k, v]) => [noPeers(k), v])
  )
  const version = (key: string) => key.slice(key.lastIndexOf("@") + 1)
  const start = Object.keys(snapshots).find((k) => k.startsWith(`${name}@`))!
  const overrides: Record<string, string> = { [name]: version(start) }
  const todo = [start]
  const seen = new Set(todo)
  while (todo.length > 0) {
    const parent = todo.pop()!
    const children = {
      ...snapshots[parent]?.dependencies,
      ...snapshots[parent]?.optionalDependencies
    }
    for (const [child, resolved] of Object.entries(children)) {
      const childVersion = noPeers(resolved)
      overrides[`${parent}>${child}`] = childVersion
      const key = `${child}@${childVersion}`
      if (!seen.has(key)) {
        seen.add(key)
        todo.push(key)
      }
    }
  }
  return overrides
}

/**
 * An empty project `name` in os.tmpdir() for a package manager: a package.json with only the
 * overrides of our packages (npm matches an override against the spec it saves for a direct
 * dependency, a relative file: path) and, for pnpm, the workspace's resolution of the native
 * addon's dependency graph (so the SQLite line reuses the workspace's build from the shared
 * store), and an .npmrc that prefers the shared cache or store.
 */
export const emptyProject = async (
  manager: Manager,
  tarballs: Record<string, string>,
  name: string,
  preferOffline = true
) => {
  const dir = mkdtempSync(join(tmpdir(), `data-access-${name}-${manager}-`))
  const overrides = Object.fromEntries(
    Object.entries(tarballs).map(([n, file]) => [
      n,
      `file:${manager === "npm" ? relative(dir, file) : file}`
    ])
  )
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify(
      {
        name,
        private: true,
        type: "module",
        ...(manager === "npm"
          ? { overrides }
          : { pnpm: { overrides: { ...lockedGraph(NATIVE), ...overrides } } })
      },
      null,
      2
    )
  )
  const npmrc =
    manager === "npm"
      ? ["audit=false", "fund=false", "update-notifier=false"]
      : [`store-dir=${await pnpmStore()}`]
  writeFileSync(join(dir, ".npmrc"), [...npmrc, `prefer-offline=${preferOffline}`, ""].join("\n"))
  return dir
}

/** Every installed package directory, by package name, and every build/Release directory (symlinks not followed: each copy once). */
export const copiesIn = (dir: string) => {
  const copies = new Map<string, Array<string>>()
  const builds: Array<string> = []
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const path = join(d, entry.name)
      if (entry.name === "Release" && basename(d) === "build") builds.push(relative(dir, path))
      const manifest = join(path, "package.json")
      if (basename(d) === "node_modules" || basename(dirname(d)) === "node_modules") {
        if (existsSync(manifest)) {
          const name = (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name
          if (name !== undefined && (name === entry.name || name.endsWith(`/${entry.name}`)))
            copies.set(name, [...(copies.get(name) ?? []), relative(dir, path)])
        }
      }
      walk(path)
    }
  }
  walk(join(dir, "node_modules"))
  return { copies, builds }
}

/**
 * The compiler options of a user's strict project, with Node's types from the workspace (no
 * README line installs them).
 */
export const strictOptions = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  typeRoots: [fileURLToPath(new URL("../node_modules/@types", import.meta.url))],
  types: ["node"]
} as const

/** The file a package's README example is written to in the project. */
export const exampleFile = (name: string) => `readme-${name.replace("@data-access/", "")}.ts`
