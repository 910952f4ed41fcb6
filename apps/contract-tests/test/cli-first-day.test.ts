import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Http2 from "node:http2"
import type { AddressInfo } from "node:net"
import { CI_INTERVAL_MS, display } from "../src/cli/progress.js"
import { probeOperation } from "../src/internal/runner/discovery.js"
import { MAX_ANNOTATIONS } from "../src/cli/github.js"
import * as Har from "../src/Har.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"
import { writeBodies } from "../src/cli/reports.js"
import { curlOf, makeReport, requestBody } from "../src/internal/findings.js"
import type { RawRequest } from "../src/internal/http.js"
import * as FileSystem from "@effect/platform/FileSystem"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as Path from "node:path"
import { Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { bin, lastLine, run, tmp } from "./cliProcess.js"

const KEY = "first-day-key-3c2b1a"

/** A target with one violation switched on: its runs have findings. */
const faulty = ReferenceServer.start({
  apiKeys: [KEY],
  faults: { rules: [{ fault: { _tag: "Violation", name: "wrong-status-for-code" } }] }
})

const against = (url: string) => [
  "--base-url",
  url,
  "--api-key",
  KEY,
  "--rate-limit",
  "0",
  "--seed",
  "5",
  "--operations",
  "GetResource",
  "--examples",
  "2"
]

describe("reports on the first day", () => {
  it.effect("a report's folder that does not exist yet is made", () =>
    Effect.gen(function* () {
      const dir = tmp()
      const r = yield* run(
        [
          "--operations",
          "GetResource",
          "--examples",
          "2",
          "--quiet",
          "--junit",
          "reports/contract.xml",
          "--html",
          "out/deep/report.html"
        ],
        { cwd: dir }
      )
      expect(r.code, r.err).toBe(0)
      expect(r.err).toBe("")
      expect(Fs.readFileSync(Path.join(dir, "reports", "contract.xml"), "utf8")).toContain(
        "<testsuites"
      )
      expect(Fs.existsSync(Path.join(dir, "out", "deep", "report.html"))).toBe(true)
    })
  )

  it.scoped(
    "a report that cannot be written is said on stderr; the other reports, the findings and exit 1 stand",
    () =>
      Effect.gen(function* () {
        const server = yield* faulty
        const dir = tmp()
        Fs.writeFileSync(Path.join(dir, "blocker"), "a regular file\n")
        const r = yield* run(
          [
            ...against(server.url),
            "--quiet",
            "--json",
            "blocker/report.json",
            "--junit",
            "reports/contract.xml",
            "--har",
            "blocker/traffic.har"
          ],
          { cwd: dir }
        )
        expect(r.code, r.err).toBe(1)
        expect(r.err).toContain(
          "contract-tests: the JSON report could not be written to blocker/report.json: its folder blocker cannot be made"
        )
        expect(r.err).toContain("the HAR could not be written to blocker/traffic.har")
        expect(lastLine(r.out)).toMatch(/^FAIL/)
        expect(Fs.readFileSync(Path.join(dir, "reports", "contract.xml"), "utf8")).toContain(
          "<failure"
        )
      })
  )
})

/** A loopback server answering every request with `answer`, counting the requests it got. */
const stub = (answer: (res: Http.ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly requests: () => number; server: Http.Server }>(
      (resume) => {
        let requests = 0
        const server = Http.createServer((req, res) => {
          requests++
          req.resume()
          req.on("end", () => answer(res))
        })
        server.listen(0, "127.0.0.1", () =>
          resume(
            Effect.succeed({
              url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
              requests: () => requests,
              server
            })
          )
        )
      }
    ),
    ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )

/**
 * `target` behind HTTP/2 without TLS only (h2c), as connect-node's documentation serves a Connect
 * service (`http2.createServer(connectNodeAdapter({ routes }))`): each call relayed as it came.
 */
const h2cFront = (target: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly server: Http2.Http2Server }>((resume) => {
      const server = Http2.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const headers = Object.entries(req.headers).filter(([k]) => !k.startsWith(":"))
          fetch(`${target}${req.url}`, {
            method: req.method,
            headers: headers as Array<[string, string]>,
            ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) })
          })
            .then(async (answer) => {
              // fetch has decoded the body: its length and encoding are the front's to set.
              const kept = [...answer.headers].filter(
                ([k]) =>
                  ![
                    "connection",
                    "keep-alive",
                    "transfer-encoding",
                    "content-encoding",
                    "content-length"
                  ].includes(k)
              )
              res.writeHead(answer.status, Object.fromEntries(kept))
              res.end(Buffer.from(await answer.arrayBuffer()))
            })
            .catch(() => res.writeHead(502).end())
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            server
          })
        )
      )
    }),
    ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  )

