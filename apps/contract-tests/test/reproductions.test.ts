import { describe, expect, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Curl from "../src/Curl.js"
import * as Embedded from "../src/Embedded.js"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ReferenceServer } from "@data-access/reference-server"
import * as Redacted from "effect/Redacted"
import { dryRun } from "../src/internal/runner/dryRun.js"
import { cli } from "./cliRun.js"

/** A server that records the method and the body of each request it gets. */
const recorder = Effect.acquireRelease(
  Effect.async<{ url: string; seen: Array<{ method: string; body: string }>; server: Http.Server }>(
    (resume) => {
      const seen: Array<{ method: string; body: string }> = []
      const server = Http.createServer((req, res) => {
        let body = ""
        req.on("data", (d) => (body += d))
        req.on("end", () => {
          seen.push({ method: req.method ?? "", body })
          res.writeHead(200, { "content-type": "application/json" }).end("{}")
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            seen,
            server
          })
        )
      )
    }
  ),
  ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
)

const sh = (line: string) =>
  Effect.async<number>((resume) => {
    execFile(
      "sh",
      ["-c", line],
      { env: { ...process.env, DATA_ACCESS_API_KEY: "k-1234567890" } },
      (e) => resume(Effect.succeed(e === null ? 0 : 1))
    )
  })

