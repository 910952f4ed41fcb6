import { ContractChecks, ContractRules } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { families } from "../src/internal/families/index.js"

// The rule table is the contract the runner holds a server to: every must quoted from the
// documents, every must checked and broken by a violation of the reference server, and no check
// outside the table.
const doc = (name: string) =>
  readFileSync(new URL(`../../../docs/spec/${name}`, import.meta.url), "utf8")
const docs = { "interface.md": doc("interface.md"), "decisions.md": doc("decisions.md") }
const flat = (s: string) => s.replace(/\s+/g, " ")

/** The text of a section: from its heading to the next heading of the same or a higher level. */
const sectionText = (text: string, title: string): string | undefined => {
  const lines = text.split("\n")
  const start = lines.findIndex((l) => /^#{2,3} /.test(l) && l.replace(/^#+ /, "").trim() === title)
  if (start === -1) return undefined
  const level = /^#+/.exec(lines[start]!)![0].length
  const end = lines.findIndex(
    (l, i) => i > start && /^#+ /.test(l) && /^#+/.exec(l)![0].length <= level
  )
  return lines.slice(start, end === -1 ? undefined : end).join("\n")
}

describe("the rule table", () => {
  it("quotes each rule's source verbatim, in the section it names", () => {
    for (const r of ContractRules.rules) {
      const section = sectionText(docs[r.source.doc], r.source.section)
      expect(section, `${r.id}: section ${r.source.section} of ${r.source.doc}`).toBeDefined()
      expect(flat(section!), `${r.id}: quote`).toContain(flat(r.source.quote))
    }
  })

  it("has unique ids, each with a check of the catalogue", () => {
    const ids = ContractRules.rules.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const r of ContractRules.rules) expect(ContractChecks.isCheckId(r.check), r.id).toBe(true)
  })

  it("every rule is broken by a violation of the reference server's catalogue that names it, caught by its check", () => {
    for (const r of ContractRules.rules) {
      const vs = ReferenceServer.violations.filter((v) => v.rule === r.id)
      expect(vs.length, `${r.id} has a violation`).toBeGreaterThan(0)
      for (const v of vs) expect(v.check, v.name).toBe(r.check)
    }
    for (const v of ReferenceServer.violations) {
      const rule = (v as { rule?: string }).rule
      expect(rule !== undefined && ContractRules.isRuleId(rule), `${v.name} names a rule`).toBe(
        true
      )
      expect(v.check).toBe(ContractRules.get(rule as ContractRules.RuleId).check)
    }
  })

  it("every check is made by a registered family, and every family reports only catalogue checks", () => {
    const made = new Set(families.flatMap((f) => f.checks))
    for (const c of ContractChecks.ids) expect(made.has(c), c).toBe(true)
    for (const c of made) expect(ContractChecks.isCheckId(c), c).toBe(true)
    for (const r of ContractRules.rules) expect(made.has(r.check), r.id).toBe(true)
  })

  it("a check with no rule cannot fail a run: every check has at least one rule", () => {
    for (const c of ContractChecks.ids)
      expect(
        ContractRules.rules.some((r) => r.check === c),
        c
      ).toBe(true)
  })

  it("each latitude row of decisions.md section 10 has a switch, and each note kind a quoted source", () => {
    const rows = sectionText(
      docs["decisions.md"],
      "10. Latitude: where a faithful server may choose"
    )!
      .split("\n")
      .filter((l) => l.startsWith("| ") && !l.startsWith("| Topic") && !l.startsWith("|---"))
    // The other switches are choices the documents leave open elsewhere, each saying where.
    expect(ContractRules.latitude.filter((l) => !("elsewhere" in l))).toHaveLength(rows.length)
    for (const n of ContractRules.notes)
      expect(flat(docs[n.source.doc])).toContain(flat(n.source.quote))
  })
})
