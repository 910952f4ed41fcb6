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
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { runCommand } from "../src/command.mjs"
import { codeBlocks, installCommands, root, workspaceDirs } from "../src/workspace.mjs"

const here = fileURLToPath(new URL("..", import.meta.url))
const bin = join(here, "node_modules", ".bin")
const readme = join(root, "apps", "contract-tests", "README.md")
const KEY = "docs-run-key"
/** The deployment URLs the examples name, each answered by the reference server here. */
const DEPLOYMENTS = /https:\/\/(staging|qa|canary)\.example\.com|"\$URL"|"\$BASE_URL"/g
/**
 * What a whole run is cut to (loopback needs no rate limit): one read by id, a fifth of the CPU of
 * one list (whose walks and searches send hundreds of requests at any example count).
 */
const SMALL = "--operations GetResource --examples 2 --rate-limit 0"
/** A run cut to one list, for the hooks files: their examples judge a list's page. */
const SMALL_LIST = "--operations ListSatellites --examples 2 --rate-limit 0"
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
/** The lines of a markdown file's sh blocks: continuations joined, comments left out. */
const shLines = (file: string): ReadonlyArray<string> =>
  codeBlocks(file, "sh")
    .flatMap((block) => block.replace(/\\\n\s*/g, "").split("\n"))
    .map((line) => line.replace(/(^|\s+)#.*$/, "").trim())
    .filter((line) => line !== "")

/** A published package run without installing it (`npx`, `pnpm dlx`): its command, installed here. */
const installed = (line: string) =>
  line
    .replace(/^(npx|pnpm dlx) @data-access\/contract-tests\b/, "contract-tests")
    .replace(/^(npx|pnpm dlx) @data-access\/reference-server\b/, "data-access-reference-server")

/** A usage line with every `[optional]` part given, the first of its `a|b|c` choices. */
const everyOption = (line: string) =>
  line.replace(/\[([^\]]+)\]/g, (_, inner: string) => inner.replace(/\b([\w.]+)(\|[\w.]+)+/g, "$1"))

/** Every `contract-tests` line of the sh blocks (`npx` / `pnpm dlx` ones too) that runs as written (no `[optional]` syntax). */
const commands = shLines(readme)
  .map(installed)
  .filter((line) => /^(\w+=\S+ )*contract-tests( |$)/.test(line) && !line.includes("["))
/** The usage lines with `[optional]` parts, each with all of them given. */
const usages = shLines(readme)
  .filter((line) => /^contract-tests (proxy|judge) /.test(line) && line.includes("["))
  .map(everyOption)

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
  const whole = !/ (list|judge|merge|replay|proxy) |--operations|--replay|--dry-run|--help/.test(
    here
  )
  return whole ? `${here.replace(/ --examples \d+/, "")} ${SMALL} --quiet` : here
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
        `contract-tests --base-url ${url} --fixtures ids.json --hooks ${file} ${SMALL_LIST} --quiet`
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

/** A line that serves until stopped (a server, a proxy), started in `cwd` by bash. */
interface Served {
  /** The URL it printed, or undefined when it exited first. */
  readonly url: string | undefined
  /** Stops it with SIGTERM: its process (`contract-tests` passes it on), or its whole group. */
  readonly stop: (group?: "group") => void
  readonly exited: Promise<{ code: number | null; out: string; err: string }>
}

/** Starts a line that prints `listening on URL` (a server) or `proxy: URL →` (a proxy). */
const serve = async (
  line: string,
  cwd: string,
  env: Record<string, string> = {}
): Promise<Served> => {
  const child = spawn("bash", ["-c", line], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PATH: `${bin}${delimiter}${process.env.PATH ?? ""}`,
      NO_COLOR: "1",
      ...env
    }
  })
  let out = ""
  let err = ""
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve))
  const url = await new Promise<string | undefined>((resolve) => {
    const look = () => {
      const m = /(?:listening on|proxy:) (http:\/\/[^\s,]+)/.exec(out + err)
      if (m) resolve(m[1])
    }
    child.stdout.setEncoding("utf8").on("data", (d: string) => ((out += d), look()))
    child.stderr.setEncoding("utf8").on("data", (d: string) => ((err += d), look()))
    void closed.then(() => resolve(undefined))
  })
  return {
    url,
    stop: (group) => (group ? process.kill(-child.pid!, "SIGTERM") : child.kill("SIGTERM")),
    exited: closed.then((code) => ({ code, out, err }))
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
  shLines(file)
    .map(installed)
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
    const served = await serve(local, work)
    if (served.url !== undefined) served.stop("group")
    const { code, out, err } = await served.exited
    expect({ line: local, code, stderr: err }).toEqual({ line: local, code: 0, stderr: "" })
    // --help prints the options; every other line serves until stopped.
    expect(out).toMatch(line.includes("--help") ? /OPTIONS/ : /listening on http:\/\//)
  })
})

