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
import * as Inspect from "../../inspect.js"
import { snakeToCamel } from "../../json.js"
import {
  evaluate,
  type KeyKind,
  readings,
  type Row,
  rowOf,
  textOf,
  UNDECIDED_KEYS
} from "../../oracles/filters.js"
import { nonMatching, selection } from "../../oracles/search-filter.js"
import { fail, type Outcome, pass, type Verdict } from "../../outcome.js"
import { everything, MAX_WALK_PAGES, requiredRefs, walk, walkFailure } from "../../walk.js"
import { literalsOfProperty } from "../shared/literals.js"

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
          const rows = all.items.map((x) => rowOf(op, x))
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
  described: string
) =>
  judged(ctx, op, base, rows, {
    body: { ...base, limit: 500, filter },
    certain: (row) => readings.every((r) => evaluate(filter, (k) => textOf(row, k), r)),
    described,
    rule: "filter.match",
    missRule: "filter.match",
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
    const toRow = (raw: Record<string, unknown>): Row => rowOf(op, raw)
    const w = yield* walk(ctx, op, body, maxPages ?? MAX_WALK_PAGES)
    const lastExchange = w.pages[w.pages.length - 1]?.exchange ?? w.error
    if (w.error !== undefined) {
      // A rate limit or an overload may answer any request first, and a slow target may not answer
      // within the timeout: neither is a refusal of the request.
      if (Inspect.answeredFirst(w.error) || Inspect.slowNotHung(w.error)) return []
      const code = Inspect.codeOf(w.error) ?? `HTTP ${Inspect.statusOf(w.error) ?? "none"}`
      return [
        fail(
          rule,
          `${mode} rejected with ${code}`,
          `${described} was rejected with ${code}`,
          w.error
        )
      ]
    }
    // Every page read is judged by its items, whether or not the walk ended.
    const selected = selection(op, body)
    const wrong =
      selected === undefined ? undefined : nonMatching(op, selected, w.items, lastExchange, mode)
    if (!w.ended) return wrong === undefined ? [] : [wrong]
    const got = new Set(w.items.map((x) => String(x.id)))
    let missing = rows
      .filter(certain)
      .map((r) => String(r.raw.id))
      .filter((id) => !got.has(id))
    if (missing.length > 0) {
      const again = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
      const retry = yield* walk(ctx, op, body, MAX_WALK_PAGES)
      if (again.error === undefined && again.ended && retry.error === undefined && retry.ended) {
        const still = new Set(
          again.items
            .map(toRow)
            .filter(certain)
            .map((r) => String(r.raw.id))
        )
        const gotAgain = new Set(retry.items.map((x) => String(x.id)))
        missing = missing.filter((id) => still.has(id) && !gotAgain.has(id))
      }
    }
    const out: Array<Outcome> = []
    if (wrong !== undefined) out.push(wrong)
    if (missing.length > 0)
      out.push(
        fail(
          missRule,
          `${mode} misses matching items`,
          `${described} left out ${missing.length} matching items (e.g. ${missing[0]})`,
          lastExchange
        )
      )
    return out.length === 0 ? [pass("search-filter", [...new Set([rule, missRule])])] : out
  })
