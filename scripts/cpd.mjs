/* global console, process */
// The copy-paste check between the two Effect lines: jscpd over packages/ (sources, tests and
// benchmarks; not the generated Effect 4 schemas, builds or dependencies) and a failure for every
// block that an Effect 3 package and an Effect 4 package share. A package's line is its `effect`
// peer (4.x: Effect 4; 3.x: Effect 3); a package without one (`@data-access/core`) is on
// neither line, so both lines may depend on it instead of copying each other.
//
//   node scripts/cpd.mjs            fails (exit 1) on a block shared across the lines, beyond the
//                                   known ones of scripts/cpd-known.json
//   node scripts/cpd.mjs --all      also lists the blocks shared within one line
//   node scripts/cpd.mjs --update   rewrites scripts/cpd-known.json from what is found now
//
// scripts/cpd-known.json is a ratchet, not an allowance: the pairs of files that still share
// blocks across the lines when the check was introduced, with the lines they share. A pair not
// in it, or sharing more lines than it says, fails; a pair that shares fewer is to be lowered
// (`--update`) in the same change. The goal is an empty file.
//
// Documentation comments are left out of the comparison (jscpd's `weak` mode): the two lines
// document the same API for their users; what must not be written twice is code.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { createRequire } from "node:module"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
// jscpd's ESM build imports `colors/safe` without an extension, which Node refuses; its CommonJS
// build loads.
const { detectClones } = createRequire(import.meta.url)("jscpd")

/** The detector's settings: the defaults of jscpd but comments skipped. */
export const options = {
  path: [join(root, "packages")],
  format: ["typescript", "javascript"],
  ignore: [
    "**/node_modules/**",
    "**/dist/**",
    "**/src/generated/**",
    "**/*.d.ts",
    "**/coverage/**",
    "**/reports/**"
  ],
  minTokens: 50,
  minLines: 5,
  mode: process.env.CPD_MODE ?? "weak",
  silent: true,
  reporters: [],
  gitignore: true,
  absolute: true
}

const lines = new Map()
/** The Effect line of the package a file is in: 3, 4 or undefined (no `effect` peer). */
export const lineOf = (file) => {
  const dir = relative(join(root, "packages"), file).split(sep)[0]
  if (!lines.has(dir)) {
    const manifest = join(root, "packages", dir, "package.json")
    const peer = existsSync(manifest)
      ? JSON.parse(readFileSync(manifest, "utf8")).peerDependencies?.effect
      : undefined
    lines.set(dir, peer === undefined ? undefined : /^\^?4\./.test(peer) ? 4 : 3)
  }
  return lines.get(dir)
}

const where = (d) => `${relative(root, d.sourceId)}:${d.start.line}-${d.end.line}`

const knownFile = join(root, "scripts", "cpd-known.json")

/** The lines each pair of files shares across the lines: `{ "a.ts = b.ts": lines }`. */
const byPair = (clones) => {
  const out = {}
  for (const c of clones) {
    const key = [relative(root, c.duplicationA.sourceId), relative(root, c.duplicationB.sourceId)]
      .sort()
      .join(" = ")
    out[key] = (out[key] ?? 0) + (c.duplicationA.end.line - c.duplicationA.start.line + 1)
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const clones = await detectClones(options)
  const crossLine = clones.filter((c) => {
    const a = lineOf(c.duplicationA.sourceId)
    const b = lineOf(c.duplicationB.sourceId)
    return a !== undefined && b !== undefined && a !== b
  })
  if (process.argv.includes("--all")) {
    for (const c of clones) console.log(`  ${where(c.duplicationA)}  =  ${where(c.duplicationB)}`)
  }
  const pairs = byPair(crossLine)
  if (process.argv.includes("--update")) {
    writeFileSync(knownFile, JSON.stringify(pairs, null, 2) + "\n")
    console.log(
      `cpd: wrote ${Object.keys(pairs).length} known pair(s) to ${relative(root, knownFile)}`
    )
  } else {
    const known = existsSync(knownFile) ? JSON.parse(readFileSync(knownFile, "utf8")) : {}
    const worse = Object.entries(pairs).filter(([pair, lines]) => lines > (known[pair] ?? 0))
    for (const c of crossLine) {
      const key = [relative(root, c.duplicationA.sourceId), relative(root, c.duplicationB.sourceId)]
        .sort()
        .join(" = ")
      if (!worse.some(([pair]) => pair === key)) continue
      const n = c.duplicationA.end.line - c.duplicationA.start.line + 1
      console.error(
        `shared between the Effect lines (${n} lines): ${where(c.duplicationA)}  =  ${where(c.duplicationB)}`
      )
    }
    const total = Object.values(pairs).reduce((a, b) => a + b, 0)
    console.log(
      `cpd: ${clones.length} block(s) repeated in packages/; ${crossLine.length} shared between an Effect 3 and an Effect 4 package ` +
        `(${total} lines in ${Object.keys(pairs).length} pair(s) of files, all known: ${worse.length === 0})`
    )
    if (worse.length > 0) {
      console.error(
        "Write it once: in @data-access/core (no effect), or generated from one description."
      )
      process.exitCode = 1
    }
  }
}
