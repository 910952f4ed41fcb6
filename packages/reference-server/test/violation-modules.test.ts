// Under the machine's Node only (scripts/node-lines): the catalogue's modules, read as files.
import { ContractChecks, ContractRules } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Fs from "node:fs"
import { Faults } from "../src/index.js"
import * as Catalogue from "../src/internal/violations/index.js"
import type { ViolationRecord } from "../src/internal/violationRecord.js"

/** The catalogue's order: the public list, the reports and the composition of hooks follow it. */
const ORDER = [
  "server-error-on-unknown-field",
  "success-content-type",
  "invalid-error-body",
  "wrong-status-for-code",
  "rate-limit-without-retry-after",
  "rate-limit-reset-delta",
  "unknown-id-invalid",
  "unknown-reference-accepted",
  "secret-in-error",
  "key-in-error",
  "missing-required-field",
  "wrong-field-type",
  "non-utc-timestamp",
  "timestamp-fraction-digits",
  "int64-as-number",
  "snake-case-output",
  "created-at-in-future",
  "expires-at-in-past",
  "rejects-unknown-field",
  "rejects-snake-case",
  "rejects-null",
  "requires-optional-field",
  "limit-off-by-one",
  "ignored-min-length",
  "ignored-limit-range",
  "ignored-enum",
  "ignored-json-type",
  "list-entry-type-dropped",
  "ignored-required",
  "ignored-one-of",
  "ignored-connector-name-pattern",
  "empty-body-accepted",
  "non-object-body-accepted",
  "unknown-cursor-accepted",
  "unknown-filter-key-accepted",
  "empty-group-accepted",
  "ignored-filter-one-of",
  "auth-ignored",
  "wrong-method-accepted",
  "unknown-route-wrong-code",
  "content-type-ignored",
  "version-header-ignored",
  "small-body-limit",
  "deadline-wrong-code",
  "deadline-held",
  "long-deadline-passed",
  "media-type-exact",
  "json-escapes-literal",
  "zero-value-refused",
  "route-case-insensitive",
  "route-by-method-name",
  "route-by-prefix",
  "ids-from-clock",
  "create-not-echoed",
  "identity-link-wrong-group",
  "identity-link-without-native-user",
  "create-without-created-at",
  "create-default-not-zero",
  "password-for-another-user",
  "create-stored-differently",
  "update-ignored",
  "update-keeps-old-reference",
  "update-false-ignored",
  "update-clears-unsent",
  "update-null-clears",
  "update-not-stored",
  "updated-at-not-moved",
  "update-stale-index",
  "paging-count-mismatch",
  "limit-exceeded",
  "paging-duplicates",
  "paging-skips",
  "next-cursor-on-last-page",
  "empty-page-next-cursor",
  "after-before-swapped",
  "order-ignored",
  "search-ignored",
  "search-case-sensitive",
  "search-fields-ignored",
  "filter-ignored",
  "filter-or-as-and",
  "time-filter-as-text",
  "time-filter-value-precision",
  "space-filter-ignored",
  "parent-scope-ignored",
  "key-id-ignored",
  "key-id-as-object-id",
  "get-wrong-object",
  "unstable-read",
  "shared-search-fields",
  "shared-filter-keys",
  "search-like-wildcards",
  "filter-regex",
  "empty-operators-null",
  "cursor-page-number",
  "limit-one-refused",
  "short-parent-id-refused",
  "name-255-refused",
  "media-type-parameter-refused",
  "success-byte-order-mark",
  "error-byte-order-mark",
  "selection-first-page-only",
  "empty-search-fields-nothing",
  "min-length-in-bytes",
  "list-without-nested",
  "update-turns-off-unsent",
  "time-filter-fraction-grouped",
  "time-filter-offset-ignored",
  "nested-null-refused",
  "json-escapes-nested-literal",
  "boolean-strings-coerced",
  "nested-or-as-and",
  "leading-digit-name-refused",
  "lists-forget-older-creates",
  "search-ascii-case-folding",
  "success-charset-latin1",
  "error-charset-latin1",
  "long-answers-cut",
  "secrets-masked",
  "listed-flags-inverted",
  "ids-match-loosely",
  "key-ids-match-loosely",
  "stored-text-trimmed",
  "long-text-cut",
  "deadline-overflow",
  "search-term-trimmed",
  "filter-pads-spaces",
  "create-null-as-text"
]

const folder = new URL("../src/internal/violations/", import.meta.url)

const isRecord = (u: unknown): u is ViolationRecord =>
  typeof u === "object" && u !== null && "name" in u && "rule" in u && "hooks" in u

describe("the violations folder", () => {
  it("keeps the catalogue's order", () => {
    expect(Catalogue.records.map((r) => r.name)).toEqual(ORDER)
    expect(Faults.violations.map((v) => v.name)).toEqual(ORDER)
  })

  it("has one module per check, holding exactly the records whose rule belongs to that check, each listed once in the catalogue", async () => {
    const files = Fs.readdirSync(folder).filter((f) => f.endsWith(".ts"))
    const listed = new Set<ViolationRecord>(Catalogue.records)
    const found: Array<ViolationRecord> = []
    for (const check of ContractChecks.ids) {
      expect(files, check).toContain(`${check}.ts`)
      const module = (await import(new URL(`${check}.ts`, folder).href)) as Record<string, unknown>
      const records = Object.values(module).filter(isRecord)
      expect(records.length, check).toBeGreaterThan(0)
      for (const r of records) {
        expect(ContractRules.get(r.rule as ContractRules.RuleId).check, r.name).toBe(check)
        expect(listed.has(r), `${r.name} is in the catalogue`).toBe(true)
        found.push(r)
      }
    }
    expect(found.length).toBe(Catalogue.records.length)
  })

  it("has no check module importing another", () => {
    const checks = new Set<string>(ContractChecks.ids)
    for (const check of checks) {
      const text = Fs.readFileSync(new URL(`${check}.ts`, folder), "utf8")
      const imported = [...text.matchAll(/from "\.\/([\w-]+)\.js"/g)].map((m) => m[1]!)
      expect(
        imported.filter((m) => checks.has(m)),
        check
      ).toEqual([])
    }
  })

  it("holds one module per check, named by it, and its index: no helper", () => {
    expect(Fs.readdirSync(folder).sort()).toEqual(
      [...ContractChecks.ids.map((check) => `${check}.ts`), "index.ts"].sort()
    )
  })
})
