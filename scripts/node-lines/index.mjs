/* global process, console, URL */
// The library packages' tests under the other Node lines that users run: after the turbo run
// (which tests everything under the machine's Node), each published package's vitest suite runs
// again under every Node of NODE_LINES whose version its `engines.node` range admits, two suites
// at a time, each as `<that node> <vitest.mjs> run` in the package's directory (`npx -y -p
// node@<version>` downloads that Node from the npm registry the first time, and says where it is).
//
// Native addons: the install compiled better-sqlite3 (the SQLite store) for the machine's Node,
// and another Node cannot load that build (its ABI differs). Before a line's suites, every such
// addon is compiled for that Node from the installed package's own sources (rebuild-addons.mjs,
// cached in node_modules/.cache/node-lines), and the suites load that build (preload-addons.mjs):
// the SQLite tests run for real under every line, as they would on a user's machine.
import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { homedir } from "node:os"
import { delimiter, dirname, join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import { satisfies } from "./range.mjs"

/**
 * The Node lines, besides the machine's own, that the library packages are tested under: `node`
 * runs the suites; `headers` compiles the native addons for it (same ABI). Node 24.19 added cleanup
 * hooks to the header-only `node::ObjectWrap` that abort the process when the garbage collector
 * frees an object of an addon compiled against those headers (nodejs/node#65446): better-sqlite3
 * 12 (which @effect/sql-sqlite-node 0.53 uses) is such an addon. Its prebuilt binaries, which npm
 * downloads for Node 24, were compiled against earlier 24.x headers; so is the build tested here.
 */
export const NODE_LINES = [
  { node: "22.23.3", headers: "22.23.3" },
  { node: "24.21.0", headers: "24.18.1" }
]
/**
 * The Node that scripts/node22.mjs runs the Effect 4 packages' scripts with (their `test` script
 * goes through it) when the machine's Node is older than their engines' 22.19: the first line's.
 */
export const NODE22 = NODE_LINES[0].node

/** Whether this Node satisfies the Effect 4 line's engines (>= 22.19), so node22.mjs runs scripts with it. */
export const runsOwnNode = (version = process.versions.node) => satisfies(version, ">=22.19")

/**
 * Whether the turbo run already tested the package under this line's Node: a `test` script
 * through scripts/node22.mjs runs under NODE22 when the machine's Node is older than 22.19. Its
 * suite is not run a second time under the same Node.
 */
export const testedInTurbo = (pkg, version) =>
  version === NODE22 && !runsOwnNode() && /\bnode22\.mjs\b/.test(pkg.scripts?.test ?? "")

/** The node-gyp that compiles native addons for another line (run by that line's Node). */
const NODE_GYP = "node-gyp@12.4.0"

/** Where a clone keeps the map from its installed addons to their builds for each line's ABI. */
export const addonCache = (root) => join(root, "node_modules", ".cache", "node-lines")

/**
 * Where the addons compiled for the other lines are kept: in the user's cache directory, shared by
 * the clones on a machine (as npx's cache of the Nodes is), one build per package version, Node
 * headers and toolchain (rebuild-addons.mjs); DATA_ACCESS_ADDON_BUILDS moves it.
 */
export const addonBuilds = (env = process.env) =>
  env.DATA_ACCESS_ADDON_BUILDS ??
  join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "data-access", "node-lines")

/**
 * The command (for `spawn`) that compiles the install's native addons for a line, with the Node
 * of its `headers`, into `addonBuilds()`, and maps them in `addonCache(root)`; a build made
 * before is reused.
 */
export const addonBuild = (root, headers) => [
  "npx",
  [
    ...NPX,
    "-p",
    `node@${headers}`,
    "-p",
    NODE_GYP,
    "node",
    join(here, "rebuild-addons.mjs"),
    root,
    addonCache(root),
    addonBuilds()
  ]
]

/** The environment under which a process of another line loads the addons compiled for it. */
export const addonEnv = (root, env = process.env) => ({
  NODE_OPTIONS: [
    env.NODE_OPTIONS,
    `--import "${pathToFileURL(join(here, "preload-addons.mjs")).href}"`
  ]
    .filter(Boolean)
    .join(" "),
  DATA_ACCESS_ADDON_CACHE: addonCache(root)
})
/** npx without asking, and without npm's warnings about the npm_config_* variables pnpm sets. */
const NPX = ["-y", "--loglevel=error"]
/** Suites (or addon builds) at a time. */
const CONCURRENCY = 2

const here = new URL(".", import.meta.url).pathname

