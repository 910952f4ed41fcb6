import { NodeHttpClient } from "@effect/platform-node"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ContractRules } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import * as Embedded from "../src/Embedded.js"
import * as Shard from "./shard.js"

// The cases of the files violations-<n>.test.ts, each of which defines one share of them: each case
// runs the runner against a server for seconds to a minute, and one file with all of them kept one
// of vitest's workers busy alone for minutes at the end (shard.ts).

/** Defines the `n`-th share (1-based) of `of` of the cases below. */
export const shard = (n: number, of: number) => {
  const { suite, test } = Shard.make(n, of)

  // Recall: every violation of the reference server's catalogue (each breaks one rule of the table)
  // fails the run with a finding under the check its rule names. Each run is narrowed to that check
  // and stops at its first finding (`maxFindings`) to stay quick. The violations take the two seeds
  // in turn: each is caught here on one of them, and the benchmark (bench/run.mjs) catches every
  // one with the full default options on each of 5 seeds.
  const SEEDS = [1, 2]
  // The suites a violation shows in besides its check's own: an answer cut at 64 KiB is read by
  // the walks that ask for every item at once (judged by wire.success on every exchange of a case).
  const SEEN_IN: Partial<Record<ReferenceServer.ViolationName, ReadonlyArray<"paging">>> = {
    "long-answers-cut": ["paging"]
  }
  // Seen on one operation each: the run is narrowed to it (the others would only cost time), with
  // creates enough for the valid suite's first requests (the free text stored as sent).
  const CREATES_ON_ONE = 30
  const ONLY_ON: Partial<Record<ReferenceServer.ViolationName, ReadonlyArray<string>>> = {
    "ids-match-loosely": ["GetPolicyStageConfiguration"],
    "key-ids-match-loosely": ["GetEncryptionKeysByKeyId"],
    "stored-text-trimmed": ["CreateBIIntegration"],
    "long-text-cut": ["CreatePermission"],
    "deadline-overflow": ["GetResource"],
    "search-term-trimmed": ["ListSatellites"],
    "filter-pads-spaces": ["ListSatellites"],
    "create-null-as-text": ["CreateDataDiscoveryConfiguration"]
  }
  // Seen by the model of the run's objects once a walk overlaps no other case's create: one case at a time.
  const ONE_AT_A_TIME: ReadonlySet<ReferenceServer.ViolationName> = new Set([
    "lists-forget-older-creates"
  ])

  suite("each contract violation of the reference server is caught by its rule's check", () => {
    ReferenceServer.violations.forEach((violation, i) => {
      const rule = ContractRules.get(violation.rule)
      const seed = SEEDS[i % SEEDS.length]!
      test(`${violation.name} → ${rule.check} (${rule.id}, seed ${seed})`, () =>
        Effect.gen(function* () {
          const report = yield* Embedded.run({
            seed,
            // search and filter cases are half the examples: more of them for the oracles' rules
            examples: rule.check === "search-filter" ? 60 : 10,
            shrinkBudget: 10,
            maxFindings: 1,
            ...(ONE_AT_A_TIME.has(violation.name) ? { concurrency: 1 } : {}),
            ...(ONLY_ON[violation.name] === undefined
              ? {}
              : { operations: [...ONLY_ON[violation.name]!], createsPerOperation: CREATES_ON_ONE }),
            checks: [rule.check, ...(SEEN_IN[violation.name] ?? [])],
            server: {
              faults: { rules: [{ fault: { _tag: "Violation", name: violation.name } }] }
            }
          }).pipe(Effect.scoped)
          const finding = report.findings.find((f) => f.check === rule.check)
          expect(finding, violation.description).toBeDefined()
          expect(finding!.replayId).toMatch(/^ct1\./)
          expect(finding!.curl).not.toContain(ReferenceServer.DEFAULT_API_KEY)
          expect(ContractRules.isRuleId(finding!.rule)).toBe(true)
        }).pipe(Effect.provide(NodeHttpClient.layerUndici)))
    })
  })

  // The model of the run's objects: answers that each look right alone, wrong against what the
  // run's own writes and reads showed (a List walked whole that leaves out an object the run
  // created). Only the operations that can see each are run.
  suite("the model of the run's objects", () => {
    for (const [violation, operations, rule] of [
      ["update-turns-off-unsent", ["UpdateConnectorHostname"], "updates.model"],
      ["list-without-nested", ["UpdateSatellite", "ListSatellites"], "updates.model"],
      [
        "lists-forget-older-creates",
        ["CreateIntegrationMDM", "ListIntegrationsMDM"],
        "echo.create-stored"
      ]
    ] as const) {
      test(`${violation} → ${rule}`, () =>
        Effect.gen(function* () {
          // One case at a time: the writes of one case never overlap another's.
          const report = yield* Embedded.run({
            seed: 2,
            examples: 10,
            concurrency: 1,
            operations: [...operations],
            checks: [ContractRules.get(rule).check],
            server: { faults: { rules: [{ fault: { _tag: "Violation", name: violation } }] } }
          })
          expect(report.findings.map((f) => f.rule)).toContain(rule)
        }).pipe(Effect.provide(NodeHttpClient.layerUndici)))
    }
  })

  suite("findings", () => {
    test("are shrunk to a minimal request: only the required field and the one unknown field that breaks it", () =>
      Effect.gen(function* () {
        const report = yield* Embedded.run({
          seed: 3,
          examples: 30,
          operations: ["ListSatellites"],
          checks: ["valid-accepted"],
          server: {
            faults: { rules: [{ fault: { _tag: "Violation", name: "rejects-unknown-field" } }] }
          }
        })
        expect(report.findings).toHaveLength(1)
        const f = report.findings[0]!
        expect(f.rule).toBe("wire.unknown-fields-ignored")
        expect(f.source).toContain("decisions.md § 1. Wire rules")
        expect(f.shrinkSteps).toBeGreaterThan(0)
        const body = JSON.parse(f.request.body!) as Record<string, unknown>
        expect(Object.keys(body)).toHaveLength(2)
        expect(body).toHaveProperty("limit", 1)
        expect(f.occurrences).toBeGreaterThan(1)
      }).pipe(Effect.provide(NodeHttpClient.layerUndici)))
  })

  suite("response-schema findings", () => {
    for (const [violation, cause] of [
      ["wrong-field-type", "resource.id: Type"],
      ["missing-required-field", "resource.id: Missing"],
      ["non-utc-timestamp", "resource.createdAt: not Z"]
    ] as const) {
      test(`name the JSON path (${violation})`, () =>
        Effect.gen(function* () {
          const report = yield* Embedded.run({
            seed: 1,
            examples: 5,
            operations: ["GetResource"],
            checks: ["response-schema"],
            server: { faults: { rules: [{ fault: { _tag: "Violation", name: violation } }] } }
          })
          expect(report.findings.map((f) => f.cause)).toEqual([cause])
          expect(report.findings[0]!.message).toContain("resource.")
        }).pipe(Effect.provide(NodeHttpClient.layerUndici)))
    }
  })
}
