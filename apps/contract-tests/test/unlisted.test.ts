import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "../src/ContractTests.js"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"
import { answer, forward, front } from "./front.js"

// Causes of faults nobody listed, each probed across the contract: a success long after the
// deadline, spellings of one request answered apart, near misses of the route names served,
// objects created in quick succession lost. Each violation of the catalogue that breaks one is
// found by its own probe (the cause names it), and what a faithful server may do is not.

const violated = (
  name: ReferenceServer.ViolationName,
  operations: ReadonlyArray<string> | undefined,
  checks: ReadonlyArray<string>
) =>
  Embedded.run({
    seed: 1,
    examples: 15,
    shrinkBudget: 0,
    ...(operations === undefined ? {} : { operations }),
    checks,
    server: { faults: { rules: [{ fault: { _tag: "Violation", name } }] } }
  }).pipe(Effect.map((report) => report.findings.map((f) => `${f.operation} ${f.rule} ${f.cause}`)))

describe("a success long after the deadline", () => {
  it.scoped(
    "is a finding on every operation it is sent to; a slow target that answers as soon as it can is not",
    () =>
      Effect.gen(function* () {
        const found = yield* violated(
          "deadline-held",
          ["GetResource", "CreatePermission", "UpdateSatellite"],
          ["protocol"]
        )
        expect(
          found
            .filter((f) => f.endsWith("protocol.deadline a success long after the deadline"))
            .sort()
        ).toEqual([
          "CreatePermission protocol.deadline a success long after the deadline",
          "GetResource protocol.deadline a success long after the deadline",
          "UpdateSatellite protocol.deadline a success long after the deadline"
        ])
        // Every call 400 ms late, the deadline looked at only before the work starts: the 200 to a
        // 1 ms deadline comes 400 ms later, as every other call does.
        const slow = yield* Embedded.run({
          seed: 1,
          examples: 2,
          shrinkBudget: 0,
          operations: ["GetResource", "CreatePermission"],
          checks: ["protocol"],
          server: {
            latitude: ["lenient-deadline"],
            faults: { rules: [{ fault: { _tag: "Latency", millis: 400 } }] }
          }
        })
        expect(slow.findings.map(Report.findingText)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("spellings of one request", () => {
  it.scoped(
    "a media type with a parameter or in capitals refused is a finding on reads and writes",
    () =>
      Effect.gen(function* () {
        const found = yield* violated(
          "media-type-exact",
          ["GetResource", "CreatePermission"],
          ["protocol"]
        )
        for (const op of ["GetResource", "CreatePermission"]) {
          for (const spelling of [
            "application/json; charset=utf-8",
            "application/json;charset=UTF-8",
            "Application/JSON"
          ]) {
            expect(
              found.some((f) =>
                f.startsWith(`${op} protocol.content-type Content-Type ${spelling}: HTTP 415`)
              ),
              `${op} ${spelling}`
            ).toBe(true)
          }
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
  it.scoped("JSON escapes read as written are a finding on reads, creates and updates", () =>
    Effect.gen(function* () {
      const found = yield* violated(
        "json-escapes-literal",
        ["GetResource", "ListSatellites", "CreatePermission", "UpdateSatellite"],
        ["valid-accepted"]
      )
      for (const op of ["GetResource", "ListSatellites", "CreatePermission", "UpdateSatellite"]) {
        expect(
          found.filter((f) => f.startsWith(`${op} wire.json-spellings JSON escapes`)),
          op
        ).toHaveLength(1)
      }
      expect(found.filter((f) => f.includes("whitespace"))).toEqual([])
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
  it.scoped(
    "a zero value refused where leaving the field out is accepted is a finding; an update's zero values are not sent",
    () =>
      Effect.gen(function* () {
        const found = yield* violated(
          "zero-value-refused",
          ["CreatePermission", "CreateConnector", "UpdateSatellite"],
          ["valid-accepted"]
        )
        expect(
          found
            .filter((f) =>
              / wire\.zero-is-unset .*terminationProtection.* sent as zero values: refused$/.test(f)
            )
            .map((f) => f.split(" ")[0])
            .sort()
        ).toEqual(["CreateConnector", "CreatePermission"])
        expect(found.filter((f) => f.startsWith("UpdateSatellite wire.zero-is-unset"))).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("near misses of the route names", () => {
  it.scoped(
    "routes matched without regard to case, by the method name alone or by a prefix are findings",
    () =>
      Effect.gen(function* () {
        const cases = yield* violated("route-case-insensitive", undefined, ["protocol"])
        for (const near of ["the method's case", "the service's case", "the package's case"]) {
          expect(cases, near).toContain(
            `_ protocol.unknown-route a near miss: ${near}: HTTP 200, expected 404`
          )
        }
        const byName = yield* violated("route-by-method-name", undefined, ["protocol"])
        for (const near of [
          "another version of the package",
          "no package",
          "a trailing slash",
          "the method under another service"
        ]) {
          expect(
            byName.some((f) =>
              f.startsWith(`_ protocol.unknown-route a near miss: ${near}: HTTP `)
            ),
            near
          ).toBe(true)
        }
        const byPrefix = yield* violated("route-by-prefix", undefined, ["protocol"])
        for (const near of ["a longer method name", "a trailing slash"]) {
          expect(byPrefix, near).toContain(
            `_ protocol.unknown-route a near miss: ${near}: HTTP 200, expected 404`
          )
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
  it.scoped(
    "a 404 with no body to an unknown route (connect-node's default) is no finding; a 404 with another code is",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const known = new Set(inner.knownIds.resources)
        expect(known.size).toBeGreaterThan(0)
        const bare = yield* front(inner.url, (req) =>
          /^\/core\.v1\.[A-Za-z]+\/[A-Za-z]+(\?|$)/.test(req.url) ? forward() : answer(404, "")
        )
        const options = {
          apiKey: Redacted.make(ReferenceServer.DEFAULT_API_KEY),
          fixtures: inner.knownIds,
          seed: 1,
          examples: 2,
          shrinkBudget: 0,
          checks: ["protocol", "error-shape"]
        }
        const report = yield* ContractTests.run({ ...options, baseUrl: bare })
        expect(report.findings.map(Report.findingText)).toEqual([])
        const notFound = yield* front(inner.url, (req) =>
          /^\/core\.v1\.[A-Za-z]+\/[A-Za-z]+(\?|$)/.test(req.url)
            ? forward()
            : answer(404, { code: "not_found", message: "no route" })
        )
        // The near misses are the protocol check's: the run is narrowed to it.
        const wrong = yield* ContractTests.run({
          ...options,
          baseUrl: notFound,
          checks: ["protocol"]
        })
        expect(
          wrong.findings.some(
            (f) =>
              f.rule === "protocol.unknown-route" &&
              f.cause.startsWith("a near miss: a trailing slash: code not_found")
          )
        ).toBe(true)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})

describe("objects created in quick succession", () => {
  it.scoped(
    "ids made from the clock are a finding, for creates sent back to back and at once",
    () =>
      Effect.gen(function* () {
        const found = yield* violated(
          "ids-from-clock",
          ["CreatePermission", "CreateIntegrationMDM"],
          ["create-echo"]
        )
        for (const op of ["CreatePermission", "CreateIntegrationMDM"]) {
          expect(
            found.filter((f) => f.startsWith(`${op} echo.create-stored creates `)).sort(),
            op
          ).toEqual([
            `${op} echo.create-stored creates at once share an id`,
            `${op} echo.create-stored creates back to back share an id`
          ])
        }
        // Each found afterwards as its create returned it: by the List of its kind where it has no Get.
        const stored = yield* violated(
          "create-stored-differently",
          ["CreateIntegrationMDM"],
          ["create-echo"]
        )
        expect(stored.filter((f) => f.includes(" created ")).sort()).toEqual([
          "CreateIntegrationMDM echo.create-stored created at once, ListIntegrationsMDM shows another object",
          "CreateIntegrationMDM echo.create-stored created back to back, ListIntegrationsMDM shows another object"
        ])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
