/* global process, console, performance */
// The mutation run: StrykerJS mutates the reference server's source (packages/reference-server/src,
// its faithful pipeline, handlers, store, paging, filters and wire handling) and judges each mutant
// by contract-test runs against it (test/contract.test.ts). A benchmark, not part of `pnpm test`.
//
//   pnpm --filter @data-access/mutation bench          (build first: `pnpm build`)
//   node tools/mutation/run.mjs [--mutate <glob>]       from the repository's root; extra flags go to Stryker
//   MUTATION_EXAMPLES=20 MUTATION_SEED=7                 the contract runs' examples and seed
//
// StrykerJS needs Node >= 22: under an older Node it runs under Node 22.23.3 from the npm registry
// (npx). The files are mutated in place and put back when the run ends; interrupt it with Ctrl-C
// (never kill -9), or restore them with `git checkout -- packages/reference-server/src`.
// Incremental: tools/mutation/reports/stryker-incremental.json keeps the last run's results, so a
// later run re-tests only mutants in changed code or covered by changed tests (delete it for a
// full run). Reports: tools/mutation/reports/mutation.html and mutation.json.
//
// Then it prints the mutants by status, the survivors not marked, and the mutants marked (by the
// places of marks.mjs, or a message text) by reason: `equivalent: ...` (no observable difference)
// or `latitude <row>: ...` (a choice decisions.md section 10 leaves to a server, by its row of
// ContractRules.latitude).
import { spawn } from "node:child_process"
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { addonBuild, addonEnv, NODE_LINES } from "../../scripts/node-lines/index.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..", "..")
const require = createRequire(import.meta.url)
const stryker = join(
  dirname(require.resolve("@stryker-mutator/core/package.json")),
  "bin",
  "stryker.js"
)
const config = relative(root, join(here, "stryker.config.mjs"))

/** The Node line StrykerJS runs under when this Node is older than 22: the first of the repository's Node lines. */
const LINE = NODE_LINES.find((l) => Number(l.node.split(".")[0]) >= 22)

/**
 * The Node that runs StrykerJS: this one when it is 22 or later, else the line's Node from the npm
 * registry, found once through npx and then run directly (so that Ctrl-C reaches StrykerJS, which
 * puts the mutated files back).
 */
const nodeBinary = async () => {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath
  const out = await new Promise((resolve, reject) => {
    const child = spawn(
      "npx",
      ["-y", "--loglevel=error", "-p", `node@${LINE.node}`, "node", "-p", "process.execPath"],
      { stdio: ["ignore", "pipe", "inherit"] }
    )
    let text = ""
    child.stdout.on("data", (chunk) => (text += chunk))
    child.on("exit", (c) =>
      c === 0 ? resolve(text.trim()) : reject(new Error(`npx could not run Node 22 (exit ${c})`))
    )
  })
  return out
}

/**
 * The files, in groups run one after the other (each with its own incremental file and report,
 * so a group's survivors can be read while the next runs): the pipeline and wire handling, the
 * latitude switches, and every other file the config's `mutate` selects (store, paging, filters,
 * ids, clock). The config is the one list of what is mutated: a file added to the server's source
 * is in the `store` group unless named below.
 */
const { default: options } = await import(pathToFileURL(join(here, "stryker.config.mjs")).href)
const excluded = options.mutate.filter((p) => p.startsWith("!")).map((p) => p.slice(1))
/** Whether the config leaves a file out: named, or under a `<dir>/**` exclusion. */
const isExcluded = (f) =>
  excluded.some((p) => (p.endsWith("/**") ? f.startsWith(p.slice(0, -2)) : f === p))
const included = options.mutate.filter((p) => !p.startsWith("!"))
if (included.length !== 1 || !included[0].endsWith("/**/*.ts"))
  throw new Error("stryker.config.mjs: mutate must be one `<dir>/**/*.ts` glob and exclusions")
const sourceDir = included[0].slice(0, -"/**/*.ts".length)
const sources = readdirSync(join(root, sourceDir), { recursive: true })
  .map((f) => `${sourceDir}/${String(f).split("\\").join("/")}`)
  .filter((f) => f.endsWith(".ts") && !isExcluded(f))
  .sort()
const NAMED = {
  pipeline: [
    "internal/app.ts",
    "internal/faithful.ts",
    "internal/compose.ts",
    "internal/writer.ts",
    "internal/core.ts",
    "internal/nodeAnswer.ts",
    "internal/inProcess.ts"
  ],
  latitude: [
    "internal/latitude.ts",
    "internal/latitudeChecks.ts",
    "internal/latitudeProtocol.ts",
    "internal/latitudeSelection.ts"
  ]
}
const named = new Set(
  Object.values(NAMED)
    .flat()
    .map((f) => `${sourceDir}/${f}`)
)
const GROUPS = {
  store: sources.filter((f) => !named.has(f)),
  ...Object.fromEntries(
    Object.entries(NAMED).map(([group, files]) => [
      group,
      files.map((f) => `${sourceDir}/${f}`).filter((f) => sources.includes(f))
    ])
  )
}
const args = process.argv.slice(2)
const groupFlag = args.indexOf("--group")
const only = groupFlag === -1 ? undefined : args.splice(groupFlag, 2)[1]
if (only !== undefined && !(only in GROUPS))
  throw new Error(`--group: one of ${Object.keys(GROUPS).join(", ")}`)