/** A call through a proxy (or to a server) with the key: a valid request, or one with `limit` out of range. */
const call = (base: string, key: string, limit: number) =>
  fetch(`${base}/core.v1.SatelliteService/ListSatellites`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ limit })
  }).then((r) => r.status)

const rootReadme = join(root, "README.md")
/** The workspace's turbo, run as its scripts run it. */
const turbo = join(root, "node_modules", ".bin", "turbo")
const rootPackage = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  packageManager: string
  scripts: Record<string, string>
}

describe("the root README's commands", () => {
  const [mainJob, everyTest] = codeBlocks(rootReadme, "sh").map((b: string) => b.trim()) as [
    string,
    string
  ]
  /** The README line's commands after the install it starts with. */
  const after = (line: string) => line.split(" && ").slice(2)

  it("both lines install the workspace's pnpm, then the lockfile's packages", () => {
    for (const line of [mainJob, everyTest])
      expect(line.split(" && ").slice(0, 2)).toEqual([
        `npm install -g ${rootPackage.packageManager}`,
        "pnpm install --frozen-lockfile"
      ])
  })

  it("the line that runs every test is the one CI runs, verbatim", () => {
    expect(after(everyTest)).toEqual(["pnpm test"])
    expect(readFileSync(join(root, ".ci", "run"), "utf8").split("\n")).toContain(everyTest)
  })

  it.concurrent(
    "the main job, `pnpm contract-tests`: its build step builds the runner and what it imports, and its run passes against the embedded reference server",
    async () => {
      expect(after(mainJob)).toEqual(["pnpm contract-tests"])
      const [build, runner, ...rest] = rootPackage.scripts["contract-tests"]!.split(" && ")
      expect(rest).toEqual([])
      // The build step as turbo plans it (a dry run: the suite's packages are built already).
      const plan = await sh(`${turbo}${build!.replace(/^turbo/, "")} --dry-run=json`, root)
      expect(plan.status, plan.stderr).toBe(0)
      const tasks = (JSON.parse(plan.stdout) as { tasks: Array<{ package: string; task: string }> })
        .tasks
      expect(tasks.map((t) => `${t.package}#${t.task}`)).toEqual(
        expect.arrayContaining([
          "@data-access/contract-tests#build",
          "@data-access/reference-server#build",
          "@data-access/schema#build"
        ])
      )
      const r = await sh(`${runner} ${SMALL} --quiet`, root)
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
      expect(r.stdout).toMatch(/^PASS: 0 findings/m)
    }
  )

  it("the add lines are the client packages' own README lines, which the packed-install tests run", () => {
    const adds = shLines(rootReadme).filter((line) => line.startsWith("pnpm add "))
    expect(adds).toHaveLength(2)
    const own = ["client", "client-effect4"].flatMap((name) =>
      shLines(join(root, "packages", name, "README.md"))
    )
    for (const line of adds) expect(own).toContain(line)
  })
})

