/* global console, process */
// The command line of a package's generator of source files (`packages/*-effect4/scripts/generate.mjs`):
// write the files it renders, or with `--check` fail (exit code 1) when a committed file differs
// from what it renders now.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** Whether the module at `url` is the script Node was started with (not imported by a test). */
export const isMain = (url) => process.argv[1] !== undefined && fileURLToPath(url) === realpathSync(process.argv[1])

/**
 * Writes `files` (a path under `outDir` to its text) into `outDir`; with `--check` on the command
 * line, writes nothing and lists the stale files instead, exit code 1 when there are any.
 */
export const writeOrCheck = (files, outDir, label = "src/generated") => {
  if (process.argv.includes("--check")) {
    const stale = Object.entries(files).filter(([f, text]) => {
      try {
        return readFileSync(join(outDir, f), "utf8") !== text
      } catch {
        return true
      }
    })
    for (const [f] of stale) console.error(`${label}/${f} is stale: run node scripts/generate.mjs`)
    process.exitCode = stale.length > 0 ? 1 : 0
    return
  }
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(dirname(join(outDir, f)), { recursive: true })
    writeFileSync(join(outDir, f), text)
  }
  console.log(`wrote ${Object.keys(files).length} file(s) to ${label}`)
}
