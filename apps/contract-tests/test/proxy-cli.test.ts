// `contract-tests proxy` as a CI job runs it: the built command line in its own process, a
// reference server behind it, traffic through it, the report on demand, SIGUSR2 and SIGTERM.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { ReferenceServer } from "@data-access/reference-server"
import type * as Report from "../src/Report.js"

const SECRET = "proxy-cli-KEY-5e4d3c2b1a"
const bin = fileURLToPath(new URL("../bin/contract-tests.js", import.meta.url))

interface ProxyProcess {
  readonly url: string
  readonly output: () => { readonly stdout: string; readonly stderr: string }
  /** Waits until stderr matches. */
  readonly stderrMatches: (pattern: RegExp) => Effect.Effect<void>
  readonly signal: (signal: NodeJS.Signals) => void
  /** The signal sent to the process group the command was started in (`group`), as a CI runner sends it. */
  readonly signalGroup: (signal: NodeJS.Signals) => void
  /** The exit code once the process has exited. */
  readonly exited: Effect.Effect<number | null>
}

/**
 * `contract-tests proxy --port 0 ARGS` in its own process (in a process group of its own with
 * `group`); its URL once it listens (from its first stderr line).
 */
const proxyProcess = (args: ReadonlyArray<string>, options: { readonly group?: boolean } = {}) =>
  Effect.acquireRelease(
    Effect.async<ProxyProcess, Error>((resume) => {
      const child = spawn(process.execPath, [bin, "proxy", "--port", "0", ...args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1" },
        detached: options.group === true
      })
      let stdout = ""
      let stderr = ""
      let listening = false
      const exited = new Promise<number | null>((resolve) =>
        child.on("exit", (code) => resolve(code))
      )
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => {
        stderr += d
        const m = /^contract-tests proxy: (http:\/\/\S+) → /m.exec(stderr)
        if (m !== null && !listening) {
          listening = true
          resume(
            Effect.succeed({
              url: m[1]!,
              output: () => ({ stdout, stderr }),
              stderrMatches: (pattern) =>
                Effect.promise(async () => {
                  while (!pattern.test(stderr)) await new Promise((r) => setTimeout(r, 20))
                }),
              signal: (signal) => child.kill(signal),
              signalGroup: (signal) => process.kill(-child.pid!, signal),
              exited: Effect.promise(() => exited)
            })
          )
        }
      })
      void exited.then((code) => {
        if (!listening)
          resume(
            Effect.fail(
              new Error(`contract-tests proxy exited with ${code} before listening: ${stderr}`)
            )
          )
      })
    }),
    (proxy) =>
      Effect.sync(() => {
        try {
          proxy.signalGroup("SIGKILL")
        } catch {
          proxy.signal("SIGKILL")
        }
      })
  )

