/**
 * The judges of StrykerJS's mutants: contract-test runs against the reference server's source,
 * one test per operation (its suites only), one for the whole API's suites and one per latitude
 * switch. Each expects what the faithful server gets, zero findings, so a mutant that changes an
 * observable must is killed by the run of the operation whose code it changed; StrykerJS's per-test
 * coverage runs only the tests whose run executes the mutated code.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { Operations } from "@data-access/schema"
import * as Redacted from "effect/Redacted"
import { ContractTests, Embedded, Report } from "@data-access/contract-tests"
import { Fixtures, Latitude, ReferenceServer } from "@data-access/reference-server"
import { demoData } from "../../../packages/reference-server/src/internal/demo.js"

/** The run's seed and examples per property: `MUTATION_SEED`, `MUTATION_EXAMPLES`. */
const SEED = Number(process.env.MUTATION_SEED ?? 7)
const EXAMPLES = Number(process.env.MUTATION_EXAMPLES ?? 20)

const RUN = { seed: SEED, examples: EXAMPLES, shrinkBudget: 0, timeout: "3 seconds" } as const

const isFaithful = (report: Report.Report) => {
  expect(report.findings.map(Report.findingText)).toEqual([])
  expect(Report.totals(report).failed).toBe(0)
  // The faithful server's demo data lets every suite run: a suite skipped for missing
  // prerequisites means the server lost an object or a known id (its fixtures, its store).
  expect(Report.totals(report).skipped).toBe(0)
}

const zeroFindings = (options: Embedded.Options) =>
  Effect.map(Embedded.run({ ...RUN, ...options }), isFaithful).pipe(
    Effect.scoped,
    Effect.provide(NodeHttpClient.layerUndici)
  )

describe("the faithful server's operations", () => {
  for (const op of Operations.all) {
    it.effect(op.method, () => zeroFindings({ operations: [op.method] }))
  }
  // The whole API's suites (unknown routes, methods...) run only when no operation is named.
  it.effect("the whole API", () => zeroFindings({ examples: 2, createsPerOperation: 5 }))
})

// The other stores and seeds: the SQLite store, and the demo data given as fixtures to an empty store.
describe("the faithful server's stores", () => {
  it.effect("the SQLite store", () =>
    zeroFindings({ examples: 5, server: { store: { _tag: "Sqlite", filename: ":memory:" } } })
  )
  // Each collection written newest first (the store orders them, not the file), with one more
  // encryption key that has no keyId (its schema allows it; no known keyId is empty).
  const withKeyWithoutKeyId = () => {
    const data = Object.fromEntries(
      demoData().map(([name, objects]) => [name, [...objects].reverse()])
    ) as Record<string, ReadonlyArray<Record<string, unknown>>>
    const key = data.encryptionKeys![0]!
    return {
      ...data,
      encryptionKeys: [...data.encryptionKeys!, { ...key, id: `${String(key.id)}x`, keyId: "" }]
    }
  }
  it.effect("fixtures written into an empty store", () =>
    Effect.flatMap(Fixtures.decodeUnknown(withKeyWithoutKeyId()), (fixtures) =>
      zeroFindings({ examples: 5, server: { data: "empty", fixtures } })
    ).pipe(Effect.orDie)
  )
})

// Without a socket: the whole run through the server's in-process HttpClient (packages/testing's double).
it.effect("the faithful server in process", () =>
  Effect.gen(function* () {
    const server = yield* ReferenceServer.InProcess
    isFaithful(
      yield* ContractTests.run({
        ...RUN,
        examples: 5,
        baseUrl: server.url,
        apiKey: Redacted.make(server.apiKeys[0]!),
        fixtures: server.knownIds
      })
    )
  }).pipe(Effect.scoped, Effect.provide(ReferenceServer.layerHttpClient()))
)

// Every switch at once, as the faithful proof runs them together: one run covers every record's
// hooks. The switches are named as a command line names them (some in one entry with commas and
// spaces, the rest one by one), so the names are read as the server reads them.
it.effect("the faithful server with every latitude switch", () => {
  const half = Math.ceil(Latitude.names.length / 2)
  const entries = [
    Latitude.names.slice(0, half).join(" , "),
    ...Latitude.names.slice(half),
    " ",
    ""
  ]
  return Effect.flatMap(Latitude.parse(entries), (latitude) => {
    expect(latitude).toEqual(Latitude.names)
    return zeroFindings({ examples: 10, server: { latitude } })
  })
})

// The names a command line may give: `all`, and an unknown name, refused with the known ones.
it("the latitude switches as a command line names them", () => {
  expect(Latitude.parse(["unique-names", "all"])).toEqual(Either.right("all"))
  const refused = Latitude.parse(["unique-names, no-such-switch", "nor-this"])
  expect(Either.isLeft(refused) && refused.left.unknown).toEqual(["no-such-switch", "nor-this"])
  expect(Either.isLeft(refused) && refused.left.message).toContain(
    `"no-such-switch", "nor-this"; known: ${Latitude.names.join(", ")}`
  )
  expect(Either.isLeft(Latitude.resolve(["no-such-switch" as Latitude.LatitudeName]))).toBe(true)
})