/** The read operations: the most requests a preflight sends before it gives up. */
const reads = Operations.all.filter((o) => o.kind === "list" || o.kind === "get").length

describe("the preflight: a base URL where the API does not answer stops the run", () => {
  it.scoped(
    "a path prefix too many: exit 2 naming the URL and what came back, after one request per read operation at most",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const r = yield* run([...against(`${server.url}/api`), "--json", "r.json"], {
          cwd: tmp()
        })
        expect(r.code, r.out + r.err).toBe(2)
        expect(r.out).toBe("")
        expect(r.err).toContain(`no operation of the API answers at ${server.url}/api`)
        expect(r.err).toContain("HTTP 404")
        expect(r.err).toContain("no operation at /api/core.v1.")
        expect(r.err).toContain("path prefix")
        expect(r.err).not.toContain(KEY)
      })
  )

  it.scoped("a host that answers 404 to everything, and one that answers an HTML page", () =>
    Effect.gen(function* () {
      for (const [status, type, body] of [
        [404, "text/plain", "404 page not found"],
        [200, "text/html", "<!doctype html><html><body>Welcome</body></html>"]
      ] as const) {
        const host = yield* stub((res) => res.writeHead(status, { "content-type": type }).end(body))
        const r = yield* run(against(host.url))
        expect(r.code, r.out + r.err).toBe(2)
        expect(r.err).toContain(`no operation of the API answers at ${host.url}`)
        expect(r.err).toContain(`HTTP ${status} (${type}) ${body}`)
        expect(r.err).toContain("its port")
        expect(host.requests()).toBeLessThanOrEqual(reads)
      }
    })
  )

  it.scoped(
    "a refused connection, a TLS failure and a bad URL, each in plain words with the URL",
    () =>
      Effect.gen(function* () {
        const closed = yield* stub((res) => res.end())
        const port = new URL(closed.url).port
        yield* Effect.async<void>((resume) => void closed.server.close(() => resume(Effect.void)))
        const refused = yield* run(against(`http://127.0.0.1:${port}`))
        expect(refused.code).toBe(2)
        expect(refused.err).toContain(`the target http://127.0.0.1:${port} cannot be reached`)
        expect(refused.err).toContain("refused")
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const tls = server.url.replace("http://", "https://")
        const handshake = yield* run(against(tls))
        expect(handshake.code).toBe(2)
        expect(handshake.err).toContain(`the target ${tls} cannot be reached`)
        expect(handshake.err).toContain("TLS handshake")
        const bad = yield* run(against("htp:/127.0.0.1"))
        expect(bad.code).toBe(2)
        expect(bad.err).toContain(`the base URL "htp:/127.0.0.1" is not an http:// or https:// URL`)
      })
  )

  it.scoped(
    "a server that speaks HTTP/2 only without TLS (h2c): the run names --http2-prior-knowledge, and with it the run goes on",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const h2c = yield* h2cFront(server.url)
        const plain = yield* run(against(h2c.url))
        expect(plain.code).toBe(2)
        expect(plain.err).toContain(`the target ${h2c.url} cannot be reached`)
        expect(plain.err).toContain("needs --http2-prior-knowledge")
        const told = yield* run([...against(h2c.url), "--http2-prior-knowledge"])
        expect(told.code, told.out + told.err).toBe(0)
        expect(told.out).toMatch(/^PASS: 0 findings .* [1-9][0-9]* requests/m)
        const tls = h2c.url.replace("http://", "https://")
        const over = yield* run([...against(tls), "--http2-prior-knowledge"])
        expect(over.code).toBe(2)
        expect(over.err).toContain("--http2-prior-knowledge is for an http:// target")
      })
  )

  it.scoped("a server that answers some operations and not others is judged", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
      // A gateway in front of it that routes every operation but the preflight's first.
      const gateway = yield* stub(() => undefined)
      gateway.server.removeAllListeners("request")
      gateway.server.on("request", (req: Http.IncomingMessage, res: Http.ServerResponse) => {
        if (req.url?.endsWith(probeOperation.path)) {
          req.resume()
          res
            .writeHead(404, { "content-type": "application/json" })
            .end(JSON.stringify({ code: "unimplemented", message: `no operation at ${req.url}` }))
          return
        }
        const upstream = Http.request(
          `${server.url}${req.url}`,
          { method: req.method, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          }
        )
        req.pipe(upstream)
      })
      const r = yield* run([...against(gateway.url), "--checks", "success-shape"])
      expect(r.code, r.err).not.toBe(2)
      expect(lastLine(r.out)).toMatch(/^(PASS|FAIL)/)
    })
  )
})

