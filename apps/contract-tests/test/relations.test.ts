import { ReferenceServer } from "@data-access/reference-server"
import { ContractRules } from "@data-access/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import type * as Checks from "../src/Checks.js"
import * as ContractTests from "../src/ContractTests.js"
import * as Embedded from "../src/Embedded.js"
import * as Report from "../src/Report.js"
import { answer, forward, front, type Incoming } from "./front.js"

// The relations family: states no single generated request reaches. A server in front of the
// faithful one breaks one relation the documents state (an updated object listed with its old
// updatedAt, created objects left out of search and filter results, a cursor on a page that is
// not full leading to an empty page) and is found; the same server making only a faithful choice
// (a full last page whose cursor leads to an empty page) is not, nor is the faithful server with
// every latitude switch.

const KEY = ReferenceServer.DEFAULT_API_KEY

type Json = Record<string, any>

/** The items of a List answer: its one array field besides listMetadata. */
const itemsKey = (json: Json): string | undefined =>
  Object.keys(json).find((k) => k !== "listMetadata" && Array.isArray(json[k]))

/** A List answer's body, changed. */
const listReply =
  (change: (json: Json, key: string | undefined) => void) => (text: string, status: number) => {
    if (status !== 200) return text
    const json = JSON.parse(text) as Json
    change(json, itemsKey(json))
    return JSON.stringify(json)
  }

const isList = (req: Incoming) => /\/List[A-Za-z]+$/.test(req.url)

const runAgainst = (
  url: string,
  knownIds: ReferenceServer.Running["knownIds"],
  operations: ReadonlyArray<string>,
  checks: ReadonlyArray<Checks.CheckId>,
  seed = 3
) =>
  ContractTests.run({
    baseUrl: url,
    apiKey: Redacted.make(KEY),
    fixtures: knownIds,
    seed,
    examples: 10,
    rateLimit: undefined,
    concurrency: 2,
    shrinkBudget: 0,
    operations,
    checks
  })

/** The cursor the front server hands out on a full last page; it leads to an empty page. */
const END = "ct-front-end"

/**
 * A front server whose Lists put a cursor on full last pages (`everyLast`: on every last page
 * with items), each leading to an empty page with no cursor.
 */
const cursorOnLastPage = (inner: string, everyLast: boolean) =>
  front(inner, (req) => {
    if (!isList(req)) return forward()
    if (req.json?.cursor === END) return answer(200, { listMetadata: { count: 0 } })
    return forward({
      reply: listReply((json, key) => {
        const items = key === undefined ? [] : (json[key] as Array<unknown>)
        const meta = (json.listMetadata ?? {}) as Json
        if (items.length === 0 || (typeof meta.nextCursor === "string" && meta.nextCursor !== ""))
          return
        if (everyLast || items.length === req.json?.limit)
          json.listMetadata = { ...meta, nextCursor: END }
      })
    })
  })

const LISTS = [
  "ListSatellites",
  "ListIntegrationsMDM",
  "ListNativeUsers",
  "ListLogQueries",
  "ListScenarioMonitors",
  "ListPolicyStageConfigurations"
]