/** The lines of the READMEs and docs that run a workspace script or a repository file. */
const devLines = docs.flatMap((file) =>
  shLines(file).filter((line) =>
    /^(pnpm (--filter \S+ )?[\w:-]+|(\w+=\S+ )*node [\w./-]+\.mjs( .*)?)$/.test(line)
  )
)
/** Every workspace package's manifest, by name (the root's as ""). */
const manifests = new Map<string, { scripts?: Record<string, string> }>([
  ["", rootPackage],
  ...(workspaceDirs() as ReadonlyArray<string>).map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
    return [pkg.name as string, pkg] as const
  })
])

describe("the development lines of the READMEs", () => {
  it("there are lines to check", () => {
    expect(devLines.length).toBeGreaterThanOrEqual(10)
  })

  // Each runs a whole build or suite: what is checked is that the package and its script, or
  // the file, exist (the test command runs every one of them).
  it.each(devLines.map((line) => [line] as const))("%s", (line) => {
    const node = /node ([\w./-]+\.mjs)/.exec(line)
    if (node !== null) return expect(existsSync(join(root, node[1]!)), node[1]).toBe(true)
    const [, name = "", script] = /^pnpm (?:--filter (\S+) )?([\w:-]+)$/.exec(line)!
    expect(
      manifests.get(name)?.scripts?.[script!],
      `${name || "the root"}: ${script}`
    ).toBeDefined()
  })
})

describe("docs/checks.md's example run", () => {
  const [serverLine, runLine] = shLines(join(root, "docs", "checks.md"))

  it.concurrent(
    "the reference server with the violation switched on, and the run that finds it",
    async () => {
      expect(serverLine).toMatch(/^data-access-reference-server --port (\d+) --faults '/)
      expect(runLine).toMatch(/^DATA_ACCESS_API_KEY=\S+ contract-tests --base-url /)
      const work = mkdtempSync(join(here, "node_modules", ".docs-checks-"))
      const port = /--port (\d+)/.exec(serverLine!)![1]
      const server = await serve(serverLine!.replace(`--port ${port}`, "--port 0"), work)
      try {
        expect(server.url).toBeDefined()
        const line = runLine!.replace(`http://127.0.0.1:${port}`, server.url!)
        const violation = /"name":"([\w-]+)"/.exec(serverLine!)![1]
        // One list operation and two examples: the check the line names still sees the violation.
        const r = await sh(`${line} --operations ListSatellites --examples 2 --rate-limit 0`, work)
        expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 1 })
        const check = /--checks (\S+)/.exec(runLine!)![1]
        expect(r.stdout).toMatch(new RegExp(`^\\[\\w+\\] ${check} · ListSatellites · `, "m"))
        expect(violation).toBe("paging-duplicates")
      } finally {
        server.stop("group")
        await server.exited
        rmSync(work, { recursive: true, force: true })
      }
    }
  )
})

const fleet = join(root, "docs", "proxy-fleet.md")

