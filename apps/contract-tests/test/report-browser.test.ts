// The HTML report in a real browser (headless Chromium from the project's own install, see
// browser.ts): opened from file:// with no console error, its counts equal to the JSON report's, a
// filter narrowing the findings, a screenshot where CI keeps it (reports/). Also: a HAR that
// Playwright's recordHar writes of a page talking to the reference server, judged offline. One
// browser for the whole file.
import { NodeHttpClient } from "@effect/platform-node"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { Browser, Page } from "playwright-core"
import { ReferenceServer } from "@data-access/reference-server"
import * as Embedded from "../src/Embedded.js"
import * as Har from "../src/Har.js"
import * as Proxy from "../src/Proxy.js"
import * as Report from "../src/Report.js"
import { launch } from "./browser.js"

/** Where CI keeps what the tests write (turbo's test outputs). */
const REPORTS = fileURLToPath(new URL("../reports/html/", import.meta.url))

let browser: Browser | undefined

beforeAll(async () => {
  Fs.mkdirSync(REPORTS, { recursive: true })
  browser = await launch()
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

const violations = (...names: Array<ReferenceServer.ViolationName>): ReferenceServer.Options => ({
  faults: { rules: names.map((name) => ({ fault: { _tag: "Violation" as const, name } })) }
})

/** A page of the browser that records console errors and uncaught exceptions. */
const openPage = (file: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      if (browser === undefined) throw new Error("no browser: the launch in beforeAll failed")
      const context = await browser.newContext({ viewport: { width: 1280, height: 1500 } })
      const page = await context.newPage()
      const errors: Array<string> = []
      const requests: Array<string> = []
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text())
      })
      page.on("pageerror", (e) => errors.push(String(e)))
      page.on("request", (r) => requests.push(r.url()))
      await page.goto(pathToFileURL(file).toString())
      return { page, errors, requests, close: () => context.close() }
    }),
    (p) => Effect.promise(() => p.close())
  )

/** The number a count box of the verdict shows. */
const shownCount = (page: Page, name: string) =>
  Effect.promise(async () => Number(await page.locator(`[data-count="${name}"] b`).textContent()))

const visibleFindings = (page: Page) =>
  Effect.promise(() => page.locator("article.finding:visible").count())

