/**
 * What the search family's suites share: the kind of a filter key, the suite of reads, its
 * enumerated cases over every item read, and the judge of a List request's items (none wrong,
 * none missing).
 */
import * as Effect from "effect/Effect"
import type { ContractRules, Filter } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import type { Body, Context, Op, Suite } from "../../context.js"
import type { BudgetExhausted } from "../../http.js"
import { snakeToCamel } from "../../json.js"
import {
  everyReadingSelects,
  type KeyKind,
  type Row,
  rowsOf,
  UNDECIDED_KEYS
} from "../../filterReadings.js"
import { missingItems, selectionVerdict } from "../../oracles/search-filter.js"
import type { Verdict } from "../../outcome.js"
import { everything, MAX_WALK_PAGES, requiredRefs, walk } from "../../listWalk.js"
import { literalsOfProperty } from "../shared/literals.js"
import { walkFailure } from "../shared/walkFailure.js"

export const kindOf = (rows: ReadonlyArray<Row>, key: string): KeyKind =>
  /_at$/.test(key)
    ? "time"
    : rows.some((r) => typeof r.full[snakeToCamel(key)] === "boolean")
      ? "boolean"
      : "string"

/** The operators that order values. */
export const ORDERS: ReadonlyArray<Filter.Operator> = ["lower_than", "greater_than"]

export const CHECKS: ReadonlyArray<CheckId> = ["search-filter"]

/** The filter keys of a List whose values are text, and whose meaning the documents decide. */
export const stringFilterKeys = (op: Op): ReadonlyArray<string> =>
  literalsOfProperty(op, "filter", "key").filter(
    (k) => !UNDECIDED_KEYS.has(k) && kindOf([], k) === "string"
  )

/** A suite of this family: reads only, its cases and how each runs (`family` names it for a replay). */
export const readSuite = (
  op: Op,
  suite: Pick<Suite, "cases" | "run">,
  family = "search"
): Suite => ({
  family,
  method: op.method,
  checks: CHECKS,
  writes: false,
  skip: undefined,
  ...suite
})

/**
 * A suite of `count` enumerated cases over every item a List returns: each case reads them all
 * (once per set of required references: `base`) and `judge` judges the case on them as rows; a
 * read that fails is judged by the walk, one that does not end is not judged.
 */
export const readingSuite = (
  op: Op,
  ctx: Context,
  count: number,
  judge: (
    i: number,
    rows: ReadonlyArray<Row>,
    base: Body,
    seed: number
  ) => Effect.Effect<ReadonlyArray<Verdict>, BudgetExhausted>,
  family?: string
): Suite => {
  const reference = everything(ctx, op)
  const seed = Math.abs(Math.trunc(ctx.seed))
  return readSuite(
    op,
    {
      cases: { _tag: "Enumerated", count, at: (i) => i },
      run: (i: number) =>
        Effect.gen(function* () {
          const base = requiredRefs(op, ctx.pools, seed)!
          const all = yield* reference(base)
          if (all.error !== undefined) return walkFailure(all)
          if (!all.ended) return []
          const rows = rowsOf(op, all.items)
          return yield* judge(i, rows, base, seed)
        })
    },
    family
  )
}

/** A List request with `filter` and what it selects: the items it matches under every reading. */
export const judgedFilter = (
  ctx: Context,
  op: Op,
  base: Body,
  rows: ReadonlyArray<Row>,
  filter: Filter.Filter<string>,
  described: string,
  rule: ContractRules.RuleId = "filter.match"
) =>
  judged(ctx, op, base, rows, {
    body: { ...base, limit: 500, filter },
    certain: (row) => everyReadingSelects(filter, row),
    described,
    rule,
    missRule: rule,
    mode: "filter"
  })

/** A List request of the family and what it selects: the items certain to match, and the rules a wrong or a missing item breaks. */
interface Selecting {
  readonly body: Body
  readonly certain: (row: Row) => boolean
  readonly described: string
  readonly rule: ContractRules.RuleId
  readonly missRule: ContractRules.RuleId
  readonly mode: string
  /** The most pages the walk reads (MAX_WALK_PAGES unless told). */
  readonly maxPages?: number
}

/**
 * Walks a request and judges its items: returned items by their own content (the shared oracle:
 * some reading selects them); a matching item counts as missing only when it matches in a second
 * read of everything and the same request leaves it out again (objects may change while the reads
 * run, on a shared deployment as anywhere).
 */
export const judged = (
  ctx: Context,
  op: Op,
  base: Body,
  rows: ReadonlyArray<Row>,
  { body, certain, described, maxPages, missRule, mode, rule }: Selecting
) =>
  Effect.gen(function* () {
    const w = yield* walk(ctx, op, body, maxPages ?? MAX_WALK_PAGES)
    // Items left out are read again (everything, then the request) before they count as missing.
    const missing = missingItems(rows, certain, w)
    const again =
      missing.length > 0
        ? {
            everything: yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES),
            request: yield* walk(ctx, op, body, MAX_WALK_PAGES)
          }
        : undefined
    return selectionVerdict({
      op,
      body,
      missing,
      certain,
      described,
      rule,
      missRule,
      mode,
      walk: w,
      again
    })
  })
