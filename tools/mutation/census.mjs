/* global process, console */
// A static census of the mutation run's mutants, without running a test: StrykerJS's own
// instrumenter, with the config's ignorers, over the reference server's source. For each file:
// its mutants, those the config's `mutate` list leaves out, those a mark or an ignorer leaves out,
// and those a run would run. Seconds, where a run takes an hour: a refactoring that must keep the
// run's counts compares the mutants to run before and after (by mutator and code, not by line).
//
//   node tools/mutation/census.mjs [--root <dir>] [--config <file>] [--json <out.json>]   the census
//   node tools/mutation/census.mjs --compare <before.json> <after.json> the mutants to run of one only
//
// Another commit: `git archive <commit> packages/reference-server/src tools/mutation | tar -x -C
// <dir>`, then `--root <dir> --config <dir>/tools/mutation/stryker.config.mjs` (default: this
// tree's config, whose plugins it resolves from this tree).
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const flag = (name) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}

/** The code of a mutant, without comments and layout, so that a moved line keeps its key. */
const norm = (s) =>
  s
    .replace(/\/\/[^\n]*/g, "")
    .replace(/\s+/g, "")
    .replace(/,([)\]}])/g, "$1")
    .replace(/[()]/g, "")
const key = (m) => `${m.mutator} | ${norm(m.original)} | ${norm(m.replacement)}`

if (args[0] === "--compare") {
  const [before, after] = args.slice(1, 3).map((f) => JSON.parse(readFileSync(f, "utf8")))
  const toRun = (mutants) => {
    const byKey = new Map()
    for (const m of mutants)
      if (m.mutate && m.ignored === undefined)
        byKey.set(key(m), [...(byKey.get(key(m)) ?? []), `${m.file}:${m.line}`])
    return byKey
  }
  const [a, b] = [toRun(before), toRun(after)]
  const only = (x, y, sign) => {
    let n = 0
    for (const [k, where] of x) {
      const d = where.length - (y.get(k)?.length ?? 0)
      if (d <= 0) continue
      n += d
      console.log(`${sign} ${d}x ${where.join(",")} ${k.slice(0, 160)}`)
    }
    return n
  }
  const gone = only(a, b, "-")
  const added = only(b, a, "+")
  const count = (x) => [...x.values()].flat().length
  console.log(
    `to run: before ${count(a)}, after ${count(b)}; only before ${gone}, only after ${added}`
  )
  process.exit(0)
}

const root = flag("--root") ?? join(here, "..", "..")
const core = createRequire(createRequire(import.meta.url).resolve("@stryker-mutator/core"))
const { Instrumenter } = await import(
  pathToFileURL(core.resolve("@stryker-mutator/instrumenter")).href
)
const config = flag("--config") ?? join(here, "stryker.config.mjs")
const { default: options } = await import(pathToFileURL(config).href)
const excluded = options.mutate.filter((p) => p.startsWith("!")).map((p) => p.slice(1))
const isExcluded = (f) =>
  excluded.some((p) => (p.endsWith("/**") ? f.startsWith(p.slice(0, -2)) : f === p))
const sourceDir = options.mutate[0].slice(0, -"/**/*.ts".length)
const ignorers = []
const places = []
for (const plugin of options.plugins.filter((p) => p.endsWith(".mjs"))) {
  const module = await import(pathToFileURL(plugin).href)
  for (const p of module.strykerPlugins)
    if (p.kind === "Ignore" && options.ignorers.includes(p.name)) ignorers.push(p.value)
  places.push(...(module.places ?? []))
}
const quiet = () => {}
const logger = new Proxy({}, { get: (_, k) => (String(k).startsWith("is") ? () => false : quiet) })

const files = readdirSync(join(root, sourceDir), { recursive: true })
  .map((f) => `${sourceDir}/${String(f).split("\\").join("/")}`)
  .filter((f) => f.endsWith(".ts"))
  .sort()
const mutants = []
for (const file of files) {
  const content = readFileSync(join(root, file), "utf8")
  const lines = content.split("\n")
  const result = await new Instrumenter(logger).instrument(
    [{ name: join(root, file), content, mutate: true }],
    { plugins: null, excludedMutations: [], ignorers, noHeader: true }
  )
  for (const mutant of result.mutants) {
    const m = mutant
    const { start, end } = m.location
    const original =
      start.line === end.line
        ? lines[start.line].slice(start.column, end.column)
        : [
            lines[start.line].slice(start.column),
            ...lines.slice(start.line + 1, end.line),
            lines[end.line].slice(0, end.column)
          ].join("\n")
    mutants.push({
      file: file.slice(sourceDir.length + 1),
      line: start.line + 1,
      mutator: m.mutatorName,
      original,
      replacement: m.replacement ?? "",
      mutate: !isExcluded(file),
      ignored: m.statusReason
    })
  }
}
const json = flag("--json")
if (json !== undefined) writeFileSync(json, JSON.stringify(mutants))
const rows = {}
for (const m of mutants) {
  const row = (rows[m.file] ??= { mutants: 0, "left out": 0, ignored: 0, "to run": 0 })
  row.mutants++
  if (!m.mutate) row["left out"]++
  else if (m.ignored !== undefined) row.ignored++
  else row["to run"]++
}
const total = { mutants: 0, "left out": 0, ignored: 0, "to run": 0 }
for (const row of Object.values(rows)) for (const k in total) total[k] += row[k]
console.table({ ...rows, total })
// A place of marks.mjs that matches no code was renamed or rewritten away: its mutants now run.
const unused = places.filter((p) => p.used === 0)
for (const p of unused) console.error(`marks.mjs: no code matches the place ${p.text}`)
if (unused.length > 0) process.exit(1)
