// Under the machine's Node only (scripts/node-lines): the rule table and the documents it cites, read as files.
import { describe, expect, it } from "@effect/vitest"
import { readdirSync } from "node:fs"
import { ContractChecks, ContractRules } from "../src/index.js"
import * as Registry from "../src/rules/index.js"

// The checks and rules are stated once, by check, in src/rules/<check>.ts; the public modules are
// derived from that registry.
describe("the rule registry", () => {
  it("has one module per check, named by its id, registered in report order", () => {
    const files = readdirSync(new URL("../src/rules", import.meta.url))
      .filter((f) => f !== "index.ts")
      .map((f) => f.replace(/\.ts$/, ""))
      .sort()
    expect(Registry.checks.map((c) => c.id).sort()).toEqual(files)
    expect(ContractChecks.ids).toEqual(Registry.checks.map((c) => c.id))
    expect(ContractChecks.checks).toEqual(
      Registry.checks.map(({ id, meaning, severity }) => ({ id, meaning, severity }))
    )
  })

  it("gives every rule the check of the module that states it, each id once", () => {
    const expected = Registry.checks.flatMap((c) => c.rules.map((r) => ({ ...r, check: c.id })))
    expect(ContractRules.rules).toEqual(expected)
    expect(new Set(ContractRules.rules.map((r) => r.id)).size).toBe(ContractRules.rules.length)
    for (const r of ContractRules.rules) {
      expect(ContractRules.get(r.id)).toBe(r)
      expect(ContractRules.isRuleId(r.id)).toBe(true)
      expect(ContractChecks.isCheckId(r.check)).toBe(true)
      expect(Object.keys(r)).toEqual(["id", "must", "source", "check"])
    }
    expect(ContractRules.isRuleId("paging")).toBe(false)
  })

  it("keeps the ids literal types", () => {
    const rule: ContractRules.RuleId = "lists.count"
    const check: ContractChecks.CheckId = "paging"
    // @ts-expect-error not a rule id
    const notRule: ContractRules.RuleId = "lists.nothing"
    // @ts-expect-error not a check id
    const notCheck: ContractChecks.CheckId = "nothing"
    expect([rule, check, notRule, notCheck]).toHaveLength(4)
    expect(ContractRules.get(rule).check).toBe(check)
  })
})
