import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import * as Proxy from "../src/Proxy.js"
import * as TextLength from "../src/internal/textLength.js"
import { connectError, forward, front } from "./front.js"

// A boundary probe crosses the boundary under every count a faithful server may use: "255
// characters" may be code points, UTF-16 units, UTF-8 bytes or graphemes, of the text as sent or
// in NFC or NFD. A server that stores a long string cut at 255 under any one count is found; one
// that refuses strings over 255 under any count (decisions.md section 10, string-limits) is not,
// so the strings the runner expects to be accepted are short under every count.

const KEY = ReferenceServer.DEFAULT_API_KEY

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" })

/** Ways to count a string's characters, each a faithful server's reading of "255 characters". */
const counts: ReadonlyArray<readonly [string, (s: string) => number]> = [
  ["code points", (s) => Array.from(s).length],
  ["UTF-16 units", (s) => s.length],
  ["UTF-8 bytes", (s) => Buffer.byteLength(s, "utf8")],
  ["graphemes", (s) => [...graphemes.segment(s)].length],
  ["NFC code points", (s) => Array.from(s.normalize("NFC")).length],
  ["NFD UTF-8 bytes", (s) => Buffer.byteLength(s.normalize("NFD"), "utf8")]
]

/** The longest prefix of `s` (whole code points) of at most `max` under `count`. */
const cut = (s: string, max: number, count: (s: string) => number): string => {
  let out = ""
  for (const c of Array.from(s)) {
    if (count(out + c) > max) break
    out += c
  }
  return out
}

/** Every string of a JSON value, changed by `f`. */
const mapStrings = (v: unknown, f: (s: string) => string): unknown =>
  typeof v === "string"
    ? f(v)
    : Array.isArray(v)
      ? v.map((x) => mapStrings(x, f))
      : v !== null && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]))
        : v

const options = {
  apiKey: Redacted.make(KEY),
  rateLimit: undefined,
  concurrency: 4,
  shrinkBudget: 0,
  seed: 5,
  examples: 6,
  operations: ["CreatePermission", "CreateConnector", "UpdateSatellite"]
}

describe("length boundaries under every count", () => {
  it("the text helpers: shortest and longest over the counts and forms, a cut within a limit under every count", () => {
    expect([TextLength.shortest("e\u0301"), TextLength.longest("e\u0301")]).toEqual([1, 3])
    expect(TextLength.longest("\uD55C")).toBe(9)
    const cutText = TextLength.cutTo("\uD55C\u{1F680}".repeat(100), 255)
    for (const [name, count] of counts) expect(count(cutText), name).toBeLessThanOrEqual(255)
    expect(
      TextLength.longest(TextLength.cutTo("\uD55C\u{1F680}".repeat(100), 255) + "\uD55C")
    ).toBeGreaterThan(255)
  })

  it.scoped(
    "a server that stores long strings cut at 255 under any count is found; one that refuses them under any count is not",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        for (const [name, count] of counts) {
          const over = (s: string) => count(s) > 255
          const storesCut = yield* front(inner.url, (req) =>
            req.json !== undefined && JSON.stringify(req.json).length > 255
              ? forward({
                  text: JSON.stringify(
                    mapStrings(req.json, (s) => (over(s) ? cut(s, 255, count) : s))
                  )
                })
              : forward()
          )
          const found = yield* ContractTests.run({
            ...options,
            fixtures: inner.knownIds,
            baseUrl: storesCut
          })
          expect(
            found.findings.map((f) => `${f.operation} ${f.rule}`),
            name
          ).toContain("CreatePermission echo.create")
          const refuses = yield* front(inner.url, (req) =>
            req.json !== undefined &&
            JSON.stringify(mapStrings(req.json, (s) => (over(s) ? "\u0000" : ""))).includes(
              "\\u0000"
            )
              ? connectError(400, "invalid_argument", "too long")
              : forward()
          )
          const faithful = yield* ContractTests.run({
            ...options,
            fixtures: inner.knownIds,
            baseUrl: refuses
          })
          expect(
            faithful.findings.map((f) => `${f.operation} ${f.rule}: ${f.message}`),
            name
          ).toEqual([])
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici)),
    240_000
  )

  it.scoped(
    "the proxy: a name of 100 precomposed Hangul syllables (100 code points, 900 UTF-8 bytes in NFD) refused by a server that counts bytes is no server finding",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const refuses = yield* front(inner.url, (req) =>
          typeof req.json?.name === "string" &&
          Buffer.byteLength(req.json.name.normalize("NFD")) > 255
            ? connectError(400, "invalid_argument", "name too long")
            : forward()
        )
        const proxy = yield* Proxy.start({ target: refuses })
        const answer = yield* Effect.promise(() =>
          fetch(`${proxy.url}/core.v1.SatelliteService/UpdateSatellite`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": KEY },
            body: JSON.stringify({ id: inner.knownIds.satellites[0], name: "\uD55C".repeat(100) })
          }).then((r) => r.status)
        )
        expect(answer).toBe(400)
        expect((yield* proxy.findings).map((f) => `${f.side} ${f.rule}`)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "neighbouring readings of a pattern and of an enum are found: a connector name read case-insensitively, with underscores, 2 to 64 long; an enum read by prefix, trimmed or contained",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const statuses = ["draft", "dry-run", "active"]
        // Takes what a loose reading accepts and sends the server the value that reading means.
        const loose = yield* front(inner.url, (req) => {
          const body = req.json
          if (body === undefined) return forward()
          if (
            req.url.endsWith("/CreateConnector") &&
            typeof body.name === "string" &&
            /^[0-9A-Za-z_-]{2,64}$/.test(body.name)
          ) {
            const name = body.name.toLowerCase().replace(/_/g, "-").padEnd(3, "x").slice(0, 63)
            return forward({ text: JSON.stringify({ ...body, name }) })
          }
          if (req.url.endsWith("/CreatePermission") && typeof body.status === "string") {
            const v = body.status
            const meant = statuses.find(
              (l) => l === v.trim() || (v.length >= 3 && l.startsWith(v)) || v.endsWith(l)
            )
            if (meant !== undefined)
              return forward({ text: JSON.stringify({ ...body, status: meant }) })
          }
          return forward()
        })
        const report = yield* ContractTests.run({
          ...options,
          fixtures: inner.knownIds,
          baseUrl: loose,
          operations: ["CreateConnector", "CreatePermission"],
          checks: ["invalid-rejected"]
        })
        const found = report.findings.map((f) => `${f.operation} ${f.rule} ${f.cause}`)
        for (const label of ["upper case", "an underscore", "2 characters", "64 characters"]) {
          expect(
            found.some(
              (f) => f.startsWith("CreateConnector fields.connector-name") && f.includes(label)
            ),
            label
          ).toBe(true)
        }
        for (const label of ["cut short", "with a trailing space", "inside a longer word"]) {
          expect(
            found.some((f) => f.startsWith("CreatePermission fields.enum") && f.includes(label)),
            label
          ).toBe(true)
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