/** Report file of one package's suite under one Node line, relative to the package. */
export const lineReport = (version) => join("reports", `vitest-node-${version}.json`)

/**
 * Workspace packages whose tests run under the other lines: the libraries (`packages/*`) that are
 * published (not private), with a test script. The tools in `apps/` and `tools/` run on the
 * machine's Node only.
 */
export const linePackages = (workspaces) =>
  workspaces
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }))
    .filter(
      ({ dir, pkg }) =>
        /(^|[\\/])packages[\\/][^\\/]+[\\/]?$/.test(dir) &&
        pkg.private !== true &&
        typeof pkg.scripts?.test === "string"
    )

/**
 * The first line of a test file that runs under the machine's Node only (and, for an Effect 4
 * package, under the Node its test script runs with): what it checks is the same on every line.
 * The rule (README, Testing): a file runs under every line when it exercises what a Node line
 * changes: sockets and HTTP (node:http, fetch, undici's Request and Response), worker threads, the
 * package's command lines in processes of their own, native addons, zlib, util.inspect, or V8's
 * Date and Intl; a file of pure data transforms or Effect code (decoding and encoding by schema,
 * rule tables, generated or committed files, a client's logic over a fake HttpClient, on the test
 * clock or the real one) starts with this line.
 */
export const MACHINE_ONLY = "// Under the machine's Node only (scripts/node-lines): "

/**
 * A package's test files (vitest's `test/**\/*.test.ts`) as absolute paths: `all`, and `lines`,
 * those that run under the other lines (without the MACHINE_ONLY first line).
 */
export const lineTestFiles = (dir) => {
  const all = []
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".test.ts")) all.push(path)
    }
  }
  if (existsSync(join(dir, "test"))) walk(join(dir, "test"))
  all.sort()
  const lines = all.filter((file) => !readFileSync(file, "utf8").startsWith(MACHINE_ONLY))
  return { all, lines }
}

/**
 * At most `limit()` tasks at a time, in the order they were asked for; `wake()` starts more once
 * the limit has risen.
 */
const pool = (limit) => {
  let running = 0
  const waiting = []
  const next = () => {
    while (running < limit() && waiting.length > 0) {
      running++
      const { task, done } = waiting.shift()
      task()
        .then(done, done)
        .finally(() => {
          running--
          next()
        })
    }
  }
  const add = (task) =>
    new Promise((done) => {
      waiting.push({ task, done })
      next()
    })
  return { add, wake: next }
}

/**
 * Runs a command, each output line prefixed; resolves to its exit code (or 1 if it did not start).
 * `stdout`, when given, gets the command's standard output instead of the relay.
 */
const run = (prefix, command, args, options, stdout) =>
  new Promise((done) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] })
    const relay = (stream, into) => {
      let rest = ""
      stream.setEncoding("utf8")
      stream.on("data", (chunk) => {
        const lines = (rest + chunk).split("\n")
        rest = lines.pop()
        for (const line of lines) into.write(`${prefix}: ${line}\n`)
      })
      stream.on("end", () => rest !== "" && into.write(`${prefix}: ${rest}\n`))
    }
    if (stdout === undefined) relay(child.stdout, process.stdout)
    else {
      child.stdout.setEncoding("utf8")
      child.stdout.on("data", stdout)
    }
    relay(child.stderr, process.stderr)
    child.on("error", (error) => {
      console.error(`${prefix}: ${command} did not start: ${error.message}`)
      done(1)
    })
    child.on("close", (code, signal) => done(code ?? (signal === null ? 1 : 128)))
  })

const seconds = (since) => (Date.now() - since) / 1000

/**
 * Makes every line of NODE_LINES ready to run suites: downloads its Node (npx's cache) and compiles
 * the install's native addons for it. Needs only the install, not the builds, so test.mjs starts
 * it first, beside the turbo run: the downloads wait on the network, and the compiles (one line at
 * a time) fill the cores that the turbo run leaves idle. Resolves to one entry per line: { version,
 * headers, node: Promise<path of its Node binary>, addons: Promise<{ status, seconds }> }.
 */
