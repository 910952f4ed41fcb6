// The proxy's judging thread runs JavaScript: under vitest, which runs `src/` as TypeScript, the
// proxy starts the built module (`dist/internal/proxy/worker.js`, and what it imports from
// `dist/`). turbo builds before it tests; a run of vitest alone rebuilds here when a source is newer
// than the last build, so that the tests never judge with stale checks.
import { spawn } from "node:child_process"
import { readdir, stat, utimes } from "node:fs/promises"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const buildInfo = join(root, "dist", ".tsbuildinfo")

const newestSource = async (): Promise<number> => {
  const files = await readdir(join(root, "src"), { recursive: true })
  const times = await Promise.all(files.filter((f) => f.endsWith(".ts")).map(async (f) => (await stat(join(root, "src", f))).mtimeMs))
  return Math.max(0, ...times)
}

const built = async (): Promise<number> => (await stat(buildInfo).catch(() => undefined))?.mtimeMs ?? 0

export default async function setup(): Promise<void> {
  if ((await built()) >= (await newestSource())) return
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc")
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" })
    child.on("error", reject)
    child.on("exit", resolve)
  })
  if (code !== 0) throw new Error(`apps/contract-tests: the build before the tests failed (tsc exit code ${code})`)
  // An unchanged source is not written again: the build is as new as the sources now.
  const now = new Date()
  await utimes(buildInfo, now, now)
}
