/* global console, process */
// The command line of a package's generator of source files (`packages/*-effect4/scripts/generate.mjs`):
// write the files it renders, or with `--check` fail (exit code 1) when a committed file differs
// from what it renders now.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

/** Whether the module at `url` is the script Node was started with (not imported by a test). */
export const isMain = (url) =>
  process.argv[1] !== undefined && fileURLToPath(url) === realpathSync(process.argv[1])

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

/**
 * The Effect 4 text of an Effect 3 source file that is the same code on both lines: `rules` (pairs
 * of what Effect 3 writes and what Effect 4 writes, applied in order) rename the APIs Effect 4
 * renamed. The output is refused (an error naming `label` and the name) when it still matches one
 * of `effect3Only`, names that exist on Effect 3 only: a rule is missing.
 */
export const renameForEffect4 = (text, rules, effect3Only, label) => {
  let out = text
  for (const [from, to] of rules) out = out.replace(from, to)
  for (const name of effect3Only) {
    if (name.test(out)) throw new Error(`${label}: ${name} is left after the renames; add a rule`)
  }
  return out
}