/** A target with violations of several checks and severities switched on. */
const manyFaults = ReferenceServer.start({
  apiKeys: [KEY],
  faults: {
    rules: [
      { fault: { _tag: "Violation", name: "wrong-status-for-code" } },
      { fault: { _tag: "Violation", name: "non-utc-timestamp" } },
      { methods: ["CreateBIIntegration"], fault: { _tag: "Violation", name: "secret-in-error" } }
    ]
  }
})

/** The verdict line of a run's stdout (GitHub's annotations come after it). */
const verdictLine = (out: string) =>
  out
    .split("\n")
    .filter((l) => /^(PASS|FAIL): /.test(l))
    .at(-1) ?? ""

/** The `failures` count of a JUnit report's root. */
const junitFailures = (xml: string) => Number(/<testsuites [^>]*failures="(\d+)"/.exec(xml)?.[1])

describe("one count of findings, one verdict", () => {
  it.scoped(
    "terminal, JSON, JUnit, HTML, GitHub and progress count the same findings (causes), the worst first; annotations by severity, at most 10",
    () =>
      Effect.gen(function* () {
        const server = yield* manyFaults
        const dir = tmp()
        const summary = Path.join(dir, "summary.md")
        const r = yield* run(
          [
            "--base-url",
            server.url,
            "--api-key",
            KEY,
            "--rate-limit",
            "0",
            "--seed",
            "7",
            "--examples",
            "2",
            "--creates-per-operation",
            "1",
            "--operations",
            "GetResource,ListSatellites,CreateBIIntegration",
            "--json",
            "report.json",
            "--junit",
            "report.xml",
            "--html",
            "report.html"
          ],
          { cwd: dir, env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary } }
        )
        expect(r.code, r.err).toBe(1)
        const report = JSON.parse(
          Fs.readFileSync(Path.join(dir, "report.json"), "utf8")
        ) as Report.Report
        const causes = Report.causesOf(report.findings)
        const n = causes.length
        // Several operations share a cause: the count is of causes, not of per-operation findings.
        expect(report.findings.length).toBeGreaterThan(n)
        expect(n).toBeGreaterThan(MAX_ANNOTATIONS)
        const occurrences = causes.reduce((k, c) => k + c.occurrences, 0)
        expect(verdictLine(r.out)).toMatch(
          new RegExp(`^FAIL: ${n} findings \\(${occurrences} occurrences\\) · `)
        )
        expect(r.out).toContain(`Findings: ${n} findings (${occurrences} occurrences), by cause`)
        expect(report.verdict).toEqual({
          pass: false,
          why: `${n} findings (${occurrences} occurrences)`
        })
        expect(junitFailures(Fs.readFileSync(Path.join(dir, "report.xml"), "utf8"))).toBe(n)
        expect(Fs.readFileSync(Path.join(dir, "report.html"), "utf8")).toContain(
          `data-count="findings"><b>${n}</b>`
        )
        expect(Fs.readFileSync(summary, "utf8")).toContain(
          `### contract-tests: FAIL: ${n} findings`
        )
        expect(lastLine(r.err)).toContain(`· ${n} findings so far`)
        // Annotations: one per cause, the worst first, at most ten; every cause in the summary.
        const levels = { error: 0, warning: 1, notice: 2 } as const
        const annotations = r.out
          .split("\n")
          .filter((l) => /^::(error|warning|notice) /.test(l))
          .map((l) => levels[/^::(\w+)/.exec(l)![1] as keyof typeof levels])
        expect(annotations).toHaveLength(MAX_ANNOTATIONS)
        expect([...annotations].sort()).toEqual(annotations)
        expect(annotations[0]).toBe(0)
        const rows = Fs.readFileSync(summary, "utf8")
          .split("\n")
          .filter((l) => /^\| (critical|major|minor) \|/.test(l))
          .map((l) => ["critical", "major", "minor"].indexOf(l.split(" | ")[0]!.slice(2)))
        expect(rows).toHaveLength(n)
        expect([...rows].sort()).toEqual(rows)
      })
  )

  it.scoped(
    "with a baseline of every finding: the progress counts none of them, as the verdict does",
    () =>
      Effect.gen(function* () {
        const server = yield* faulty
        const dir = tmp()
        const first = yield* run([...against(server.url), "--write-baseline", "known.json"], {
          cwd: dir
        })
        expect(first.code, first.err).toBe(1)
        const found = /(\d+) findings so far/.exec(lastLine(first.err))
        expect(Number(found?.[1])).toBeGreaterThan(0)
        const again = yield* run([...against(server.url), "--baseline", "known.json"], {
          cwd: dir
        })
        expect(again.code, again.err).toBe(0)
        expect(verdictLine(again.out)).toMatch(/^PASS: 0 findings \(\+\d+ known\)/)
        expect(lastLine(again.err)).toContain("· 0 findings so far")
      })
  )

  it.effect("--fail-on-skip: a run with no finding but skips says FAIL and why, and exits 1", () =>
    Effect.gen(function* () {
      const r = yield* run(
        ["--operations", "CreateConnector", "--examples", "2", "--read-only", "--fail-on-skip"],
        { cwd: tmp() }
      )
      expect(r.code, r.err).toBe(1)
      expect(lastLine(r.out)).toMatch(
        /^FAIL: 0 findings, \d+ examples skipped \(--fail-on-skip\) · /
      )
    })
  )

  it.scoped(
    "judge and replay with --fail-on server on traffic with a client finding only: PASS, saying which side, and exit 0",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const proxy = yield* Proxy.start({ target: server.url, recordHar: true })
        yield* Effect.promise(() =>
          fetch(`${proxy.url}/core.v1.SatelliteService/ListSatellites`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "x-api-key": KEY,
              "connect-protocol-version": "1"
            },
            body: JSON.stringify({ limit: 501 })
          }).then((a) => a.arrayBuffer())
        )
        const dir = tmp()
        const file = Path.join(dir, "traffic.har")
        Fs.writeFileSync(file, Har.toJson(yield* proxy.har))
        for (const args of [
          ["judge", "--fail-on", "server", file],
          ["replay", "--fail-on", "server", "--base-url", server.url, "--api-key", KEY, file]
        ]) {
          const r = yield* run(args)
          expect(r.code, r.out + r.err).toBe(0)
          expect(lastLine(r.out)).toMatch(
            /^PASS: 0 findings of the server side; 1 other finding not failing it \(--fail-on server\) · /
          )
          const any = yield* run(args.filter((a) => a !== "--fail-on" && a !== "server"))
          expect(any.code).toBe(1)
          expect(lastLine(any.out)).toMatch(/^FAIL: 1 findings \(1 occurrence\) · /)
        }
      })
  )
})

