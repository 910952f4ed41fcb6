// Every rule of the schema's catalogue is judged in one place: the oracle module of one check
// (`src/internal/oracles/<check>.ts`) names it, and no other oracle module does; the folder holds
// those modules and its index, nothing else.
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { ContractRules } from "@data-access/schema"
import { ids as checkIds } from "@data-access/schema/ContractChecks"

const oracles = resolve(dirname(fileURLToPath(import.meta.url)), "../src/internal/oracles")

/** The code of a module without its comments: a rule a comment names is not judged there. */
const code = (text: string): string =>
  text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "")

/** Each check's oracle module, by check, as code. */
const modules: ReadonlyArray<readonly [string, string]> = readdirSync(oracles)
  .filter((name) => (checkIds as ReadonlyArray<string>).includes(name.replace(/\.ts$/, "")))
  .map((name) => [name.replace(/\.ts$/, ""), code(readFileSync(join(oracles, name), "utf8"))])

/** The checks whose oracle module names `rule` (as a string literal). */
const judgedBy = (
  rule: string,
  among: ReadonlyArray<readonly [string, string]> = modules
): ReadonlyArray<string> =>
  among.filter(([, text]) => text.includes(`"${rule}"`)).map(([check]) => check)

/** The rules judged by no oracle module, or by more than one. */
const misplaced = (
  rules: ReadonlyArray<string>,
  among: ReadonlyArray<readonly [string, string]> = modules
): ReadonlyArray<string> =>
  rules.flatMap((rule) => {
    const by = judgedBy(rule, among)
    return by.length === 1 ? [] : [`${rule}: ${by.length === 0 ? "no oracle" : by.join(", ")}`]
  })

describe("one oracle per rule", () => {
  it("every rule of the catalogue is judged by exactly one check's oracle module", () => {
    expect(modules.length).toBeGreaterThan(10)
    expect(misplaced(ContractRules.rules.map((r) => r.id))).toEqual([])
  })

  it("would show a rule judged nowhere and one judged in two modules", () => {
    const among = [
      ["paging", 'fail("lists.count", ...)'],
      ["search-filter", 'passes(["lists.count", "search.match"]) // "filter.match"']
    ].map(([check, text]) => [check!, code(text!)] as const)
    expect(misplaced(["lists.count", "search.match", "filter.match"], among)).toEqual([
      "lists.count: paging, search-filter",
      "filter.match: no oracle"
    ])
  })

  it("the oracles folder holds one module per check, named by it, and its index: no helper", () => {
    expect(readdirSync(oracles).sort()).toEqual(
      [...checkIds.map((check) => `${check}.ts`), "index.ts"].sort()
    )
  })
})