const rpc = (base: string, method: string, body: unknown) =>
  Effect.promise(() =>
    fetch(`${base}/core.v1.SatelliteService/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": SECRET },
      body: JSON.stringify(body)
    }).then(async (res) => ({ status: res.status, body: await res.text() }))
  )

const waitForFile = (file: string) =>
  Effect.promise(async () => {
    while (!Fs.existsSync(file) || Fs.statSync(file).size === 0)
      await new Promise((r) => setTimeout(r, 20))
    return Fs.readFileSync(file, "utf8")
  })

describe("contract-tests proxy, the command line in its own process", () => {
  it.scoped(
    "relays traffic, logs each finding live, reports on GET, writes the files on SIGUSR2, and at SIGTERM prints the report and exits by --fail-on; the key appears nowhere",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [SECRET] })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-proxy-"))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
        )
        const json = Path.join(dir, "report.json")
        const junit = Path.join(dir, "junit.xml")
        const proxy = yield* proxyProcess([
          "--target",
          server.url,
          "--fail-on",
          "client",
          "--json",
          json,
          "--junit",
          junit
        ])

        const direct = yield* rpc(server.url, "ListSatellites", { limit: 2 })
        const relayed = yield* rpc(proxy.url, "ListSatellites", { limit: 2 })
        expect(relayed).toEqual(direct)
        expect(relayed.status).toBe(200)
        // A client that breaks a request rule: the server's answer is relayed, the client is flagged.
        const tooMany = yield* rpc(proxy.url, "ListSatellites", { limit: 501 })
        expect(tooMany.status).toBe(400)
        yield* proxy.stderrMatches(/client · lists\.limit-range · ListSatellites/)

        const onDemand = yield* Effect.promise(() =>
          fetch(`${proxy.url}/__contract/report`).then((r) => r.json() as Promise<Report.Report>)
        )
        expect(onDemand.findings.map((f) => [f.side, f.rule])).toEqual([
          ["client", "lists.limit-range"]
        ])

        proxy.signal("SIGUSR2")
        const written = JSON.parse(yield* waitForFile(json)) as Report.Report
        expect(written.findings.map((f) => f.rule)).toEqual(["lists.limit-range"])
        expect(yield* waitForFile(junit)).toMatch(/<testsuites[^>]*failures="1"/)

        proxy.signal("SIGTERM")
        expect(yield* proxy.exited).toBe(1)
        const { stderr, stdout } = proxy.output()
        expect(stdout).toMatch(/FAIL: 1 findings/)
        expect(stdout).toContain("lists.limit-range")
        for (const text of [
          stdout,
          stderr,
          Fs.readFileSync(json, "utf8"),
          Fs.readFileSync(junit, "utf8")
        ])
          expect(text).not.toContain(SECRET)
      })
  )

  it.scoped(
    "a SIGTERM to its process group, which reaches the command twice (directly and passed on by the launcher), still prints and writes the report and exits by --fail-on",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [SECRET] })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-proxy-group-"))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
        )
        // The two deliveries race: a few rounds, each a stop as a cancelled CI job stops it.
        for (const round of [1, 2, 3]) {
          const json = Path.join(dir, `report-${round}.json`)
          const proxy = yield* proxyProcess(
            ["--target", server.url, "--fail-on", "client", "--quiet", "--json", json],
            { group: true }
          )
          expect((yield* rpc(proxy.url, "ListSatellites", { limit: 501 })).status).toBe(400)
          proxy.signalGroup("SIGTERM")
          expect(yield* proxy.exited, `round ${round}: ${proxy.output().stderr}`).toBe(1)
          expect(proxy.output().stdout).toMatch(/FAIL: 1 findings/)
          const written = JSON.parse(Fs.readFileSync(json, "utf8")) as Report.Report
          expect(written.findings.map((f) => f.rule)).toEqual(["lists.limit-range"])
        }
      })
  )

  it.scoped("--fail-on server: client findings alone exit 0 at SIGTERM", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({ apiKeys: [SECRET] })
      const proxy = yield* proxyProcess(["--target", server.url, "--fail-on", "server", "--quiet"])
      expect((yield* rpc(proxy.url, "ListSatellites", { limit: 501 })).status).toBe(400)
      const onDemand = yield* Effect.promise(() =>
        fetch(`${proxy.url}/__contract/report?format=terminal`).then((r) => r.text())
      )
      expect(onDemand).toMatch(/FAIL: 1 findings/)
      proxy.signal("SIGTERM")
      expect(yield* proxy.exited).toBe(0)
      // --quiet: no live finding line, the report still printed at shutdown
      expect(proxy.output().stderr).not.toContain("lists.limit-range")
      expect(proxy.output().stdout).toContain("lists.limit-range")
    })
  )

  it.scoped(
    "--har-max-body: the HAR written at SIGTERM cuts each longer body and says so; the run's option, with the run's help",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [SECRET] })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-proxy-"))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
        )
        const har = Path.join(dir, "traffic.har")
        const proxy = yield* proxyProcess([
          "--target",
          server.url,
          "--quiet",
          "--har",
          har,
          "--har-max-body",
          "40"
        ])
        const sent = { limit: 2, search: "x".repeat(200) }
        expect((yield* rpc(proxy.url, "ListSatellites", sent)).status).toBe(200)
        proxy.signal("SIGTERM")
        expect(yield* proxy.exited).toBe(0)
        const [entry] = (
          JSON.parse(Fs.readFileSync(har, "utf8")) as {
            log: {
              entries: Array<{
                request: { bodySize: number; postData: { text: string; comment?: string } }
              }>
            }
          }
        ).log.entries
        expect(entry!.request.bodySize).toBe(JSON.stringify(sent).length)
        expect(entry!.request.postData.text).toBe(JSON.stringify(sent).slice(0, 40))
        expect(entry!.request.postData.comment).toBe(
          `body shortened to its first 40 bytes of ${JSON.stringify(sent).length} (--har-max-body)`
        )
        const help = (yield* Effect.promise(
          () =>
            new Promise<string>((resolve) => {
              const child = spawn(process.execPath, [bin, "proxy", "--help"], {
                env: { ...process.env, NO_COLOR: "1" }
              })
              let out = ""
              child.stdout.on("data", (d) => (out += d))
              child.on("close", () => resolve(out))
            })
        )).replace(/\s+/g, " ")
        expect(help).toContain(
          "--har-max-body integer Cut each body in the --har file to this many bytes, saying so in the body's comment (default: bodies whole)"
        )
        expect(help).not.toContain("CONTRACT_TESTS_HAR_MAX_BODY")
      })
  )

  it.effect("a port already taken: exit 2 with the reason", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const port = new URL(server.url).port
      const child = spawn(
        process.execPath,
        [bin, "proxy", "--target", server.url, "--port", port],
        { stdio: ["ignore", "pipe", "pipe"] }
      )
      let stderr = ""
      child.stderr.on("data", (d) => (stderr += d))
      const code = yield* Effect.promise(
        () => new Promise<number | null>((resolve) => child.on("exit", resolve))
      )
      expect(code).toBe(2)
      expect(stderr).toContain("the proxy could not listen")
    }).pipe(Effect.scoped)
  )
})
