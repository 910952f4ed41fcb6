import { ReferenceServer } from "@data-access/reference-server"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as ContractTests from "../src/ContractTests.js"
import { connectError, forward, front } from "./front.js"

// Filters explore what the contract allows: groups nested to any depth, and timestamp values in
// every RFC 3339 form (other offsets, other fractional digits). A server that reads only one level
// of groups, or only `Z` timestamps, is found; the faithful server is not.

const KEY = ReferenceServer.DEFAULT_API_KEY

type Node = {
  readonly field?: { readonly key: string; readonly value?: { readonly value?: string } }
  readonly group?: { readonly filters: ReadonlyArray<Node> }
}

const nested = (f: Node | undefined): boolean =>
  f?.group?.filters.some((g) => g.group !== undefined) ?? false
const conditions = (f: Node | undefined): ReadonlyArray<NonNullable<Node["field"]>> =>
  f === undefined
    ? []
    : f.field !== undefined
      ? [f.field]
      : (f.group?.filters ?? []).flatMap(conditions)
const offsetTime = (f: Node | undefined) =>
  conditions(f).some(
    (c) => /_at$/.test(c.key) && c.value?.value !== undefined && !c.value.value.endsWith("Z")
  )

describe("the search family", () => {
  it.scoped(
    "finds a server that refuses nested groups or timestamps at another offset; the faithful server gets none",
    () =>
      Effect.gen(function* () {
        const inner = yield* ReferenceServer.start({})
        const url = yield* front(inner.url, (req) => {
          const filter = req.json?.filter as Node | undefined
          if (nested(filter))
            return connectError(400, "invalid_argument", "filter: groups do not nest")
          if (offsetTime(filter))
            return connectError(400, "invalid_argument", "filter: timestamps are UTC")
          return forward()
        })
        const options = {
          apiKey: Redacted.make(KEY),
          fixtures: inner.knownIds,
          seed: 4,
          examples: 40,
          rateLimit: undefined,
          concurrency: 4,
          shrinkBudget: 0,
          operations: ["ListSatellites"],
          checks: ["search-filter"]
        }
        const report = yield* ContractTests.run({ ...options, baseUrl: url })
        const found = report.findings.map((f) => `${f.rule}: ${f.message}`)
        expect(
          found.some((f) =>
            /^filter\.(match|group-operator|time-instants): .*"group".*"group".* was rejected with invalid_argument/.test(
              f
            )
          ),
          found.join("\n")
        ).toBe(true)
        expect(
          found.some((f) =>
            /^filter\.time-instants: .*[+-]\d\d:\d\d".* was rejected with invalid_argument/.test(f)
          ),
          found.join("\n")
        ).toBe(true)
        const faithful = yield* ContractTests.run({ ...options, baseUrl: inner.url })
        expect(faithful.findings.map((f) => f.message)).toEqual([])
        // The input coverage lists both time keys' values sent in another precision and at an offset.
        for (const key of ["created_at", "updated_at"])
          expect(
            faithful.fields?.find(
              (f) => f.operation === "ListSatellites" && f.field === `filter.field.value (${key})`
            )?.valid
          ).toEqual(expect.arrayContaining(["precision", "offset"]))
      }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
