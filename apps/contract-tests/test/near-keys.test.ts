import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { execFile } from "node:child_process"
import * as ContractTests from "../src/ContractTests.js"
import * as Curl from "../src/Curl.js"
import { NEAR_KEY_MODES, nearKey } from "../src/internal/keys.js"
import * as Report from "../src/Report.js"
import { forward, front } from "./front.js"

// A key one step from the valid one (a character more or less, the case of its letters swapped)
// is not a known key: a server that takes it (a prefix compared, case ignored) is found, and no
// text of the run prints it. The curl command of a finding makes it from $DATA_ACCESS_API_KEY.

const KEY = ReferenceServer.DEFAULT_API_KEY

/** A server in front of the reference server that takes any key the valid one starts with or that starts with it, in any case. */
const lenientFront = (inner: string) =>
  front(inner, (req) => {
    const sent = (req.headers["x-api-key"] ?? "").toLowerCase()
    const known =
      sent.length >= 4 && (sent.startsWith(KEY.toLowerCase()) || KEY.toLowerCase().startsWith(sent))
    return known ? forward({ headers: { "x-api-key": KEY } }) : forward()
  })

const shell = (script: string, env: Record<string, string>) =>
  Effect.async<string>((resume) => {
    execFile("bash", ["-c", script], { env: { ...process.env, ...env } }, (error, stdout) =>
      resume(error ? Effect.die(error) : Effect.succeed(stdout))
    )
  })

describe("keys one step from the valid one", () => {
  it.effect(
    "the curl command makes each near key from $DATA_ACCESS_API_KEY and never writes it",
    () =>
      Effect.gen(function* () {
        const key = "abcDEF123-key"
        for (const mode of NEAR_KEY_MODES) {
          const near = nearKey(mode, key)!
          const curl = Curl.render("http://x", {
            method: "POST",
            path: "/core.v1.ResourceService/GetResource",
            key: mode,
            contentType: "application/json",
            headers: {},
            protocolVersion: "1",
            body: "{}"
          })
          expect(curl, mode).not.toContain(near)
          const header = /-H ("X-API-KEY: [^"]*(?:"[^"]*"[^"]*)*")/.exec(curl)?.[1]
          expect(header, mode).toBeDefined()
          expect(yield* shell(`printf %s ${header}`, { DATA_ACCESS_API_KEY: key }), mode).toBe(
            `X-API-KEY: ${near}`
          )
        }
      })
  )

  it.scoped(
    "a server that takes a near key is found under auth.key-required, and the report prints none of them",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const url = yield* lenientFront(inner.url)
        const options = {
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 5,
          examples: 2,
          rateLimit: undefined,
          concurrency: 4,
          shrinkBudget: 0,
          operations: ["GetResource", "ListSatellites"],
          checks: ["auth", "secrets"]
        }
        const report = yield* ContractTests.run({ ...options, baseUrl: url })
        const found = report.findings.map((f) => `${f.operation} ${f.rule} ${f.cause}`)

        for (const op of ["GetResource", "ListSatellites"]) {
          for (const mode of NEAR_KEY_MODES)
            expect(
              found.some((f) => f.startsWith(`${op} auth.key-required ${mode} key`)),
              `${op} ${mode}`
            ).toBe(true)
        }
        expect(found.some((f) => / (missing|empty|wrong) key/.test(f))).toBe(false)
        const texts = [
          Report.toTerminal(report),
          Report.toJson(report),
          Report.toJUnit(report)
        ].join("\n")
        for (const mode of NEAR_KEY_MODES)
          expect(texts.includes(nearKey(mode, KEY)!), mode).toBe(false)
        const faithful = yield* ContractTests.run({ ...options, baseUrl: inner.url })
        expect(faithful.findings.map((f) => f.message)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