/** The progress lines of a text: `done/planned examples · N findings so far · T elapsed`. */
const PROGRESS = /(\d+)\/(\d+) examples · \d+ findings so far · [\d a-z]+ elapsed/g

describe("the progress display", () => {
  it.effect(
    "not on a terminal (a CI log): whole lines, the last with every planned example done; --quiet: nothing",
    () =>
      Effect.gen(function* () {
        const args = ["--operations", "Get*", "--examples", "2", "--seed", "3"]
        const r = yield* run(args)
        expect(r.code, r.err).toBe(0)
        const lines = r.err.split("\n").filter((l) => /^\d+\/\d+ examples · /.test(l))
        expect(lines.length).toBeGreaterThan(0)
        const [, done, planned] = /^(\d+)\/(\d+)/.exec(lines.at(-1)!)!
        expect(done).toBe(planned)
        expect(r.err).not.toContain("\r")
        expect(r.err).not.toMatch(/^\[\d+\/\d+\]/m)
        const quiet = yield* run([...args, "--quiet"])
        expect(quiet.err).toBe("")
      })
  )

  it.effect("on a terminal: one line written over, an estimate of the time left", () =>
    Effect.async<{ out: string; code: number }>((resume) => {
      // `script` gives the command line a terminal of its own, as a user's shell does.
      const child = execFile(
        "script",
        [
          "-qfec",
          // the rate limit spreads the run's few hundred requests over seconds, whatever the machine's speed
          `${process.execPath} ${bin} --operations 'Get*' --examples 2 --seed 3 --rate-limit 100`,
          "/dev/null"
        ],
        { maxBuffer: 64 * 1024 * 1024 },
        (error, out) =>
          resume(
            Effect.succeed({
              out,
              code: error === null ? 0 : typeof error.code === "number" ? error.code : -1
            })
          )
      )
      return Effect.sync(() => child.kill())
    }).pipe(
      Effect.map(({ code, out }) => {
        expect(code, out).toBe(0)
        const shown = [...out.matchAll(PROGRESS)]
        expect(shown.length).toBeGreaterThan(1)
        // Every progress line is written over the one before: none ends a line but the last.
        expect(out).not.toMatch(/examples · [^\r\n]*elapsed[^\r\n]*\r?\n[^\r\n]*examples · /)
        expect(out).toContain("\r\u001b[K")
        expect(out).toMatch(/ left/)
        const last = shown.at(-1)!
        expect(last[1]).toBe(last[2])
      })
    )
  )

  it("in a CI log: a line every few seconds, whatever the number of updates", () => {
    let t = 0
    const written: Array<string> = []
    const shown = display({ isTTY: false, write: (text) => written.push(text) }, () => t)
    for (let done = 0; done <= 1000; done++) {
      t = done * 100
      shown.update({ done, planned: 1000, findings: done > 500 ? 2 : 0 })
    }
    // 100 s of updates every 100 ms: a line each CI_INTERVAL_MS, and the last.
    expect(written.length).toBeLessThanOrEqual(100_000 / CI_INTERVAL_MS + 2)
    expect(written.at(-1)).toBe("1000/1000 examples · 2 findings so far · 1 min 40 s elapsed\n")
  })
})

