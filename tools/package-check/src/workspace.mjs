/* global URL */
// The workspace as the release sees it: the publishable packages (every workspace package that is
// not private) and how to pack them the way `changeset publish` (pnpm publish) would.
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { workspaceDirs as dirsOf } from "../../../scripts/workspaces.mjs"
import { commandOutput } from "./command.mjs"

/** The repository root. */
export const root = fileURLToPath(new URL("../../../", import.meta.url))

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"))

/** Every workspace package directory (from pnpm-workspace.yaml's globs: `dir/*` or `dir`). */
export const workspaceDirs = () => dirsOf(root)

/** The packages a release publishes: `{ name, version, dir, pkg }`, in a stable order. */
export const publishable = () =>
  workspaceDirs()
    .map((dir) => ({ dir, pkg: readJson(join(dir, "package.json")) }))
    .filter(({ pkg }) => pkg.private !== true)
    .map(({ dir, pkg }) => ({ name: pkg.name, version: pkg.version, dir, pkg }))
    .sort((a, b) => a.name.localeCompare(b.name))

/**
 * The Effect line a package is built on: 4 when its `effect` peer range is a 4.x range, else 3.
 * The two lines are installed, compiled and run apart (never one `effect` for both).
 */
export const effectLineOf = (pkg) => (/^\^?4\./.test(pkg.peerDependencies?.effect ?? "") ? 4 : 3)

/** The tarball file name `pnpm pack` writes for a package. */
export const tarballName = ({ name, version }) =>
  `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`

/**
 * Packs every publishable package into `dest` with `pnpm pack` (which rewrites `workspace:^`
 * ranges as `pnpm publish` does), one after the other. Resolves with a map name -> tarball path;
 * rejects with pnpm's stderr when a pack fails.
 */
export const packAll = async (dest) => {
  const out = {}
  for (const p of publishable()) {
    await commandOutput("pnpm", ["pack", "--pack-destination", dest], { cwd: p.dir })
    const file = join(dest, tarballName(p))
    if (!existsSync(file)) throw new Error(`pnpm pack did not write ${file}`)
    out[p.name] = file
  }
  return out
}

/** The fenced blocks of a markdown file in `lang` (`sh`, `json`, `js`...), their text in order. */
export const codeBlocks = (file, lang) =>
  [...readFileSync(file, "utf8").matchAll(/```(\w*)\n([\s\S]*?)```/g)]
    .filter((m) => m[1] === lang)
    .map((m) => m[2])

/** The ```ts blocks of a markdown file that import a published package (complete programs), in order. */
export const readmeExamples = (file) =>
  codeBlocks(file, "ts").filter((code) => /^import .* from "@data-access\//m.test(code))

/**
 * The install lines of a markdown file, in order: each line of its ```sh blocks with a command
 * that runs `npm install` or `pnpm add` into a project (not `-g`), as `{ manager, line, words }`:
 * the whole line (other commands chained with `&&` included) and the install command's words.
 */
export const installCommands = (file) =>
  [...readFileSync(file, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1].split("\n"))
    .flatMap((line) => {
      const words = line
        .split("&&")
        .map((command) => command.trim().split(/\s+/))
        .find(
          (w) =>
            ((w[0] === "npm" && w[1] === "install") || (w[0] === "pnpm" && w[1] === "add")) &&
            !w.includes("-g")
        )
      return words ? [{ manager: words[0], line: line.trim(), words }] : []
    })

/** The package an install argument names (`effect@^3.22` -> `effect`); undefined for a flag. */
export const packageOf = (word) =>
  word.startsWith("-") ? undefined : word.replace(/^(@?[^@]+)@.*$/, "$1")
