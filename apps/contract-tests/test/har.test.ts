// HAR out and in: what the runner and the proxy record, judged offline by the proxy's judge, gives
// the findings the proxy gave live; compressed bodies and the binary codec are read as the proxy
// reads them, whether a recorder kept them decoded or as sent; no secret is in a HAR or an HTML
// report; `contract-tests judge` writes the same reports and exits by --fail-on, 2 for a file that
// is not HAR.
import * as HttpClient from "@effect/platform/HttpClient"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Secrets } from "@data-access/schema"
import * as Compression from "@data-access/schema/Compression"
import { ReferenceServer } from "@data-access/reference-server"
import * as ContractTests from "../src/ContractTests.js"
import * as Har from "../src/Har.js"
import { keySecrets, WRONG_KEY } from "../src/internal/keys.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"
import { cli } from "./cliRun.js"

const SECRET_KEY = "har-test-KEY-0a1b2c3d4e5f"

const violations = (...names: Array<ReferenceServer.ViolationName>) => ({
  faults: { rules: names.map((name) => ({ fault: { _tag: "Violation" as const, name } })) }
})

/** What a comparison of two reports looks at: each finding (side, rule, operation, cause, count) and each cell. */
const verdicts = (r: Report.Report) => ({
  findings: r.findings
    .map((f) => `${f.side} · ${f.rule} · ${f.operation} · ${f.cause} · ${f.occurrences}`)
    .sort(),
  cells: r.cells.map((c) => `${c.operation} · ${c.check} · ${c.passed}/${c.failed}`).sort(),
  requests: r.requests
})

/** An HTTP client that also collects every secret it sends: the keys, and the secret fields of JSON bodies. */
const collectingClient = (sent: Set<string>) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request) =>
        Effect.sync(() => {
          const key = request.headers["x-api-key"]
          if (key !== undefined && key !== WRONG_KEY) sent.add(key)
          if (request.body._tag === "Uint8Array") {
            try {
              for (const s of Secrets.values(
                JSON.parse(new TextDecoder().decode(request.body.body))
              ))
                sent.add(s)
            } catch {
              // not JSON: no secret field
            }
          }
        })
      )
    )
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

const tmp = () => Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-har-"))

