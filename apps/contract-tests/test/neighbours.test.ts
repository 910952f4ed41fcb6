import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { forward, front } from "./front.js"

// For every operator of a filter and for search, the run sends values on which the neighbouring
// readings give different answers, chosen from the items it has read: a server that reads one
// operator as its neighbour, or searches only `name`, is found on a default run.

const KEY = ReferenceServer.DEFAULT_API_KEY

type Json = Record<string, unknown>

/** The filter with every condition's operator read as another. */
const rewrite = (f: unknown, as: Readonly<Record<string, string>>): unknown => {
  if (f === null || typeof f !== "object") return f
  const node = f as Json
  const field = node.field as Json | undefined
  const group = node.group as Json | undefined
  if (field !== undefined)
    return { ...node, field: { ...field, operator: as[String(field.operator)] ?? field.operator } }
  if (group !== undefined)
    return {
      ...node,
      group: { ...group, filters: (group.filters as Array<unknown>).map((x) => rewrite(x, as)) }
    }
  return f
}

const readings: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]> = [
  ["contains read as starts_with", { contains: "starts_with" }],
  ["starts_with read as contains", { starts_with: "contains" }],
  ["ends_with read as contains", { ends_with: "contains" }],
  ["equals read as contains", { equals: "contains" }],
  ["not_equals read as not_contains", { not_equals: "not_contains" }],
  ["not_contains read as not_equals", { not_contains: "not_equals" }]
]

describe("neighbouring readings of filter operators and search", () => {
  it.scoped(
    "each is found on a default run",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const options = {
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 1,
          rateLimit: undefined,
          concurrency: 4,
          shrinkBudget: 0,
          operations: ["ListSatellites", "ListIntegrationsMDM", "ListScenarioMonitors"],
          checks: ["search-filter"]
        }
        // A finding is all each reading's run has to show: the first one ends it (maxFindings).
        const missed: Array<string> = []
        for (const [name, as] of readings) {
          const url = yield* front(inner.url, (req) =>
            req.json?.filter === undefined
              ? forward()
              : forward({
                  text: JSON.stringify({ ...req.json, filter: rewrite(req.json.filter, as) })
                })
          )
          const report = yield* ContractTests.run({ ...options, maxFindings: 1, baseUrl: url })
          if (!report.findings.some((f) => f.rule.startsWith("filter."))) missed.push(name)
        }
        // Search in name only, whatever searchFields says.
        const nameOnly = yield* front(inner.url, (req) =>
          req.json?.searchFields === undefined
            ? forward()
            : forward({ text: JSON.stringify({ ...req.json, searchFields: ["name"] }) })
        )
        const report = yield* ContractTests.run({ ...options, maxFindings: 1, baseUrl: nameOnly })
        if (!report.findings.some((f) => f.rule.startsWith("search.")))
          missed.push("search in name only")
        expect(missed).toEqual([])
        // The faithful server, alone and under the switches of the filter's choices, gets none.
        for (const latitude of [
          [],
          ["filter-case-insensitive"],
          ["strict-filter-types"],
          "all"
        ] as const) {
          const server = yield* ReferenceServer.start({ latitude })
          const faithful = yield* ContractTests.run({
            ...options,
            fixtures: server.knownIds,
            baseUrl: server.url
          })
          expect(
            faithful.findings.map((f) => f.message),
            String(latitude)
          ).toEqual([])
        }
      }).pipe(Effect.provide(NodeHttpClient.layerUndici)),
    240_000
  )
})