describe("reproductions", () => {
  it.scoped(
    "the curl line of a Connect GET sends a GET without a body; a POST keeps its body",
    () =>
      Effect.gen(function* () {
        const { url, seen } = yield* recorder
        const get = {
          method: "GET",
          path: "/core.v1.ResourceService/GetResource?encoding=json&message=%7B%7D",
          key: "valid",
          contentType: undefined,
          headers: {},
          protocolVersion: undefined,
          body: ""
        } as const
        expect(yield* sh(Curl.render(url, get))).toBe(0)
        expect(seen.at(-1)).toEqual({ method: "GET", body: "" })
        const post = {
          ...get,
          method: "POST",
          path: "/core.v1.ResourceService/GetResource",
          body: '{"id":"x"}'
        }
        expect(yield* sh(Curl.render(url, post))).toBe(0)
        expect(seen.at(-1)).toEqual({ method: "POST", body: '{"id":"x"}' })
      })
  )

  it.effect(
    "a walk that returns an item twice is reported as such, not also as missing the items it did return",
    () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 2,
          examples: 5,
          operations: ["ListSatellites"],
          checks: ["paging"],
          server: {
            faults: { rules: [{ fault: { _tag: "Violation", name: "paging-duplicates" } }] }
          }
        }).pipe(Effect.scoped)
        const rules = report.findings.map((f) => f.rule)
        expect(rules).toContain("lists.walk-once")
        expect(rules).not.toContain("lists.walk-complete")
      }).pipe(Effect.provide(NodeHttpClient.layerUndici)),
    120_000
  )

  it.scoped(
    "the printed replay line runs as printed (target, fixtures, key from the environment); a replay whose case cannot run exits 2 and says why",
    () =>
      Effect.gen(function* () {
        const key = "replay-key-5647382910"
        const server = yield* ReferenceServer.start({
          apiKeys: [key],
          faults: {
            rules: [
              {
                methods: ["CreateConnector"],
                fault: { _tag: "Violation", name: "created-at-in-future" }
              }
            ]
          }
        })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-replay-"))
        Fs.writeFileSync(Path.join(dir, "ids.json"), JSON.stringify(server.knownIds))
        const withKey = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.acquireUseRelease(
            Effect.sync(() => (process.env.DATA_ACCESS_API_KEY = key)),
            () => effect,
            () => Effect.sync(() => delete process.env.DATA_ACCESS_API_KEY)
          )
        const first = yield* withKey(
          cli(
            "--base-url",
            server.url,
            "--fixtures",
            Path.join(dir, "ids.json"),
            "--operations",
            "CreateConnector",
            "--checks",
            "timestamps",
            "--examples",
            "3",
            "--rate-limit",
            "0",
            "--quiet"
          )
        )
        expect(first.code, first.err).toBe(1)
        const line = /replay: (contract-tests .*--replay \S+)/.exec(first.out)?.[1]
        expect(line).toContain(`--base-url ${server.url}`)
        expect(line).toContain(`--fixtures ${Path.join(dir, "ids.json")}`)
        const words = line!.split(" ").slice(1)
        // Run from elsewhere, as printed: the same finding.
        const again = yield* withKey(cli(...words, "--rate-limit", "0"))
        expect(again.code, again.err).toBe(1)
        expect(again.out).toContain("timestamps · CreateConnector")
        // The same case under --read-only cannot run: exit 2, and why.
        const cannot = yield* withKey(cli(...words, "--read-only"))
        expect(cannot.code).toBe(2)
        expect(cannot.err).toContain("the replayed case did not run")
        expect(cannot.out + cannot.err).not.toContain(key)
      }),
    120_000
  )

  it.scoped(
    "every suite of a run has replay ids of its own: no two suites of an operation share a family, which a replay id names",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({})
        const plan = yield* dryRun({
          baseUrl: server.url,
          apiKey: Redacted.make(server.apiKeys[0]!),
          fixtures: server.knownIds,
          seed: 1
        })
        const shared = plan.operations.flatMap((o) =>
          o.suites
            .filter((s, i) => o.suites.findIndex((t) => t.family === s.family) !== i)
            .map((s) => `${o.method} ${s.family}`)
        )
        expect(plan.operations.length).toBeGreaterThan(0)
        expect(shared).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "under GitHub Actions: an annotation per cause by its severity and a Markdown job summary, no key in either",
    () =>
      Effect.gen(function* () {
        const key = "actions-key-1928374650"
        const server = yield* ReferenceServer.start({
          apiKeys: [key],
          faults: { rules: [{ fault: { _tag: "Violation", name: "wrong-status-for-code" } }] }
        })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-actions-"))
        const summary = Path.join(dir, "summary.md")
        Fs.writeFileSync(summary, "")
        const env = { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: summary }
        const args = [
          ...["--base-url", server.url, "--api-key", key, "--checks", "error-shape"],
          ...[
            "--operations",
            "GetResource,ListSatellites",
            "--examples",
            "3",
            "--rate-limit",
            "0",
            "--quiet"
          ]
        ]
        const r = yield* Effect.acquireUseRelease(
          Effect.sync(() => Object.assign(process.env, env)),
          () => cli(...args),
          () => Effect.sync(() => Object.keys(env).forEach((k) => delete process.env[k]))
        )
        expect(r.code).toBe(1)
        // error-shape's findings are major: a warning each.
        const annotations = r.out.split("\n").filter((l) => l.startsWith("::warning "))
        expect(annotations.length).toBeGreaterThan(0)
        expect(annotations[0]).toMatch(
          /^::warning title=major · error-shape · [^:]+::.*%0Arule errors\./
        )
        const text = Fs.readFileSync(summary, "utf8")
        expect(text).toContain("### contract-tests: FAIL")
        expect(text).toMatch(/\| major \| error-shape \| `errors\.[a-z-]+` \|/)
        for (const t of [r.out, text]) expect(t).not.toContain(key)
        // Outside GitHub Actions: neither.
        const plain = yield* cli(...args)
        expect(plain.out).not.toMatch(/^::(error|warning|notice) /m)
      }),
    120_000
  )

  it.scoped(
    "replay FILE.har --base-url sends the recorded calls to another server and judges its answers: a new build's break is a server finding",
    () =>
      Effect.gen(function* () {
        const key = "replay-har-key-6655443322"
        const faithful = yield* ReferenceServer.start({ apiKeys: [key] })
        const broken = yield* ReferenceServer.start({
          apiKeys: [key],
          faults: { rules: [{ fault: { _tag: "Violation", name: "success-content-type" } }] }
        })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-replay-har-"))
        const har = Path.join(dir, "run.har")
        const recorded = yield* cli(
          ...["--base-url", faithful.url, "--api-key", key, "--operations", "ListSatellites"],
          ...["--examples", "2", "--rate-limit", "0", "--quiet", "--har", har]
        )
        expect(recorded.code).toBe(0)
        expect(Fs.readFileSync(har, "utf8")).not.toContain(key)
        const withKey = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.acquireUseRelease(
            Effect.sync(() => (process.env.DATA_ACCESS_API_KEY = key)),
            () => effect,
            () => Effect.sync(() => delete process.env.DATA_ACCESS_API_KEY)
          )
        const same = yield* withKey(
          cli(
            "replay",
            har,
            "--base-url",
            faithful.url,
            "--fail-on",
            "server",
            "--json",
            Path.join(dir, "same.json")
          )
        )
        expect(same.code, same.err).toBe(0)
        const sameReport = JSON.parse(Fs.readFileSync(Path.join(dir, "same.json"), "utf8")) as {
          requests: number
          findings: ReadonlyArray<{ side: string; rule: string }>
        }
        expect(sameReport.requests).toBeGreaterThan(10)
        expect(sameReport.findings.filter((f) => f.side === "server")).toEqual([])
        const newBuild = yield* withKey(
          cli(
            "replay",
            har,
            "--base-url",
            broken.url,
            "--fail-on",
            "server",
            "--json",
            Path.join(dir, "new.json")
          )
        )
        expect(newBuild.code).toBe(1)
        const newReport = JSON.parse(Fs.readFileSync(Path.join(dir, "new.json"), "utf8")) as {
          findings: ReadonlyArray<{ side: string; rule: string }>
        }
        expect(newReport.findings.map((f) => `${f.side} ${f.rule}`)).toContain(
          "server wire.success"
        )
        expect(newBuild.out + newBuild.err).not.toContain(key)
      }),
    120_000
  )
})