describe("what a finding says", () => {
  // One run of every operation's protocol cases shows both: cases of the whole API, and big bodies.
  it.scoped(
    "a case of the whole API says what it is instead of `_`, and its cause is whole; big bodies are shortened in the reports and on stdout; the curl line reads the whole body from a file and reproduces the finding; --har-max-body cuts the HAR's",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          apiKeys: [KEY],
          faults: {
            rules: [{ fault: { _tag: "Violation", name: "server-error-on-unknown-field" } }]
          }
        })
        const dir = tmp()
        const r = yield* run(
          [
            ...against(server.url).filter((a) => a !== "--operations" && a !== "GetResource"),
            "--checks",
            "protocol",
            "--json",
            "out/report.json",
            "--html",
            "out/report.html",
            "--junit",
            "out/report.xml",
            "--har",
            "out/run.har",
            "--har-max-body",
            "1000"
          ],
          { cwd: dir }
        )
        expect(r.code, r.err).toBe(1)
        const json = Fs.readFileSync(Path.join(dir, "out", "report.json"), "utf8")
        for (const size of [
          r.out.length,
          json.length,
          Fs.statSync(Path.join(dir, "out", "report.html")).size,
          Fs.statSync(Path.join(dir, "out", "report.xml")).size
        ])
          expect(size).toBeLessThan(100_000)
        const report = JSON.parse(json) as Report.Report
        const api = report.findings.filter((f) => f.operation === "_")
        expect(api.length).toBeGreaterThan(0)
        for (const f of api) {
          expect(r.out).toContain(
            `protocol · (the API, no one operation: ${f.request.method} ${f.request.path}) · ${f.cause}`
          )
          expect(f.cause).not.toMatch(/ or $/)
        }
        expect(r.out).not.toContain(" · _ · ")
        const big = report.findings.filter((f) =>
          f.curl.includes("--data-binary '@reports/bodies/")
        )
        expect(big.length).toBeGreaterThan(0)
        for (const f of big) {
          const file = /'@(reports\/bodies\/[0-9a-f]+\.body)'/.exec(f.curl)![1]!
          const whole = Fs.readFileSync(Path.join(dir, file), "utf8")
          expect(whole.length).toBeGreaterThan(1_000_000)
          const digest = createHash("sha256").update(whole).digest("hex")
          expect(f.request.body).toContain(
            `[shortened: ${Buffer.byteLength(whole)} bytes, sha256 ${digest}]`
          )
          expect(whole.startsWith(f.request.body!.slice(0, 100))).toBe(true)
          // The curl line, run from the run's folder, gets the answer the finding reports.
          const answer = yield* Effect.promise(
            () =>
              new Promise<string>((resolve) =>
                execFile(
                  "sh",
                  ["-c", f.curl],
                  { cwd: dir, env: { ...process.env, DATA_ACCESS_API_KEY: KEY } },
                  (_, out) => resolve(out)
                )
              )
          )
          expect(f.response?._tag).toBe("Response")
          if (f.response?._tag === "Response")
            expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${f.response.status} `))
        }
        const har = JSON.parse(Fs.readFileSync(Path.join(dir, "out", "run.har"), "utf8")) as Har.Har
        const cut = har.log.entries.filter((e) => e.request.bodySize > 1000)
        expect(cut.length).toBeGreaterThan(0)
        for (const e of cut) {
          expect(e.request.postData!.comment).toMatch(
            /body shortened to its first 1000 bytes of \d+ \(--har-max-body\)$/
          )
          expect(Buffer.byteLength(e.request.postData!.text!)).toBeLessThanOrEqual(1000)
          expect(e.request.bodySize).toBeGreaterThan(1000)
        }
      })
  )
})

describe("big bodies", () => {
  it.scoped(
    "an observation's curl line with a large body reads it from a file the command line writes, and reproduces the request",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const dir = tmp()
        const same = (text: string) => text
        const request: RawRequest = {
          method: "POST",
          path: "/core.v1.SatelliteService/ListSatellites",
          key: "valid",
          contentType: "application/json",
          headers: {},
          protocolVersion: "1",
          body: JSON.stringify({ limit: 2, search: "x".repeat(8000) })
        }
        const report = makeReport({
          runId: "r",
          target: server.url,
          started: Date.now(),
          requests: 1,
          cells: [],
          findings: [],
          notes: [],
          observations: [
            {
              note: "format-not-validated",
              operation: "ListSatellites",
              message: "a search of 8000 characters was accepted",
              curl: curlOf(server.url, request, same),
              body: requestBody(request, same)
            }
          ]
        })
        const [observation] = report.observations
        const file = /'@(reports\/bodies\/[0-9a-f]+\.body)'/.exec(observation!.curl)?.[1]
        expect(file).toBeDefined()
        // The command line's file system, in the run's folder as its working directory.
        const fs = yield* FileSystem.FileSystem.pipe(Effect.provide(NodeFileSystem.layer))
        const inRun = (path: string) => Path.resolve(dir, path)
        yield* writeBodies(
          {
            ...fs,
            makeDirectory: (path, options) => fs.makeDirectory(inRun(path), options),
            writeFileString: (path, text, options) => fs.writeFileString(inRun(path), text, options)
          },
          "contract-tests",
          report
        )
        expect(Fs.readFileSync(Path.join(dir, file!), "utf8")).toBe(request.body)
        // The JSON report shows it shortened.
        const json = JSON.parse(Report.toJson(report)) as Report.Report
        expect(json.observations[0]!.body).toMatch(
          /\[shortened: 8\d{3} bytes, sha256 [0-9a-f]{64}\]$/
        )
        const answer = yield* Effect.promise(
          () =>
            new Promise<string>((resolve) =>
              execFile(
                "sh",
                ["-c", observation!.curl],
                { cwd: dir, env: { ...process.env, DATA_ACCESS_API_KEY: KEY } },
                (_, out) => resolve(out)
              )
            )
        )
        expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      })
  )
})