describe("the relations family", () => {
  it.scoped(
    "a List that shows an updated object with its old updatedAt is found (updates.listed); the faithful server is not",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const firstSeen = new Map<string, string>()
        const url = yield* front(inner.url, (req) =>
          req.url.endsWith("/ListSatellites")
            ? forward({
                reply: listReply((json, key) => {
                  for (const item of (key === undefined ? [] : json[key]) as Array<Json>) {
                    const seen = firstSeen.get(item.id)
                    if (seen === undefined) firstSeen.set(item.id, item.updatedAt)
                    else item.updatedAt = seen
                  }
                })
              })
            : forward()
        )
        const faulty = yield* runAgainst(
          url,
          inner.knownIds,
          ["UpdateSatellite"],
          ["update-semantics"]
        )
        expect(faulty.findings.map((f) => `${f.operation} ${f.rule}`)).toContain(
          "UpdateSatellite updates.listed"
        )
        expect(faulty.findings.find((f) => f.rule === "updates.listed")?.message).toContain(
          "updatedAt"
        )
        const faithful = yield* runAgainst(
          inner.url,
          inner.knownIds,
          ["UpdateSatellite"],
          ["update-semantics"]
        )
        expect(faithful.findings.map(Report.findingText)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "objects this run created, left out of search and filter results, are found; the faithful server's are not",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const url = yield* front(inner.url, (req) =>
          req.url.endsWith("/ListIntegrationsMDM") &&
          (req.json?.search !== undefined || req.json?.filter !== undefined)
            ? forward({
                reply: listReply((json, key) => {
                  if (key === undefined) return
                  json[key] = (json[key] as Array<Json>).filter(
                    (x) => !String(x.name).startsWith("ct-")
                  )
                  json.listMetadata = {
                    ...json.listMetadata,
                    count: json[key].length,
                    before: json[key][0]?.id ?? "",
                    after: json[key].at(-1)?.id ?? ""
                  }
                })
              })
            : forward()
        )
        const faulty = yield* runAgainst(
          url,
          inner.knownIds,
          ["CreateIntegrationMDM"],
          ["create-echo", "search-filter"]
        )
        const rules = faulty.findings.map((f) => f.rule)
        expect(
          rules.some((r) => r === "search.match" || r === "filter.match"),
          faulty.findings.map(Report.findingText).join("\n")
        ).toBe(true)
        expect(faulty.findings.every((f) => f.operation === "CreateIntegrationMDM")).toBe(true)
        const faithful = yield* runAgainst(
          inner.url,
          inner.knownIds,
          ["CreateIntegrationMDM"],
          ["create-echo", "search-filter"]
        )
        expect(faithful.findings.map(Report.findingText)).toEqual([])
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.scoped(
    "a full last page whose cursor leads to an empty page is faithful; a cursor on a last page that is not full is found",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        for (const seed of [1, 2]) {
          const full = yield* cursorOnLastPage(inner.url, false)
          const faithful = yield* runAgainst(full, inner.knownIds, LISTS, ["paging"], seed)
          expect(faithful.findings.map(Report.findingText), `seed ${seed}`).toEqual([])
          expect(Report.totals(faithful).passed).toBeGreaterThan(0)
        }
        const every = yield* cursorOnLastPage(inner.url, true)
        const faulty = yield* runAgainst(every, inner.knownIds, LISTS, ["paging"])
        expect(faulty.findings.map((f) => f.rule)).toContain("lists.next-cursor")
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  // The latitude family's probes (names over 255 characters or with control characters, which a
  // server may refuse) come on top and are not counted here.
  it.scoped(
    "creates of valid requests stay within --creates-per-operation, the relations' included",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        let made = 0
        const plain = (name: unknown) =>
          typeof name === "string" && name.length <= 255 && !/\p{Cc}/u.test(name)
        const url = yield* front(
          inner.url,
          () => forward(),
          (req, status) => {
            if (
              req.url.endsWith("/CreateIntegrationMDM") &&
              status === 200 &&
              plain(req.json?.name)
            )
              made++
          }
        )
        const report = yield* ContractTests.run({
          baseUrl: url,
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 5,
          examples: 20,
          createsPerOperation: 8,
          rateLimit: undefined,
          shrinkBudget: 0,
          operations: ["CreateIntegrationMDM"],
          checks: ["create-echo", "valid-accepted"]
        })
        expect(report.findings.map(Report.findingText)).toEqual([])
        expect(
          report.coverage?.find((c) => c.rule === "echo.create-stored")?.judged
        ).toBeGreaterThan(0)
        expect(made).toBeGreaterThan(0)
        expect(made).toBeLessThanOrEqual(8)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  // With no latitude switch, with all of them, and writing every field: faithful.ts's runs, each
  // judging every rule (these among them) on every operation.
  it.scoped(
    "the relations of the faithful server with the switches return-secrets, parent-not-found, empty-page-meta and filter-case-insensitive: zero findings, each relation's rule judged",
    () =>
      Effect.gen(function* () {
        const operations = [
          "CreateIntegrationMDM",
          "UpdateSatellite",
          "CreateHumanUserPassword",
          "CreateNativeUserIdentityLink",
          "GetEncryptionKeysByKeyId",
          ...LISTS
        ]
        const checks: ReadonlyArray<Checks.CheckId> = [
          "create-echo",
          "update-semantics",
          "paging",
          "search-filter"
        ]
        const latitude: Array<ContractRules.LatitudeName> = [
          "return-secrets",
          "parent-not-found",
          "empty-page-meta",
          "filter-case-insensitive"
        ]
        const report = yield* Embedded.run({
          seed: 4,
          examples: 12,
          operations,
          checks,
          server: { latitude }
        }).pipe(Effect.scoped)
        expect(report.findings.map(Report.findingText)).toEqual([])
        const judged = new Set(
          (report.coverage ?? []).filter((c) => c.judged > 0).map((c) => c.rule)
        )
        for (const rule of [
          "echo.create-stored",
          "updates.listed",
          "keys.known-key-id",
          "echo.password-user",
          "echo.create-references",
          "lists.next-cursor",
          "lists.walk-complete"
        ]) {
          expect(judged.has(rule as ContractRules.RuleId), `${rule} judged`).toBe(true)
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
