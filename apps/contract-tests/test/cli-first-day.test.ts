import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { ReferenceServer } from "@data-access/reference-server"
import { lastLine, run, tmp } from "./cliProcess.js"

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
