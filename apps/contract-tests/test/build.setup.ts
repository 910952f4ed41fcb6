// The proxy's judging thread runs JavaScript: under vitest, which runs `src/` as TypeScript, the
// proxy starts the built module (`dist/internal/proxy/worker.bundle.js`, the judging module and what
// it imports in one file; `worker.js` and what it imports from `dist/` without it). turbo builds
// before it tests; a run of vitest alone rebuilds here when a source is newer than the last build,
// and bundles again when the bundle is older than it, so that the tests never judge with stale checks.
import { spawn } from "node:child_process"
import { readdir, stat, utimes } from "node:fs/promises"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const buildInfo = join(root, "dist", ".tsbuildinfo")
const bundle = join(root, "dist", "internal", "proxy", "worker.bundle.js")

const newestSource = async (): Promise<number> => {
  const files = await readdir(join(root, "src"), { recursive: true })
  const times = await Promise.all(
    files
      .filter((f) => f.endsWith(".ts"))
      .map(async (f) => (await stat(join(root, "src", f))).mtimeMs)
  )
  return Math.max(0, ...times)
}

const modified = async (path: string): Promise<number> =>
  (await stat(path).catch(() => undefined))?.mtimeMs ?? 0

/** Runs a Node script of the package's build; fails with `what` when it fails. */
const run = (script: string, args: ReadonlyArray<string>, what: string) =>
  new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: "inherit" })
    child.on("error", reject)
    child.on("exit", resolve)
  }).then((code) => {
    if (code !== 0)
      throw new Error(
        `apps/contract-tests: the build before the tests failed (${what} exit code ${code})`
      )
  })

export default async function setup(): Promise<void> {
  if ((await modified(buildInfo)) < (await newestSource())) {
    await run(
      createRequire(import.meta.url).resolve("typescript/bin/tsc"),
      ["-p", "tsconfig.build.json"],
      "tsc"
    )
    // An unchanged source is not written again: the build is as new as the sources now.
    const now = new Date()
    await utimes(buildInfo, now, now)
  }
  if ((await modified(bundle)) < (await modified(buildInfo)))
    await run(join(root, "scripts", "bundle-worker.mjs"), [], "the judging thread's bundle")
}
