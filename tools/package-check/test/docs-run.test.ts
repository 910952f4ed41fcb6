// The contract tests README's hooks files, config file and command lines run as a user runs them:
// read from the Markdown (not copied here), against one reference server started from its command
// line, with the runner's command line. The deployment URLs of the examples name that server;
// a run the example leaves whole is cut to two examples of one operation, to keep the cost low.
import { spawn } from "node:child_process"
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runCommand } from "../src/command.mjs"
import { codeBlocks, root } from "../src/workspace.mjs"

const here = fileURLToPath(new URL("..", import.meta.url))
const bin = join(here, "node_modules", ".bin")
const readme = join(root, "apps", "contract-tests", "README.md")
const KEY = "docs-run-key"
/** The deployment URLs the examples name, each answered by the reference server here. */
const DEPLOYMENTS = /https:\/\/(staging|qa|canary)\.example\.com|"\$URL"|"\$BASE_URL"/g
/** What a whole run is cut to (loopback needs no rate limit). */
const SMALL = "--operations ListSatellites --examples 2 --rate-limit 0"
/** The user's own files an example reads, each made by the line that stands in for its source. */
const STAND_INS: Readonly<Record<string, (url: string) => string>> = {
  // Recorded traffic: the runner's own, which holds the invalid requests it sends on purpose.
  "e2e-traffic.har": (url) =>
    `contract-tests --base-url ${url} --har e2e-traffic.har ${SMALL} --quiet`
}

