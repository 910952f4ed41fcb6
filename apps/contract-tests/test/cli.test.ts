import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { ReferenceServer } from "@data-access/reference-server"
import { cli } from "./cliRun.js"
import type * as Report from "../src/Report.js"

const SECRET = "ct-secret-KEY-9f8e7d6c5b4a"

const tmp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-"))

describe("contract-tests command line", () => {
  it.scoped(
    "against a faithful target with a fixtures file: exit 0, progress on stderr, no key anywhere",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [SECRET] })
        const dir = tmp()
        const fixtures = Path.join(dir, "ids.json")
        Fs.writeFileSync(fixtures, JSON.stringify(server.knownIds))
        const junit = Path.join(dir, "junit.xml")
        const json = Path.join(dir, "report.json")
        const r = yield* cli(
          "--base-url",
          server.url,
          "--api-key",
          SECRET,
          "--fixtures",
          fixtures,
          "--examples",
          "3",
          "--creates-per-operation",
          "2",
          "--rate-limit",
          "0",
          "--seed",
          "4",
          "--junit",
          junit,
          "--json",
          json
        )
        expect(r.code, r.out + r.err).toBe(0)
        const created = (yield* server.currentKnownIds).connectors.filter(
          (id) => !server.knownIds.connectors.includes(id)
        )
        // The two valid examples, and the one request the protocol check sends with a 1 ms deadline.
        expect(created).toHaveLength(3)
        expect(r.err).toMatch(/\d+\/\d+ examples · \d+ findings so far · /)
        expect(r.out).toContain("PASS: 0 findings")
        const files = Fs.readFileSync(junit, "utf8") + Fs.readFileSync(json, "utf8")
        for (const text of [r.out, r.err, files]) expect(text).not.toContain(SECRET)
        const report = JSON.parse(Fs.readFileSync(json, "utf8")) as Report.Report
        expect(report.seed).toBe(4)
        expect(report.findings).toEqual([])
        expect(Fs.readFileSync(junit, "utf8")).toMatch(
          /^<\?xml[\s\S]*<testsuites[\s\S]*<testcase [\s\S]*<\/testsuites>\n$/
        )
      })
  )

  it.scoped(
    "findings: exit 1, each printed with a replay id and a curl without the key; --replay reruns exactly that case",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          apiKeys: [SECRET],
          faults: {
            rules: [
              { fault: { _tag: "Violation", name: "wrong-status-for-code" } },
              {
                methods: ["CreateBIIntegration"],
                fault: { _tag: "Violation", name: "secret-in-error" }
              }
            ]
          }
        })
        const dir = tmp()
        const json = Path.join(dir, "report.json")
        const junit = Path.join(dir, "junit.xml")
        const r = yield* cli(
          "--base-url",
          server.url,
          "--api-key",
          SECRET,
          "--examples",
          "4",
          "--rate-limit",
          "0",
          "--seed",
          "11",
          "--checks",
          "error-shape,secrets",
          "--json",
          json,
          "--junit",
          junit
        )
        expect(r.code, r.err).toBe(1)
        const report = JSON.parse(Fs.readFileSync(json, "utf8")) as Report.Report
        const checks = new Set(report.findings.map((f) => f.check))
        expect(checks).toContain("error-shape")
        expect(checks).toContain("secrets")
        for (const text of [
          r.out,
          r.err,
          Fs.readFileSync(json, "utf8"),
          Fs.readFileSync(junit, "utf8")
        ])
          expect(text).not.toContain(SECRET)
        expect(r.out).toContain("$DATA_ACCESS_API_KEY")
        expect(Fs.readFileSync(junit, "utf8")).toContain("<failure")
        // The secrets the create sent are shown redacted, never as sent, and the body that leaks them is not shown.
        const leak = report.findings.find((f) => f.check === "secrets")!
        expect(leak.request.body).toContain("[redacted]")
        expect(leak.response?._tag === "Response" && leak.response.body).toContain("not shown")
        // Replaying a finding's id runs one case and finds the same thing.
        const finding = report.findings.find((f) => f.check === "error-shape")!
        expect(r.out).toContain(finding.replayId)
        const replayJson = Path.join(dir, "replay.json")
        const replay = yield* cli(
          "--base-url",
          server.url,
          "--api-key",
          SECRET,
          "--rate-limit",
          "0",
          "--replay",
          finding.replayId,
          "--json",
          replayJson
        )
        expect(replay.code, replay.out + replay.err).toBe(1)
        const again = JSON.parse(Fs.readFileSync(replayJson, "utf8")) as Report.Report
        expect(again.findings.map((f) => [f.check, f.operation, f.cause])).toEqual([
          [finding.check, finding.operation, finding.cause]
        ])
        expect(again.findings[0]!.curl).toBe(finding.curl.split(report.runId).join(again.runId))
        expect(again.requests).toBeLessThan(60)
      })
  )

  it.scoped(
    "the run cannot be made: exit 2 (wrong key, unreachable target, bad flags, unknown check, bad replay id)",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [SECRET] })
        const wrongKey = yield* cli(
          "--base-url",
          server.url,
          "--api-key",
          "not-the-key",
          "--rate-limit",
          "0"
        )
        expect(wrongKey.code).toBe(2)
        expect(wrongKey.err).toContain("unauthenticated")
        expect(wrongKey.err + wrongKey.out).not.toContain("not-the-key")
        const unreachable = yield* cli(
          "--base-url",
          "http://127.0.0.1:9",
          "--api-key",
          SECRET,
          "--timeout-ms",
          "2000"
        )
        expect(unreachable.code).toBe(2)
        expect(unreachable.err).toContain("cannot be reached")
        expect((yield* cli("--examples", "many")).code).toBe(2)
        expect(
          (yield* cli("--base-url", server.url, "--api-key", SECRET, "--checks", "no-such-check"))
            .code
        ).toBe(2)
        expect(
          (yield* cli("--base-url", server.url, "--api-key", SECRET, "--replay", "ct1.nope")).code
        ).toBe(2)
        const noKey = yield* cli("--base-url", server.url)
        expect(noKey.code).toBe(2)
        const badFixtures = Path.join(tmp(), "ids.json")
        Fs.writeFileSync(badFixtures, JSON.stringify({ resources: [""] }))
        const fx = yield* cli(
          "--base-url",
          server.url,
          "--api-key",
          SECRET,
          "--fixtures",
          badFixtures
        )
        expect(fx.code).toBe(2)
        expect(fx.err).toContain("is not a KnownIds document")
      })
  )

  it.effect(
    "without a target it starts the embedded reference server and passes; --help exits 0",
    () =>
      Effect.gen(function* () {
        const r = yield* cli(
          "--examples",
          "3",
          "--operations",
          "GetResource,ListSatellites",
          "--quiet"
        )
        expect(r.code, r.out).toBe(0)
        expect(r.err).toBe("")
        expect(r.out).toMatch(/GetResource/)
        expect(r.out).not.toMatch(/CreateConnector/)
        expect((yield* cli("--help")).code).toBe(0)
      })
  )
})
