/**
 * The reports of a sharded run's shares joined into the whole run's (`contract-tests merge`): the
 * counts summed, findings once per rule, operation and cause, a baseline entry fixed only when no
 * share found it, the coverage of each rule over every share.
 */
import * as Either from "effect/Either"
import * as Baseline from "../baseline.js"
import { type AnyCheckId, compareChecks } from "../checkIds.js"
import * as Dimensions from "../dimensions.js"
import { coverageWith, joinCells, joinFindings, joinObservations } from "./join.js"
import type * as Report from "./model.js"

/** The note a share's report carries: which share it is. */
export const shardNote = (shard: Report.Shard): string =>
  `shard ${shard.index}/${shard.total}: this run ran its share of the plan's suites (every ${shard.total}-th unit from number ${shard.index}; an Update operation's suites stay together); \`contract-tests merge\` joins the shards' JSON reports into the whole run's`

/** Why reports cannot be merged: not every share once, or shares of different runs. */
const checkShares = (reports: ReadonlyArray<Report.Report>): string | undefined => {
  if (reports.length === 0) return "no report to merge"
  const unsharded = reports.findIndex((r) => r.shard === undefined)
  if (unsharded >= 0)
    return `report ${unsharded + 1} is not a shard's (it was not run with --shard i/n)`
  const total = reports[0]!.shard!.total
  const totals = new Set(reports.map((r) => r.shard!.total))
  if (totals.size > 1)
    return `the reports are shards of different splits: ${[...totals].map((t) => `/${t}`).join(", ")}`
  const seeds = new Set(reports.map((r) => r.seed))
  if (seeds.size > 1)
    return `the reports are of runs with different seeds (${[...seeds].join(", ")}): every shard takes the same --seed`
  const examples = new Set(reports.map((r) => r.examples))
  if (examples.size > 1)
    return `the reports are of runs with different --examples (${[...examples].join(", ")})`
  const twice = reports.map((r) => r.shard!.index).filter((i, k, all) => all.indexOf(i) !== k)
  if (twice.length > 0) return `shard ${twice[0]}/${total} is given twice`
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter(
    (i) => !reports.some((r) => r.shard!.index === i)
  )
  if (missing.length > 0)
    return `${missing.map((i) => `shard ${i}/${total}`).join(", ")} ${missing.length === 1 ? "is" : "are"} missing`
  return undefined
}

/**
 * The reports of parts of one run (its shards, or its worker threads' shares) joined, in the order
 * given: counts summed, findings once per rule, operation and cause, a baseline entry fixed only
 * when no part found it, each rule's coverage over every part; the notes once each, but for those
 * `dropNotes` names.
 */
export const join = (
  parts: ReadonlyArray<Report.Report>,
  dropNotes: ReadonlySet<string> = new Set()
): Report.Report => {
  const first = parts[0]!
  const cells = joinCells(parts.flatMap((r) => r.cells))
  const findings = joinFindings(parts.flatMap((r) => r.findings))
  const known = joinFindings(parts.flatMap((r) => r.known))
  const found = new Set([...findings, ...known].map(Baseline.key))
  const fixed = new Map<string, Report.Fixed>()
  for (const f of parts.flatMap((r) => r.fixed))
    if (!found.has(Baseline.key(f))) fixed.set(Baseline.key(f), f)
  const selected = new Set<AnyCheckId>(parts.flatMap((r) => r.checks ?? []))
  const coverage = parts.every((r) => r.coverage !== undefined)
    ? coverageWith(
        (rule) => {
          const of = parts.map((r) => r.coverage!.find((c) => c.rule === rule.id))
          return {
            judged: of.reduce((n, c) => n + (c?.judged ?? 0), 0),
            operations: new Set(of.flatMap((c) => c?.operations ?? []))
          }
        },
        cells,
        selected
      )
    : undefined
  const starts = parts.map((r) => Date.parse(r.startedAt))
  const start = Math.min(...starts)
  const end = Math.max(...parts.map((r, i) => starts[i]! + r.durationMs))
  const targets = [...new Set(parts.map((r) => r.target))]
  return {
    runId: parts.map((r) => r.runId).join("+"),
    seed: first.seed,
    target: targets.join(", "),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    requests: parts.reduce((n, r) => n + r.requests, 0),
    examples: first.examples,
    readOnly: parts.some((r) => r.readOnly),
    replay: undefined,
    ...(first.rerun === undefined ? {} : { rerun: first.rerun }),
    cells,
    findings,
    known,
    fixed: [...fixed.values()],
    observations: joinObservations(parts.flatMap((r) => r.observations)),
    notes: [...new Set(parts.flatMap((r) => r.notes).filter((n) => !dropNotes.has(n)))],
    ...(coverage === undefined ? {} : { coverage }),
    ...(parts.every((r) => r.fields === undefined)
      ? {}
      : { fields: Dimensions.join(parts.map((r) => r.fields ?? [])) }),
    ...(parts.every((r) => r.repeats === undefined)
      ? {}
      : { repeats: parts.reduce((n, r) => n + (r.repeats ?? 0), 0) }),
    ...(selected.size === 0 ? {} : { checks: [...selected].sort(compareChecks) })
  }
}

/**
 * The whole run's report from the reports of its shards (each run with `--shard i/n`, the same
 * seed and options): every share exactly once, or why not.
 *
 * @since 0.6.0
 * @category combinators
 */
export const merge = (
  reports: ReadonlyArray<Report.Report>
): Either.Either<Report.Report, string> => {
  const wrong = checkShares(reports)
  if (wrong !== undefined) return Either.left(wrong)
  const shards = [...reports].sort((a, b) => a.shard!.index - b.shard!.index)
  const joined = join(shards, new Set(shards.map((r) => shardNote(r.shard!))))
  return Either.right({
    ...joined,
    notes: [
      ...joined.notes,
      `merged from ${shards.length} shards (runs ${shards.map((r) => r.runId).join(", ")})`
    ],
    mergedFrom: shards.map((r) => r.runId)
  })
}