describe("the HTML report in headless Chromium", () => {
  it.scoped(
    "the runner's report: from file:// with no console error and no request but the file, the JSON report's counts, filters that narrow the findings, a screenshot",
    () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          examples: 3,
          seed: 5,
          operations: [
            "ListSatellites",
            "GetResource",
            "CreateConnector",
            "UpdateSatellite",
            "CreateHumanUserPassword",
            "ListIntegrationsMDM",
            "CreateIntegrationMDM",
            "GetEncryptionKeysByKeyId"
          ],
          server: violations(
            "limit-off-by-one",
            "non-utc-timestamp",
            "secret-in-error",
            "created-at-in-future"
          )
        })
        const json = JSON.parse(Report.toJson(report)) as Report.Report
        expect(json.findings.length).toBeGreaterThan(2)
        const file = Path.join(REPORTS, "contract-tests-report.html")
        Fs.writeFileSync(file, Report.toHtml(report))
        Fs.writeFileSync(Path.join(REPORTS, "contract-tests-report.json"), Report.toJson(report))
        const { errors, page, requests } = yield* openPage(file)

        expect(yield* Effect.promise(() => page.locator("[data-verdict]").textContent())).toBe(
          "FAIL"
        )
        const totals = Report.totals(json)
        expect(yield* shownCount(page, "findings")).toBe(Report.causesOf(json.findings).length)
        expect(yield* shownCount(page, "passed")).toBe(totals.passed)
        expect(yield* shownCount(page, "failed")).toBe(totals.failed)
        expect(yield* shownCount(page, "skipped")).toBe(totals.skipped)
        expect(yield* shownCount(page, "requests")).toBe(json.requests)
        expect(yield* shownCount(page, "notes")).toBe(json.observations.length)
        expect(yield* shownCount(page, "rules")).toBe(
          json.coverage!.filter((c) => c.judged > 0).length
        )
        expect(yield* visibleFindings(page)).toBe(json.findings.length)
        // Grouped by cause as the terminal groups them, each group in the table of contents; the
        // matrix before the findings; what the verdict covers said; nothing wider than the window.
        const causes = new Set(json.findings.map((f) => `${f.check}\u0000${f.cause}`))
        expect(yield* Effect.promise(() => page.locator("section.cause").count())).toBe(causes.size)
        expect(yield* Effect.promise(() => page.locator("#causes a").count())).toBe(causes.size)
        // (page.evaluate takes the browser's expressions as text: this file has no DOM types.)
        const inPage = <A>(expression: string) =>
          Effect.promise(() => page.evaluate(expression) as Promise<A>)
        expect(
          yield* inPage<boolean>(
            `document.getElementById("matrix").getBoundingClientRect().top < document.getElementById("findings").getBoundingClientRect().top`
          )
        ).toBe(true)
        expect(yield* Effect.promise(() => page.locator("#covers").textContent())).toContain(
          "The verdict covers the server under test"
        )
        expect(yield* inPage<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(
          1280
        )
        // The verdict stays in view when the page is scrolled to its end.
        yield* inPage("window.scrollTo(0, document.body.scrollHeight)")
        expect(
          yield* inPage<boolean>(
            `(() => { const r = document.getElementById("verdict").getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight })()`
          )
        ).toBe(true)
        yield* inPage("window.scrollTo(0, 0)")
        // The heatmap has a cell per operation and check, failures marked with their count.
        const failedCells = json.cells.filter((c) => c.failed > 0)
        expect(yield* Effect.promise(() => page.locator("table.heatmap td.fail").count())).toBe(
          failedCells.length
        )
        // Rules judged zero times are listed with why.
        expect(yield* Effect.promise(() => page.locator("table.zero tbody tr").count())).toBe(
          json.coverage!.filter((c) => c.judged === 0).length
        )

        yield* Effect.promise(() =>
          page.screenshot({ path: Path.join(REPORTS, "contract-tests-report.png") })
        )

        // Filter by severity, then also by operation: the findings shown are the JSON's that match.
        const severity =
          json.findings.find((f) => json.findings.some((g) => g.severity !== f.severity))
            ?.severity ?? json.findings[0]!.severity
        yield* Effect.promise(() => page.selectOption("#f-severity", severity))
        const bySeverity = json.findings.filter((f) => f.severity === severity)
        expect(bySeverity.length).toBeLessThan(json.findings.length)
        expect(yield* visibleFindings(page)).toBe(bySeverity.length)
        expect(yield* Effect.promise(() => page.locator("#shown").textContent())).toBe(
          `showing ${bySeverity.length} of ${json.findings.length}`
        )
        const operation = bySeverity[0]!.operation
        yield* Effect.promise(() => page.selectOption("#f-operation", operation))
        expect(yield* visibleFindings(page)).toBe(
          bySeverity.filter((f) => f.operation === operation).length
        )
        const rule = json.findings[0]!.rule
        yield* Effect.promise(async () => {
          await page.selectOption("#f-severity", "")
          await page.selectOption("#f-operation", "")
          await page.selectOption("#f-rule", rule)
        })
        expect(yield* visibleFindings(page)).toBe(
          json.findings.filter((f) => f.rule === rule).length
        )

        expect(errors).toEqual([])
        expect(requests).toEqual([pathToFileURL(file).toString()])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "the proxy's report (?format=html): server and client findings apart, counted as in the JSON report, a side filter",
    () =>
      Effect.gen(function* () {
        const server = yield* ReferenceServer.start(violations("wrong-status-for-code"))
        const proxy = yield* Proxy.start({ target: server.url })
        const post = (path: string, body: unknown) =>
          Effect.promise(() =>
            fetch(proxy.url + path, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "x-api-key": ReferenceServer.DEFAULT_API_KEY,
                "connect-protocol-version": "1"
              },
              body: JSON.stringify(body)
            }).then((r) => r.arrayBuffer())
          )
        yield* post("/core.v1.SatelliteService/ListSatellites", { limit: 501 })
        yield* post("/core.v1.SatelliteService/ListSatellites", { limit: 2 })
        yield* post("/core.v1.ResourceService/GetResource", {
          id: "resource_00000000000000000000000000"
        })
        yield* post("/core.v1.NoSuchService/Nothing", {})
        const html = yield* Effect.promise(() =>
          fetch(`${proxy.url}${Proxy.REPORT_PATH}?format=html`).then(async (r) => ({
            type: r.headers.get("content-type"),
            text: await r.text()
          }))
        )
        expect(html.type).toMatch(/^text\/html/)
        const json = yield* proxy.report
        const server_ = json.findings.filter((f) => f.side === "server")
        const client = json.findings.filter((f) => f.side === "client")
        expect(server_.length).toBeGreaterThan(0)
        expect(client.length).toBeGreaterThan(0)
        const file = Path.join(REPORTS, "proxy-report.html")
        Fs.writeFileSync(file, html.text)
        const { errors, page } = yield* openPage(file)
        expect(yield* shownCount(page, "findings")).toBe(Report.causesOf(json.findings).length)
        expect(yield* shownCount(page, "requests")).toBe(json.requests)
        const sideCount = (side: string) =>
          Effect.promise(async () =>
            Number(await page.locator(`[data-count="${side}-findings"]`).textContent())
          )
        expect(yield* sideCount("server")).toBe(Report.causesOf(server_).length)
        expect(yield* sideCount("client")).toBe(Report.causesOf(client).length)
        // The page says what its verdict covers: both sides, each counted.
        const covers = yield* Effect.promise(() => page.locator("#covers").textContent())
        expect(covers).toContain("The verdict covers both sides of the traffic")
        expect(covers).toContain(`${Report.causesOf(server_).length} server finding`)
        expect(covers).toContain(`${Report.causesOf(client).length} client finding`)
        expect(
          yield* Effect.promise(() =>
            page.locator(`section[data-side="server"] article.finding`).count()
          )
        ).toBe(server_.length)
        yield* Effect.promise(() => page.selectOption("#f-side", "client"))
        expect(yield* visibleFindings(page)).toBe(client.length)
        expect(
          yield* Effect.promise(() =>
            page.locator(`section[data-side="server"] .none-shown`).isVisible()
          )
        ).toBe(true)
        yield* Effect.promise(() =>
          page.screenshot({ path: Path.join(REPORTS, "proxy-report.png") })
        )
        expect(errors).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a HAR written by Playwright's recordHar (a page calling the API with fetch, answers compressed) is judged: the client's rule breaks, no server finding",
    () =>
      Effect.gen(function* () {
        // connect-get: the server compresses answers of 1 KiB or more for a client that offers an
        // encoding, as Chromium does; the HAR holds them decoded, with their Content-Encoding.
        const server = yield* ReferenceServer.start({ latitude: ["connect-get"] })
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "contract-tests-har-"))
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
        )
        const harFile = Path.join(dir, "playwright.har")
        const statuses = yield* Effect.promise(async () => {
          if (browser === undefined) throw new Error("no browser: the launch in beforeAll failed")
          const context = await browser.newContext({ recordHar: { path: harFile } })
          const page = await context.newPage()
          // The application's page, of its own origin (answered by the test; @sparticuz/chromium's flags
          // turn off CORS, which the reference server does not answer), calls the API's origin.
          await page.route("http://app.test/", (route) =>
            route.fulfill({
              status: 200,
              contentType: "text/html",
              body: "<!doctype html><title>app</title>"
            })
          )
          await page.goto("http://app.test/")
          const result = await page.evaluate(
            async ({ base, key }) => {
              const call = (path: string, body: unknown) =>
                fetch(base + path, {
                  method: "POST",
                  headers: {
                    "content-type": "application/json",
                    "x-api-key": key,
                    "connect-protocol-version": "1"
                  },
                  body: JSON.stringify(body)
                }).then(async (r) => [r.status, (await r.text()).length])
              return [
                await call("/core.v1.SatelliteService/ListSatellites", { limit: 50 }),
                await call("/core.v1.SatelliteService/ListSatellites", { limit: 501 }),
                await call("/core.v1.IntegrationMDMService/ListIntegrationsMDM", {
                  limit: 3,
                  order: "desc"
                })
              ]
            },
            { base: server.url, key: ReferenceServer.DEFAULT_API_KEY }
          )
          await context.close()
          return result
        })
        expect(statuses.map(([s]) => s)).toEqual([200, 400, 200])
        const har = yield* Har.decodeJson(Fs.readFileSync(harFile, "utf8"))
        expect(har.log.creator.name).toBe("Playwright")
        const listing = har.log.entries.find(
          (e) => e.request.url.endsWith("/ListSatellites") && e.response.status === 200
        )!
        // The answer came compressed; the HAR holds it decoded.
        expect(
          listing.response.headers.find((h) => h.name.toLowerCase() === "content-encoding")?.value
        ).toMatch(/gzip|br|deflate|zstd/)
        const report = Har.judge(har, { source: harFile })
        expect(report.findings.filter((f) => f.side === "server")).toEqual([])
        expect(report.findings.map((f) => [f.side, f.rule, f.operation])).toEqual([
          ["client", "lists.limit-range", "ListSatellites (client)"]
        ])
        // The three API calls are judged, the page of another origin left out; no body was left unread.
        expect(report.requests).toBe(3)
        expect(report.notes.join("\n")).toMatch(/1 of the 4 entries left out/)
        expect(report.notes.join("\n")).not.toMatch(/left unread/)
        // The compressed page of satellites was read: its count and limit were judged (paging).
        expect(
          report.cells.find((c) => c.operation === "ListSatellites" && c.check === "paging")?.passed
        ).toBe(1)
      })
  )
})
