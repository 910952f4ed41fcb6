import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { ReferenceServer } from "@data-access/reference-server"
import type * as Report from "../src/Report.js"
import { cli } from "./cliRun.js"

const KEY = "hooks-key-5566778899"

// The hooks file a platform team writes: a token that changes on every request (as a refreshed
// one would), a signature over the request as it goes out, and the paging suites left out.
const HOOKS = `
import { createHash } from "node:crypto"
let issued = 0
export default {
  headers: async () => ({ "X-Token": "tok-" + ++issued + "-abcdef" }),
  beforeRequest: (r) => ({
    "X-Signature": createHash("sha256").update(r.method + " " + r.url + " " + (r.body ?? "")).digest("hex")
  }),
  filter: (suite) => !suite.family.startsWith("paging")
}
`

/** A gateway that records each request's token and whether its signature holds, then forwards it. */
const gateway = (upstream: string) =>
  Effect.acquireRelease(
    Effect.async<{
      url: string
      seen: Array<{ token: string; signed: boolean }>
      server: Http.Server
    }>((resume) => {
      const seen: Array<{ token: string; signed: boolean }> = []
      const server = Http.createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          const body = Buffer.concat(chunks)
          const url = `http://${req.headers.host}${req.url}`
          const expected = createHash("sha256")
            .update(`${req.method} ${url} ${body.toString("utf8")}`)
            .digest("hex")
          seen.push({
            token: String(req.headers["x-token"] ?? ""),
            signed:
              req.headers["content-encoding"] !== undefined ||
              req.headers["x-signature"] === expected
          })
          const forward = Http.request(
            new URL(req.url ?? "/", upstream),
            { method: req.method, headers: req.headers },
            (answer) => {
              res.writeHead(answer.statusCode ?? 502, answer.headers)
              answer.pipe(res)
            }
          )
          forward.on("error", () => res.destroy())
          forward.end(body)
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
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

describe("--hooks", () => {
  it.scoped(
    "a hooks file's headers are asked for each request, its signature made from the request as sent, its filter leaves suites out (reported skipped); the HAR masks what the hooks set",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start({ apiKeys: [KEY] })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-hooks-"))
        Fs.writeFileSync(Path.join(dir, "hooks.mjs"), HOOKS)
        Fs.writeFileSync(Path.join(dir, "ids.json"), JSON.stringify(server.knownIds))
        const gw = yield* gateway(server.url)
        const file = (f: string) => Path.join(dir, f)
        const r = yield* cli(
          "--base-url",
          gw.url,
          "--api-key",
          KEY,
          "--fixtures",
          file("ids.json"),
          "--operations",
          "ListSatellites",
          "--examples",
          "3",
          "--rate-limit",
          "0",
          "--quiet",
          "--hooks",
          file("hooks.mjs"),
          "--json",
          file("r.json"),
          "--har",
          file("r.har")
        )
        expect(r.err).toBe("")
        expect(r.code).toBe(0)
        expect(gw.seen.length).toBeGreaterThan(10)
        const tokens = gw.seen.map((s) => s.token)
        expect(tokens.every((t) => /^tok-\d+-abcdef$/.test(t))).toBe(true)
        expect(new Set(tokens).size).toBe(tokens.length)
        expect(gw.seen.every((s) => s.signed)).toBe(true)
        const report = JSON.parse(Fs.readFileSync(file("r.json"), "utf8")) as Report.Report
        const paging = report.cells.filter((c) => c.check === "paging")
        expect(paging.length).toBeGreaterThan(0)
        expect(paging.flatMap((c) => c.skipReasons)).toContain("left out by the hooks' filter")
        const har = Fs.readFileSync(file("r.har"), "utf8")
        expect(har).toContain("[set by a hook]")
        expect(har).not.toMatch(/tok-\d+-abcdef/)
      }),
    120_000
  )

  it.effect(
    "a hooks file that names an unknown hook, or a hook that throws, stops the run with exit 2 and why",
    () =>
      Effect.gen(function* () {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-hooks-"))
        Fs.writeFileSync(Path.join(dir, "typo.mjs"), "export default { header: () => ({}) }")
        const typo = yield* cli("--hooks", Path.join(dir, "typo.mjs"), "--examples", "1")
        expect(typo.code).toBe(2)
        expect(typo.err).toContain('unknown hook "header" (did you mean "headers"?)')
        Fs.writeFileSync(
          Path.join(dir, "throws.mjs"),
          'export default { headers: async () => { throw new Error("the token service is down") } }'
        )
        const throws = yield* cli(
          "--hooks",
          Path.join(dir, "throws.mjs"),
          "--operations",
          "GetResource",
          "--examples",
          "1"
        )
        expect(throws.code).toBe(2)
        expect(throws.err).toContain("a hook failed: the token service is down")
        expect(throws.err).not.toMatch(/\n\s+at /)
      }),
    60_000
  )
})