const hooksFiles = codeBlocks(readme, "js").filter((code) => code.startsWith("// hooks.mjs\n"))
const configFiles = codeBlocks(readme, "json").filter((code) =>
  code.includes("contract-tests.config.schema.json")
)
/** Every `contract-tests` line of the sh blocks that runs as written (no `[optional]` syntax). */
const commands = codeBlocks(readme, "sh")
  .flatMap((block) => block.replace(/\\\n\s*/g, "").split("\n"))
  .map((line) => line.replace(/\s+#.*$/, "").trim())
  .filter((line) => /^(\w+=\S+ )*contract-tests( |$)/.test(line) && !line.includes("["))

let dir: string
let url: string
let stopServer: () => void = () => {}

/** Runs a shell line in the work directory with the runner on the PATH and the key in the environment. */
const sh = (line: string, cwd = dir) =>
  runCommand("bash", ["-c", line], {
    cwd,
    encoding: "utf8",
    timeout: 240_000,
    env: {
      ...process.env,
      PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`,
      DATA_ACCESS_API_KEY: KEY,
      NO_COLOR: "1"
    }
  })

const FILE = /[\w./*-]+\.(?:har|json)\b/g
/** The files a line names (`reports/a.har`, `shard-*.json`) other than the fixtures every line reads. */
const filesOf = (line: string): ReadonlyArray<string> =>
  [...line.matchAll(FILE)].map((m) => m[0]).filter((f) => f !== "ids.json")
const patternOf = (name: string) =>
  new RegExp(`^${name.replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}$`)
const share = (a: string, b: string) =>
  filesOf(a).some((x) => filesOf(b).some((y) => patternOf(x).test(y) || patternOf(y).test(x)))
/**
 * For each command line, the earlier lines it waits for: those naming a file it names (the HAR a
 * replay reads, the baseline, the shards a merge reads). The others run beside each other.
 */
const after = commands.map((line, i) =>
  commands.slice(0, i).flatMap((earlier, j) => (share(line, earlier) ? [j] : []))
)
const finished = commands.map(() => {
  let done: () => void = () => {}
  const promise = new Promise<void>((resolve) => (done = resolve))
  return { promise, done }
})

/** The line with the deployment named by the reference server, and a whole run cut small. */
const local = (line: string): string => {
  const here = line.replace(DEPLOYMENTS, url)
  const whole = !/ (list|judge|merge|replay|proxy) |--operations|--replay|--dry-run/.test(here)
  return whole ? `${here} ${SMALL} --quiet` : here
}

beforeAll(async () => {
  // Inside the package, so a hooks file resolves @data-access/contract-tests as an app's would.
  dir = mkdtempSync(join(here, "node_modules", ".docs-run-"))
  const child = spawn(
    process.execPath,
    [
      join(bin, "..", "@data-access", "reference-server", "bin", "reference-server.js"),
      "--port",
      "0",
      "--quiet",
      "--api-key",
      KEY,
      "--write-ids",
      join(dir, "ids.json")
    ],
    { stdio: ["ignore", "pipe", "inherit"] }
  )
  stopServer = () => child.kill("SIGTERM")
  url = await new Promise<string>((resolve, reject) => {
    let out = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.once("exit", (code) => reject(new Error(`the reference server exited (${code})`)))
  })
  // The examples' report folder.
  mkdirSync(join(dir, "reports"), { recursive: true })
})

afterAll(() => {
  stopServer()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe("the contract tests README, run", () => {
  it("has hooks files, a config file and command lines to run", () => {
    expect(hooksFiles.length).toBeGreaterThanOrEqual(2)
    expect(configFiles).toHaveLength(1)
    expect(commands.length).toBeGreaterThanOrEqual(10)
  })

  it.concurrent.each(hooksFiles.map((code, i) => [i + 1, code] as const))(
    "hooks file %i passes against a correct server",
    async (i, code) => {
      // The identity provider the first example calls is the user's own: a stand-in answers here.
      const stand = code.includes("fetchToken(")
        ? '\nasync function fetchToken() { return { value: "docs-token", expires: Date.now() + 60_000 } }\n'
        : ""
      const file = join(dir, `hooks-${i}.mjs`)
      writeFileSync(file, code + stand)
      const r = await sh(
        `contract-tests --base-url ${url} --fixtures ids.json --hooks ${file} ${SMALL} --quiet`
      )
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
      expect(r.stdout).toMatch(/PASS: 0 findings/)
    }
  )

  it.concurrent("the config file runs, and writes the reports it names", async () => {
    const config = JSON.parse(configFiles[0]!) as Record<string, unknown>
    // A folder of its own: the other lines run beside it, and the file is found from the working directory.
    const project = join(dir, "project")
    mkdirSync(join(project, "reports"), { recursive: true })
    copyFileSync(join(dir, "ids.json"), join(project, "ids.json"))
    writeFileSync(
      join(project, "contract-tests.config.json"),
      JSON.stringify({ ...config, baseUrl: url }, null, 2)
    )
    const r = await sh(`contract-tests ${SMALL} --quiet`, project)
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
    for (const key of ["junit", "html"] as const)
      expect(existsSync(join(project, String(config[key]))), key).toBe(true)
  })

  it.concurrent.each(commands.map((line, i) => [line, i] as const))("%s", async (line, i) => {
    try {
      await Promise.all(after[i]!.map((j) => finished[j]!.promise))
      await runLine(line)
    } finally {
      finished[i]!.done()
    }
  })
})

/** Runs one command line of the README (and the lines that stand in for what it reads). */
const runLine = async (line: string) => {
  for (const [file, make] of Object.entries(STAND_INS))
    if (line.includes(file)) expect((await sh(make(url))).status, file).toBe(0)
  // A sharded line runs on each of its machines: every share, as the merge after it reads them.
  const shards = /--shard (\d+)\/(\d+)/.exec(line)
  for (let i = 1; i <= Number(shards?.[2] ?? 0); i++) {
    if (i === Number(shards![1])) continue
    const share = local(line)
      .replace(/--shard \d+\//, `--shard ${i}/`)
      .replace(/shard-\d+\.json/, `shard-${i}.json`)
    expect((await sh(share)).status, share).toBe(0)
  }
  const r = await sh(local(line))
  if (/ judge /.test(line)) {
    // Judged, the runner's invalid requests are the client's findings; the server has none.
    expect(r.status, r.stderr).toBeLessThanOrEqual(1)
    expect(r.stdout).toContain("Findings")
    expect(r.stdout).not.toMatch(/^\[\w+\] server · /m)
  } else {
    expect({ line: local(line), status: r.status, stderr: r.stderr }).toMatchObject({
      status: 0
    })
  }
}

/** The markdown files of the repository that document commands: every README and docs/. */
const docs = [
  join(root, "README.md"),
  ...readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join(root, "docs", f)),
  ...["packages", "apps", "tools"].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name, "README.md"))
      .filter((f) => existsSync(f))
  )
]
const serverReadme = join(root, "packages", "reference-server", "README.md")
/** Every `data-access-reference-server` line of the docs' sh blocks. */
const serverLines = docs.flatMap((file) =>
  codeBlocks(file, "sh")
    .flatMap((block) => block.split("\n"))
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => /^(\w+=\S+ )*data-access-reference-server( |$)/.test(line))
)
/** The files the server lines read: the README's fixtures file, and a fault plan of its own. */
const serverFiles = {
  "fixtures.json": codeBlocks(serverReadme, "json").find((code) => code.includes('"spaces"'))!,
  "faults.json": /--faults '(\{.*\})'/.exec(serverLines.join("\n"))![1]!
}

describe("the reference server's command lines in the docs, run", () => {
  let work: string
  beforeAll(() => {
    work = mkdtempSync(join(here, "node_modules", ".docs-serve-"))
    for (const [file, text] of Object.entries(serverFiles)) writeFileSync(join(work, file), text)
  })
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it("has lines to run, a fixtures file and a fault plan", () => {
    expect(serverLines.length).toBeGreaterThanOrEqual(10)
    expect(JSON.parse(serverFiles["fixtures.json"])).toHaveProperty("resources")
    expect(JSON.parse(serverFiles["faults.json"])).toHaveProperty("rules")
  })

  it.concurrent.each(serverLines.map((line) => [line] as const))("%s", async (line) => {
    // A free port instead of a fixed one, so the lines run beside each other.
    const local = /--port \d+/.test(line)
      ? line.replace(/--port \d+/, "--port 0")
      : line.includes("--help")
        ? line
        : line.replace(/data-access-reference-server/, "data-access-reference-server --port 0")
    const child = spawn("bash", ["-c", local], {
      cwd: work,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`, NO_COLOR: "1" }
    })
    let out = ""
    let err = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d))
    const exited = new Promise<number | null>((resolve) => child.once("close", resolve))
    const listening = await new Promise<boolean>((resolve) => {
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d
        if (/listening on http:\/\/\S+/.test(out)) resolve(true)
      })
      void exited.then(() => resolve(false))
    })
    if (listening) process.kill(-child.pid!, "SIGTERM")
    const code = await exited
    expect({ line: local, code, stderr: err }).toEqual({ line: local, code: 0, stderr: "" })
    // --help prints the options; every other line serves until stopped.
    expect(out).toMatch(line.includes("--help") ? /OPTIONS/ : /listening on http:\/\//)
  })
})