export const prepareNodeLines = ({ root }) => {
  let compiling = Promise.resolve()
  return NODE_LINES.map(({ node: version, headers }) => {
    const line = `node@${version}`
    // Each Node downloaded once, before anything runs it (two processes starting at once would
    // both install it into npx's cache); the headers' Node too when it is another version. The
    // download prints the path of the Node binary it installed, which the suites then run
    // directly: npx resolving the package again for each suite cost a Node start and npm's own.
    let path = ""
    const download = (v, onPath) =>
      run(
        `node@${v}`,
        "npx",
        [...NPX, "-p", `node@${v}`, "node", "-p", "process.execPath"],
        { cwd: root },
        onPath
      )
    const since = Date.now()
    const downloaded = Promise.all([
      download(version, (chunk) => (path += chunk)),
      ...(headers === version ? [] : [download(headers, () => {})])
    ]).then((codes) => codes.find((c) => c !== 0) ?? (path.trim() === "" ? 1 : 0))
    const compiled = (compiling = Promise.all([downloaded, compiling]).then(([status]) =>
      status !== 0 ? status : run(`${line} addons`, ...addonBuild(root, headers), { cwd: root })
    ))
    return {
      version,
      headers,
      node: downloaded.then(() => path.trim()),
      addons: compiled.then((status) => ({ status, seconds: seconds(since) }))
    }
  })
}

/**
 * Runs every published package's suite under every line of NODE_LINES its engines admit, once the
 * line is prepared (`prepared`, from prepareNodeLines; prepared here when not given), two suites
 * at a time, or one until `busy` settles (other work sharing the machine meanwhile).
 * Resolves to one result per line: { version, headers, seconds, endedAt (epoch millis), addons: { status, seconds }, packages:
 * [{ name, dir, status, seconds, report, files: { run, of } }] (report undefined when the suite
 * wrote none; `run` of its `of` test files ran, the others being MACHINE_ONLY), notRun: [{ name,
 * range }] (engines exclude the version), inTurbo: [{ name }] (tested under this Node in the turbo
 * run: testedInTurbo), machineOnly: [{ name }] (every test file MACHINE_ONLY) }.
 */
export const runNodeLines = async ({
  root,
  workspaces,
  args = [],
  prepared = prepareNodeLines({ root }),
  busy
}) => {
  const packages = linePackages(workspaces)
  const lineEnv = addonEnv(root)
  let shared = busy !== undefined
  const slots = pool(() => (shared ? 1 : CONCURRENCY))
  const wake = () => {
    shared = false
    slots.wake()
  }
  void busy?.then(wake, wake)
  for (const { dir } of packages)
    for (const { node: version } of NODE_LINES)
      rmSync(join(dir, lineReport(version)), { force: true })

  return Promise.all(
    prepared.map(async ({ version, headers, node, addons: ready }) => {
      const started = Date.now()
      const line = `node@${version}`
      const inRange = packages.filter(({ pkg }) => satisfies(version, pkg.engines?.node))
      const inLine = inRange
        .filter(({ pkg }) => !testedInTurbo(pkg, version))
        .map((p) => ({ ...p, files: lineTestFiles(p.dir) }))
      const admitted = inLine.filter((p) => p.files.lines.length > 0)
      const machineOnly = inLine
        .filter((p) => p.files.lines.length === 0)
        .map(({ pkg }) => ({ name: pkg.name }))
      const notRun = packages
        .filter((p) => !inRange.includes(p))
        .map(({ pkg }) => ({ name: pkg.name, range: pkg.engines?.node }))
      const inTurbo = inRange
        .filter((p) => testedInTurbo(p.pkg, version))
        .map(({ pkg }) => ({ name: pkg.name }))
      const addons = await ready
      const nodeBinary = await node
      const results = await Promise.all(
        admitted.map(({ dir, pkg, files }) =>
          slots.add(async () => {
            const since = Date.now()
            const vitest = join(dir, "node_modules", "vitest", "vitest.mjs")
            const status = await run(
              `${pkg.name}:test:${line}`,
              nodeBinary,
              [
                relative(dir, vitest),
                "run",
                "--reporter=default",
                "--reporter=json",
                `--outputFile.json=${lineReport(version)}`,
                ...args,
                // only the files a Node line can change, when some are not
                ...(files.lines.length < files.all.length ? files.lines : [])
              ],
              {
                cwd: dir,
                // `node` on the PATH is the line's too, as under npx.
                env: {
                  ...process.env,
                  ...lineEnv,
                  PATH: [dirname(nodeBinary), process.env.PATH].filter(Boolean).join(delimiter)
                }
              }
            )
            const file = join(dir, lineReport(version))
            const report = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined
            return {
              name: pkg.name,
              dir,
              status,
              seconds: seconds(since),
              report,
              files: { run: files.lines.length, of: files.all.length }
            }
          })
        )
      )
      return {
        version,
        headers,
        seconds: seconds(started),
        endedAt: Date.now(),
        addons,
        packages: results,
        notRun,
        inTurbo,
        machineOnly
      }
    })
  )
}
