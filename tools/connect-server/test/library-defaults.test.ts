// What connect-node's untouched 405 breaks: it names no allowed method, and decisions.md section 1
// asks for `Allow: POST`; that must (and nothing else) refuses it, which is why the server adds the
// header (`allowHeader`, on by default). Its bare 404 for an unknown route is accepted (section 2:
// readers take a 404 without a Connect body as unimplemented).
import { Report } from "@data-access/contract-tests"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { run } from "./run.js"

describe("connect-node's own protocol answers", () => {
  it.live(
    "a 405 without Allow is refused by decisions.md section 1, and nothing else is",
    () =>
      Effect.gen(function* () {
        const report = yield* run(
          8,
          5,
          { allowHeader: false },
          {
            checks: ["protocol", "error-shape", "no-server-errors"],
            operations: ["GetResource", "CreatePermission"]
          }
        )
        const text = report.findings.map(Report.findingText).join("\n")
        expect([...new Set(report.findings.map((f) => f.rule))], text).toEqual(["protocol.method"])
        expect(
          report.findings.every(
            (f) =>
              f.source.startsWith("decisions.md § 1.") && f.message.includes("header allow is null")
          ),
          text
        ).toBe(true)
      }),
    120_000
  )
})