describe("HAR out and in", () => {
  it.scoped(
    "a run through the proxy: the proxy's HAR and the run's HAR judged offline give the proxy's live findings and counts; no secret in either HAR or in the HTML reports",
    () => {
      const sent = new Set<string>()
      return Effect.gen(function* () {
        const server = yield* ReferenceServer.start({
          apiKeys: [SECRET_KEY],
          ...violations("secret-in-error", "wrong-status-for-code", "non-utc-timestamp")
        })
        const proxy = yield* Proxy.start({ target: server.url, recordHar: true })
        const runnerEntries: Array<Har.Entry> = []
        const run = yield* ContractTests.run({
          baseUrl: proxy.url,
          apiKey: Redacted.make(SECRET_KEY),
          fixtures: server.knownIds,
          examples: 2,
          seed: 9,
          operations: ["UpdateConnectorHostname", "CreateIntegrationMDM"],
          onHarEntry: (e) => runnerEntries.push(e)
        })
        const live = yield* proxy.report
        expect(live.findings.some((f) => f.rule === "secrets.not-in-errors")).toBe(true)
        expect(live.findings.some((f) => f.side === "server")).toBe(true)
        expect(live.findings.some((f) => f.side === "client")).toBe(true)

        // The proxy's HAR, through its JSON text, judged offline.
        const proxyHar = yield* Har.decodeJson(Har.toJson(yield* proxy.har))
        expect(proxyHar.log.entries.length).toBe(live.requests)
        const offline = Har.judge(proxyHar, { source: "proxy.har" })
        expect(verdicts(offline)).toEqual(verdicts(live))

        // The run's own HAR: the same exchanges as the runner saw them.
        const runnerHar = yield* Har.decodeJson(Har.toJson(Har.make(runnerEntries)))
        expect(runnerHar.log.entries.length).toBe(run.requests)
        expect(verdicts(Har.judge(runnerHar, { source: "run.har" }))).toEqual(verdicts(live))

        // No secret sent (the key, its near keys, every secret field's value) is in a HAR or an HTML report.
        expect(sent.size).toBeGreaterThan(3)
        const texts = {
          "proxy HAR": Har.toJson(proxyHar),
          "run HAR": Har.toJson(runnerHar),
          "proxy HTML": Report.toHtml(live),
          "offline HTML": Report.toHtml(offline),
          "run HTML": Report.toHtml(run)
        }
        for (const [name, text] of Object.entries(texts)) {
          for (const secret of [...sent, ...keySecrets(SECRET_KEY)].filter(
            (s) => s.length >= Secrets.MIN_LENGTH
          )) {
            expect(
              text.includes(secret),
              `${name} holds a secret ${JSON.stringify(secret)}: ${text.slice(Math.max(0, text.indexOf(secret) - 300), text.indexOf(secret) + 100)}`
            ).toBe(false)
          }
        }
        expect(texts["proxy HAR"]).toContain(`"value": "[redacted:key]"`)
      }).pipe(Effect.provide(collectingClient(sent)))
    },
    120_000
  )

  it.scoped(
    "compressed bodies and the binary codec: judged offline as the proxy judged them live, from a HAR with decoded bodies (HAR 1.2) or with bodies as sent",
    () =>
      Effect.gen(function* () {
        // connect-get: the server reads compressed requests and compresses answers of 1 KiB or more.
        const server = yield* ReferenceServer.start({ latitude: ["connect-get"] })
        const proxy = yield* Proxy.start({ target: server.url, recordHar: true })
        const headers = {
          "content-type": "application/json",
          "x-api-key": ReferenceServer.DEFAULT_API_KEY,
          "connect-protocol-version": "1"
        }
        const post = (
          path: string,
          body: Uint8Array | string,
          extra: Record<string, string> = {}
        ) =>
          Effect.promise(() =>
            fetch(proxy.url + path, {
              method: "POST",
              headers: { ...headers, ...extra },
              body
            }).then((r) => r.status)
          )
        const list = "/core.v1.SatelliteService/ListSatellites"
        const gzip = Compression.compress(JSON.stringify({ limit: 501 }), "gzip")
        expect(yield* post(list, gzip, { "content-encoding": "gzip" })).toBe(400)
        expect(
          yield* post(list, Compression.compress(JSON.stringify({ limit: 40 }), "deflate"), {
            "content-encoding": "deflate",
            "accept-encoding": "br"
          })
        ).toBe(200)
        expect(
          yield* post(list, JSON.stringify({ limit: 60 }), { "accept-encoding": "gzip" })
        ).toBe(200)
        yield* post(list, new Uint8Array([8, 2, 16, 1]), { "content-type": "application/proto" })
        yield* post(list, new Uint8Array([31, 139, 8, 0, 1, 2, 3]), { "content-encoding": "gzip" })
        const live = yield* proxy.report
        expect(live.notes.join("\n")).toMatch(/left unread/)
        expect(live.findings.map((f) => `${f.side} ${f.rule}`)).toContain(
          "client lists.limit-range"
        )

        const har = yield* proxy.har
        const answered = har.log.entries.filter((e) =>
          e.response.headers.some((h) => h.name === "content-encoding")
        )
        expect(answered.length).toBe(2)
        // HAR 1.2 holds bodies decoded: the br and gzip answers are JSON text, with their compression.
        for (const e of answered) {
          expect(e.response.content.encoding).toBeUndefined()
          expect(JSON.parse(e.response.content.text!)).toHaveProperty("satellites")
          expect(e.response.content.compression).toBeGreaterThan(0)
        }
        expect(verdicts(Har.judge(har))).toEqual(verdicts(live))
        // The corrupt gzip body: left unread live, and offline.
        expect(Har.judge(har).notes.slice(1)).toEqual(live.notes.slice(1))
        expect(live.notes.join("\n")).toMatch(/1 of them relayed with a body left unread/)

        // A recorder that keeps bodies as sent (base64 of the compressed bytes): the same verdicts.
        const asSent: Har.Har = {
          log: {
            ...har.log,
            entries: har.log.entries.map((e) => {
              const encoding = e.response.headers.find((h) => h.name === "content-encoding")
                ?.value as Compression.Encoding | undefined
              if (encoding === undefined || e.response.content.text === undefined) return e
              const raw = Buffer.from(
                Compression.compress(e.response.content.text, encoding)
              ).toString("base64")
              return {
                ...e,
                response: {
                  ...e.response,
                  content: { ...e.response.content, text: raw, encoding: "base64" }
                }
              }
            })
          }
        }
        expect(verdicts(Har.judge(asSent))).toEqual(verdicts(live))
        // A recorder that writes decoded bodies in base64: the same verdicts.
        const base64: Har.Har = {
          log: {
            ...har.log,
            entries: har.log.entries.map((e) =>
              e.response.content.text === undefined || e.response.content.encoding !== undefined
                ? e
                : {
                    ...e,
                    response: {
                      ...e.response,
                      content: {
                        ...e.response.content,
                        text: Buffer.from(e.response.content.text).toString("base64"),
                        encoding: "base64"
                      }
                    }
                  }
            )
          }
        }
        expect(verdicts(Har.judge(base64))).toEqual(verdicts(live))
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "contract-tests judge FILE.har: the same reports (terminal, JSON, JUnit, HTML), exit code by --fail-on; a file that is not HAR is exit 2 with the reason",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start()
        const proxy = yield* Proxy.start({ target: server.url, recordHar: true })
        const call = (body: unknown) =>
          Effect.promise(() =>
            fetch(`${proxy.url}/core.v1.SatelliteService/ListSatellites`, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "x-api-key": ReferenceServer.DEFAULT_API_KEY,
                "connect-protocol-version": "1"
              },
              body: JSON.stringify(body)
            }).then((r) => r.arrayBuffer())
          )
        yield* call({ limit: 2 })
        yield* call({ limit: 501 })
        const dir = tmp()
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
        )
        const file = Path.join(dir, "traffic.har")
        Fs.writeFileSync(file, Har.toJson(yield* proxy.har))
        const [json, junit, html] = ["report.json", "report.xml", "report.html"].map((f) =>
          Path.join(dir, f)
        ) as [string, string, string]

        const any = yield* cli("judge", "--json", json, "--junit", junit, "--html", html, file)
        expect(any.code, any.err).toBe(1)
        expect(any.out).toMatch(/FAIL: 1 findings/)
        expect(any.out).toContain("client · invalid-rejected · ListSatellites (client)")
        const report = JSON.parse(Fs.readFileSync(json, "utf8")) as Report.Report
        expect(report.findings.map((f) => [f.side, f.rule])).toEqual([
          ["client", "lists.limit-range"]
        ])
        expect(report.requests).toBe(2)
        expect(Fs.readFileSync(junit, "utf8")).toMatch(/<testsuites[^>]*failures="1"/)
        expect(Fs.readFileSync(html, "utf8")).toContain(`data-count="client-findings">1<`)
        expect((yield* cli("judge", "--fail-on", "server", "--quiet", file)).code).toBe(0)

        const notJson = Path.join(dir, "broken.har")
        Fs.writeFileSync(notJson, '{"log": {"version": "1.2", "entries": [')
        const broken = yield* cli("judge", notJson)
        expect(broken.code).toBe(2)
        expect(broken.err).toContain(`contract-tests judge: ${notJson}: the file is not JSON`)

        const notHar = Path.join(dir, "other.har")
        Fs.writeFileSync(
          notHar,
          JSON.stringify({
            log: {
              version: "1.2",
              creator: { name: "x", version: "1" },
              entries: [{ request: { method: "POST" } }]
            }
          })
        )
        const other = yield* cli("judge", notHar)
        expect(other.code).toBe(2)
        expect(other.err).toMatch(/is not a HAR 1\.2 document at log\.entries\.0\./)

        // An entry whose URL is not one is left out, not a crash.
        const odd = Path.join(dir, "odd.har")
        const valid = JSON.parse(Fs.readFileSync(file, "utf8")) as Har.Har
        Fs.writeFileSync(
          odd,
          JSON.stringify({
            log: {
              ...valid.log,
              entries: [
                ...valid.log.entries,
                {
                  ...valid.log.entries[0]!,
                  request: { ...valid.log.entries[0]!.request, url: "not a url" }
                }
              ]
            }
          })
        )
        const oddRun = yield* cli("judge", "--base-url", "not", "--fail-on", "none", odd)
        expect(oddRun.code, oddRun.err).toBe(0)
        expect(oddRun.out).toMatch(/PASS: 0 findings/)
        expect((yield* cli("judge", "--fail-on", "none", odd)).out).toMatch(
          /1 of the 3 entries left out/
        )

        const missing = yield* cli("judge", Path.join(dir, "nothing.har"))
        expect(missing.code).toBe(2)
        expect(missing.err).toContain("nothing.har cannot be read")
        for (const r of [broken, other, missing]) expect(r.err).not.toMatch(/\n\s+at /)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