describe("docs/proxy-fleet.md, run", () => {
  const [proxyLine] = shLines(fleet).filter((line) => line.startsWith("contract-tests proxy "))
  const [scrapeYaml, alertsYaml] = codeBlocks(fleet, "yaml") as [string, string]
  const scrape = (
    parse(scrapeYaml) as {
      scrape_configs: Array<{
        metrics_path: string
        static_configs: Array<{ targets: Array<string> }>
      }>
    }
  ).scrape_configs[0]!
  const alerts = (
    parse(alertsYaml) as { groups: Array<{ rules: Array<{ expr: string }> }> }
  ).groups.flatMap((g) => g.rules.map((r) => r.expr))
  const queries = [
    ...codeBlocks(fleet, "promql").flatMap((b: string) => b.trim().split("\n")),
    ...alerts
  ]
  /** The README's line that reads the proxy's metrics. */
  const curlLine = shLines(readme).find(
    (line) => line.startsWith("curl ") && line.includes("/__contract/metrics")
  )!

  it("has the proxy's line, the scrape config, queries and an alert", () => {
    expect(proxyLine).toBeDefined()
    expect(queries.length).toBeGreaterThanOrEqual(7)
    expect(alerts).toHaveLength(1)
  })

  it.concurrent(
    "a replica started from its line relays, Prometheus' scrape path answers with every metric and label the queries and the alert use, and it stops cleanly",
    async () => {
      const port = /--port (\d+)/.exec(proxyLine!)![1]!
      // Prometheus scrapes the port the replicas listen on.
      for (const target of scrape.static_configs.flatMap((c) => c.targets))
        expect(target.endsWith(`:${port}`), target).toBe(true)
      expect(curlLine).toContain(`:${port}/`)
      const work = mkdtempSync(join(here, "node_modules", ".docs-fleet-"))
      const proxy = await serve(
        proxyLine!.replace(DEPLOYMENTS, url).replace(`--port ${port}`, "--port 0"),
        work
      )
      try {
        expect(proxy.url).toBeDefined()
        expect(await call(proxy.url!, KEY, 2)).toBe(200)
        // A client finding, so the findings counter has a sample with its labels.
        expect(await call(proxy.url!, KEY, 501)).toBe(400)
        const local = new URL(proxy.url!)
        const viaCurl = await sh(
          curlLine.replace(
            `127.0.0.1:${port}`,
            `${local.hostname === "0.0.0.0" ? "127.0.0.1" : local.hostname}:${local.port}`
          ),
          work
        )
        expect(viaCurl.status, viaCurl.stderr).toBe(0)
        const scraped = await fetch(`http://127.0.0.1:${local.port}${scrape.metrics_path}`).then(
          (r) => r.text()
        )
        expect(viaCurl.stdout).toContain("# TYPE contract_proxy_findings_total counter")
        /** The label names of a metric's samples in the exposition. */
        const labelsOf = (metric: string) =>
          new Set(
            [...scraped.matchAll(new RegExp(`^${metric}\\{([^}]*)\\}`, "gm"))].flatMap((m) =>
              [...m[1]!.matchAll(/(\w+)="/g)].map((l) => l[1]!)
            )
          )
        for (const query of queries) {
          const metrics = [...query.matchAll(/contract_proxy_\w+/g)].map((m) => m[0])
          expect(metrics.length, query).toBeGreaterThan(0)
          // Prometheus adds job and instance to every scraped sample.
          const labels = [
            ...[...query.matchAll(/by \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(/,\s*/)),
            ...[...query.matchAll(/(\w+)="[^"]*"/g)].map((m) => m[1]!)
          ].filter((l) => l !== "job" && l !== "instance")
          const known = new Set(metrics.flatMap((m) => [...labelsOf(m)]))
          for (const metric of metrics)
            expect(scraped, `${metric} in ${query}`).toMatch(new RegExp(`^${metric}[{ ]`, "m"))
          for (const label of labels) expect([...known], `${label} in ${query}`).toContain(label)
        }
      } finally {
        proxy.stop()
      }
      const { code, err } = await proxy.exited
      rmSync(work, { recursive: true, force: true })
      // --fail-on none: the client's finding does not fail the replica.
      expect({ code, stderr: err.replace(/^contract-tests proxy: http:\/\/.*\n/, "") }).toEqual({
        code: 0,
        stderr: ""
      })
    }
  )
})

describe("the contract tests README's usage lines, every optional part given", () => {
  it("has the proxy's and the judge's", () => {
    expect(usages.map((line) => line.split(" ")[1])).toEqual(["proxy", "judge"])
    for (const line of usages) expect(line).not.toMatch(/[[\]|]/)
  })

  it.concurrent(
    "the proxy's: relays, and at SIGTERM writes every report it names and exits 0",
    async () => {
      const line = usages.find((l) => l.startsWith("contract-tests proxy "))!
      const work = mkdtempSync(join(here, "node_modules", ".docs-usage-proxy-"))
      const proxy = await serve(
        line.replace(DEPLOYMENTS, url).replace(/--port \d+/, "--port 0"),
        work
      )
      try {
        expect(proxy.url).toBeDefined()
        expect(await call(proxy.url!, KEY, 2)).toBe(200)
      } finally {
        proxy.stop()
      }
      const { code, out, err } = await proxy.exited
      try {
        expect({ code, stderr: err.replace(/^contract-tests proxy: http:\/\/.*\n/, "") }).toEqual({
          code: 0,
          stderr: ""
        })
        expect(out).toMatch(/^PASS: 0 findings/m)
        for (const file of filesOf(line).concat(line.match(/reports\/\S+\.(?:xml|html)/g) ?? []))
          expect(existsSync(join(work, file)), file).toBe(true)
      } finally {
        rmSync(work, { recursive: true, force: true })
      }
    }
  )

  it.concurrent(
    "the judge's: judges recorded traffic, no server finding, and writes every report it names",
    async () => {
      const line = usages.find((l) => l.startsWith("contract-tests judge "))!
      const work = mkdtempSync(join(here, "node_modules", ".docs-usage-judge-"))
      try {
        const recorded = /judge (\S+\.har)/.exec(line)![1]!
        // The runner's own traffic stands in for the user's recording.
        const make = await sh(
          `contract-tests --base-url ${url} --har ${recorded} ${SMALL} --quiet`,
          work
        )
        expect(make.status, make.stderr).toBe(0)
        const r = await sh(line.replace(DEPLOYMENTS, url), work)
        // The runner's invalid requests are the client's findings (--fail-on any): exit 1.
        expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 1, stderr: "" })
        const json = /--json (\S+)/.exec(line)![1]!
        const report = JSON.parse(readFileSync(join(work, json), "utf8")) as {
          findings: Array<{ side?: string }>
        }
        expect(report.findings.length).toBeGreaterThan(0)
        expect(report.findings.filter((f) => f.side !== "client")).toEqual([])
        for (const file of line.match(/reports\/\S+\.(?:xml|json|html)/g) ?? [])
          expect(existsSync(join(work, file)), file).toBe(true)
      } finally {
        rmSync(work, { recursive: true, force: true })
      }
    }
  )
})

describe("the contract tests README's job from a clone", () => {
  const job = (
    parse(codeBlocks(readme, "yaml")[0]!) as {
      "contract-tests": { steps: Array<{ run?: string; env?: Record<string, string> }> }
    }
  )["contract-tests"]
  const runs = job.steps.flatMap((step) => (step.run === undefined ? [] : [step]))

  it.concurrent(
    "installs as the README's first line does, builds the runner, and its run writes every report it names",
    async () => {
      const [install, build, contract] = runs as [
        { run: string },
        { run: string },
        { run: string; env: Record<string, string> }
      ]
      expect(codeBlocks(rootReadme, "sh")[0]).toContain(install.run)
      expect(build.run).toMatch(
        /^pnpm turbo run build --filter=@data-access\/contract-tests\.\.\.$/
      )
      const plan = await sh(`${build.run.replace(/^pnpm turbo/, turbo)} --dry-run=json`, root)
      expect(plan.status, plan.stderr).toBe(0)
      expect(plan.stdout).toContain('"@data-access/contract-tests#build"')
      const work = mkdtempSync(join(here, "node_modules", ".docs-job-"))
      try {
        const fixtures = /--fixtures (\S+)/.exec(contract.run)![1]!
        mkdirSync(join(work, fixtures, ".."), { recursive: true })
        copyFileSync(join(dir, "ids.json"), join(work, fixtures))
        const line = contract.run
          .trim()
          .replace(/^node apps\//, `node ${join(root, "apps")}/`)
          .replace(/\$\{\{ github\.run_number \}\}/, "17")
          .replace(DEPLOYMENTS, url)
        expect(Object.keys(contract.env)).toEqual(["DATA_ACCESS_API_KEY"])
        const r = await sh(`${line} ${SMALL} --quiet`, work)
        expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
        const reports = line.match(/reports\/\S+/g) ?? []
        expect(reports).toHaveLength(4)
        for (const file of reports) expect(existsSync(join(work, file)), file).toBe(true)
      } finally {
        rmSync(work, { recursive: true, force: true })
      }
    }
  )
})

/** The contract tests README's fixtures document: the KnownIds shape, with placeholder ids. */
const fixturesExample = codeBlocks(readme, "json").find((code: string) =>
  code.includes('"encryptionKeyIds"')
)!

describe("the contract tests README's fixtures document", () => {
  it.concurrent("is read as a fixtures file by a dry run", async () => {
    const work = mkdtempSync(join(here, "node_modules", ".docs-fixtures-"))
    try {
      writeFileSync(join(work, "fixtures.json"), fixturesExample)
      const r = await sh(
        `contract-tests --dry-run --base-url ${url} --fixtures fixtures.json --operations GetResource`,
        work
      )
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" })
      expect(r.stdout).toContain("GetResource")
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })
})

describe("every block of the READMEs and docs/ is accounted for", () => {
  /** The install lines, which the packed-install smoke tests run in an empty project. */
  const installs = docs.flatMap((file) =>
    (installCommands(file) as ReadonlyArray<{ line: string }>).map((c) =>
      c.line.replace(/(^|\s+)#.*$/, "").trim()
    )
  )
  /** The lines the tests of this file run or check, as the docs write them. */
  const ran = new Set([
    ...shLines(readme).filter(
      (line) =>
        commands.includes(installed(line)) ||
        usages.includes(everyOption(line)) ||
        line.includes("/__contract/metrics")
    ),
    ...docs.flatMap((file) =>
      shLines(file).filter((line) => serverLines.includes(installed(line)))
    ),
    ...codeBlocks(rootReadme, "sh").map((b: string) => b.trim()),
    ...devLines,
    ...shLines(fleet).filter((line) => line.startsWith("contract-tests proxy ")),
    ...shLines(join(root, "docs", "checks.md"))
  ])
  // Setting the key the other lines read.
  const environment = (line: string) => /^export DATA_ACCESS_API_KEY=/.test(line)

  it("every line of an sh block is run by a test of this file, or installed by the smoke tests", () => {
    const left = docs.flatMap((file) =>
      shLines(file)
        .filter((line) => !ran.has(line) && !installs.includes(line) && !environment(line))
        .map((line) => `${file.slice(root.length)}: ${line}`)
    )
    expect(left).toEqual([])
  })

  it("every json, js, yaml and promql block is a file a test of this file runs", () => {
    const used = new Set(
      [
        ...hooksFiles,
        ...configFiles,
        fixturesExample,
        serverFiles["fixtures.json"],
        ...codeBlocks(readme, "yaml"),
        ...codeBlocks(fleet, "yaml"),
        ...codeBlocks(fleet, "promql")
      ].map((code) => code.trim())
    )
    const left = docs.flatMap((file) =>
      ["json", "js", "yaml", "promql"].flatMap((lang) =>
        (codeBlocks(file, lang) as ReadonlyArray<string>)
          .filter((code) => !used.has(code.trim()))
          .map((code) => `${file.slice(root.length)} (${lang}): ${code.split("\n")[0]}`)
      )
    )
    expect(left).toEqual([])
  })

  it("the other blocks are TypeScript (the READMEs' programs, which docs.test.ts type-checks; docs/architecture.md's API listing) or printed output", () => {
    const langs = new Set(
      docs.flatMap((file) =>
        [...readFileSync(file, "utf8").matchAll(/```(\w*)\n/g)].map((m) => m[1])
      )
    )
    expect(
      [...langs].filter((l) => !["sh", "json", "js", "yaml", "promql", "ts", ""].includes(l!))
    ).toEqual([])
  })
})
