/**
 * The shapes a check module of `rules/` states: a check (id, meaning, severity) and its rules, each
 * a must quoted from the documents.
 */

/** How much a failed check matters to a user of the API (`ContractChecks.Severity`). */
export type Severity = "critical" | "major" | "minor"

/** Where a rule is written: the document, its section and a verbatim quote (whitespace may differ). */
export interface Source {
  readonly doc: "interface.md" | "decisions.md"
  readonly section: string
  readonly quote: string
}

/** One must as its check's module states it: the check is the module's. */
export interface RuleText {
  readonly id: string
  /** The must, in one sentence. */
  readonly must: string
  readonly source: Source
}

/** One check as its module states it, with its rules. */
export interface CheckText {
  readonly id: string
  readonly meaning: string
  readonly severity: Severity
  readonly rules: ReadonlyArray<RuleText>
}

/** A check with its rules, its ids kept as literal types. */
export const check = <const C extends CheckText>(c: C): C => c

/** A source in interface.md. */
export const i = (section: string, quote: string): Source => ({
  doc: "interface.md",
  section,
  quote
})

/** A source in decisions.md. */
export const d = (section: string, quote: string): Source => ({
  doc: "decisions.md",
  section,
  quote
})
