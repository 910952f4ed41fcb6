/**
 * `contract-tests list checks|rules|operations|violations`: what a run can check, from the same
 * tables the run reads, as text columns or JSON (`--json`).
 */
import * as Args from "@effect/cli/Args"
import * as Options from "@effect/cli/Options"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { ContractChecks, ContractRules, Operations } from "@data-access/schema"
import { ReferenceServer } from "@data-access/reference-server"
import { loadHooks } from "./run.js"

/** The rows of each list, each row a record of its columns. */
const lists = {
  checks: () =>
    ContractChecks.checks.map((c) => ({ id: c.id, severity: c.severity, meaning: c.meaning })),
  rules: () =>
    ContractRules.rules.map((r) => ({
      id: r.id,
      check: r.check,
      must: r.must,
      source: `${r.source.doc} ${r.source.section}`
    })),
  operations: () => Operations.all.map((o) => ({ method: o.method, kind: o.kind, path: o.path })),
  violations: () =>
    ReferenceServer.violations.map((v) => ({
      name: v.name,
      check: v.check,
      rule: v.rule,
      description: v.description
    }))
} as const

/** The names of the lists. */
export const LIST_NAMES = Object.keys(lists) as ReadonlyArray<keyof typeof lists>

export const listOptions = {
  json: Options.boolean("json").pipe(Options.withDescription("Print JSON instead of columns")),
  hooks: Options.file("hooks", { exists: "yes" }).pipe(
    Options.optional,
    Options.withDescription(
      "A hooks file: `list checks` adds its custom checks (their rule as meaning)"
    )
  )
}

export const listArgs = {
  what: Args.choice(
    LIST_NAMES.map((n) => [n, n] as const),
    { name: "checks|rules|operations|violations" }
  ).pipe(Args.withDescription("What to list"))
}

/** Rows as aligned columns: every column but the last padded to its widest cell. */
export const columns = (rows: ReadonlyArray<Record<string, string>>): string => {
  if (rows.length === 0) return ""
  const keys = Object.keys(rows[0]!)
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => r[k]!.length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd()
  return [line(keys), ...rows.map((r) => line(keys.map((k) => r[k]!)))].join("\n")
}

/** Prints the list the arguments name; exit code 2 when the hooks file cannot be loaded. */
export const executeList = (
  args: {
    readonly what: keyof typeof lists
    readonly json: boolean
    readonly hooks: Option.Option<string>
  },
  exitCode: Ref.Ref<number>
) =>
  Effect.gen(function* () {
    const hooks = Option.isNone(args.hooks) ? undefined : yield* loadHooks(args.hooks.value)
    const custom =
      args.what === "checks"
        ? (hooks?.checks ?? []).map((c) => ({ id: c.id, severity: c.severity, meaning: c.rule }))
        : []
    const rows = [...lists[args.what](), ...custom] as ReadonlyArray<Record<string, string>>
    process.stdout.write((args.json ? JSON.stringify(rows, null, 2) : columns(rows)) + "\n")
  }).pipe(
    Effect.catchAll((e) =>
      Effect.gen(function* () {
        process.stderr.write(`contract-tests list: ${e.message}\n`)
        yield* Ref.set(exitCode, 2)
      })
    )
  )