const node = await nodeBinary()
// The SQLite judge loads better-sqlite3's addon, which the install compiled for this Node: under
// another Node, its build for that Node, made and loaded as the Node lines' tests do.
let env = process.env
if (node !== process.execPath) {
  const [command, commandArgs] = addonBuild(root, LINE.headers)
  const built = await new Promise((resolve) =>
    spawn(command, commandArgs, { cwd: root, stdio: "inherit" }).on("exit", (c) => resolve(c ?? 1))
  )
  if (built !== 0)
    throw new Error(`the native addons could not be compiled for Node ${LINE.node} (exit ${built})`)
  env = { ...process.env, ...addonEnv(root) }
}
const started = performance.now()
let code = 0
for (const [group, files] of Object.entries(GROUPS)) {
  if (only !== undefined && group !== only) continue
  const c = await new Promise((resolve) => {
    const child = spawn(
      node,
      [
        stryker,
        "run",
        config,
        "--mutate",
        files.join(","),
        "--incrementalFile",
        `tools/mutation/reports/incremental-${group}.json`,
        ...args
      ],
      { cwd: root, env, stdio: "inherit" }
    )
    const forward = (signal) => () => child.kill(signal)
    process.on("SIGINT", forward("SIGINT"))
    process.on("SIGTERM", forward("SIGTERM"))
    child.on("exit", (c) => resolve(c ?? 1))
  })
  if (c !== 0) code = c
  if (existsSync(join(here, "reports", "mutation.json")))
    copyFileSync(
      join(here, "reports", "mutation.json"),
      join(here, "reports", `mutation-${group}.json`)
    )
}
const seconds = (performance.now() - started) / 1000

// Every group's latest report (a group not run this time keeps its last one).
const reportFiles = readdirSync(join(here, "reports")).filter((f) =>
  /^mutation-[a-z]+\.json$/.test(f)
)
const mutantsOf = (report) =>
  Object.entries(report.files).flatMap(([file, f]) => f.mutants.map((m) => ({ ...m, file })))
const where = (m) =>
  `${relative(root, m.file)}:${m.location.start.line} ${m.mutatorName}${m.replacement === undefined ? "" : ` -> ${JSON.stringify(m.replacement.slice(0, 60))}`}`

/** A mark's reason: `equivalent`, `latitude <row>[, <row>...]`, or the text as written. */
const reasonOf = (m) => {
  const text = (m.statusReason ?? "").replace(/^Disabled by user comment:?\s*/i, "")
  const latitude = /^latitude ([a-z0-9-]+(?:, [a-z0-9-]+)*)/.exec(text)
  if (latitude) return `latitude ${latitude[1]}`
  if (/^equivalent\b/.test(text)) return "equivalent"
  return text === "" ? "(no reason)" : text
}
const isStatic = (m) => m.status === "Ignored" && /static/i.test(m.statusReason ?? "")
// StrykerJS gives a mark's reason as the status reason (older versions prefix "Disabled by user comment").
const isMarked = (m) => m.status === "Ignored" && !isStatic(m)
const isUnexplained = (m) => m.status === "Survived" || m.status === "NoCoverage"

/** Prints one set of mutants: by status, killed, marked by reason, static, the survivors not marked. */
const summary = (title, mutants, listSurvivors) => {
  const byStatus = new Map()
  for (const m of mutants) byStatus.set(m.status, (byStatus.get(m.status) ?? 0) + 1)
  const marked = mutants.filter(isMarked)
  const marks = new Map()
  for (const m of marked) marks.set(reasonOf(m), (marks.get(reasonOf(m)) ?? 0) + 1)
  const survived = mutants.filter(isUnexplained)
  console.log(`\n${title}`)
  console.log(`  mutants        ${mutants.length}`)
  for (const [status, n] of [...byStatus].sort()) console.log(`    ${status.padEnd(16)} ${n}`)
  console.log(
    `  killed         ${(byStatus.get("Killed") ?? 0) + (byStatus.get("Timeout") ?? 0)} (Killed and Timeout)`
  )
  console.log(
    `  marked         ${marked.length} (equivalent ${marks.get("equivalent") ?? 0}, a section 10 row ${marked.filter((m) => reasonOf(m).startsWith("latitude ")).length})`
  )
  for (const [reason, n] of [...marks].sort()) console.log(`    ${reason.padEnd(40)} ${n}`)
  console.log(`  static, not run (ignoreStatic) ${mutants.filter(isStatic).length}`)
  console.log(`  survived, unexplained          ${survived.length}`)
  if (listSurvivors)
    for (const m of survived)
      console.log(`    ${m.status === "NoCoverage" ? "no coverage " : ""}${where(m)}`)
}

const groups = reportFiles.map((f) => [
  f.replace(/^mutation-|\.json$/g, ""),
  mutantsOf(JSON.parse(readFileSync(join(here, "reports", f), "utf8")))
])
for (const [group, mutants] of groups)
  summary(
    `group ${group}${only === undefined || only === group ? "" : " (its last run)"}`,
    mutants,
    false
  )
summary(
  "mutation run over packages/reference-server/src (every group's last run)",
  groups.flatMap(([, mutants]) => mutants),
  true
)
console.log(`  time           ${seconds.toFixed(0)} s`)
process.exit(code)
