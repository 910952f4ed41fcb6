/**
 * `search`, `filter` and `spaceId` of the List operations: the items returned match, and every
 * matching item is returned. Where a faithful server may choose (decisions.md section 10: the case
 * of the string operators, timestamps compared as text or instants), an item passes when some
 * allowed choice explains it; requests stay clear of the other choices (no string operators on
 * times or booleans, timestamps as values of time keys, no `type` key, whose values are not decided).
 * Timestamp values come in every RFC 3339 form of an item's instant (other offsets, nine or fewer
 * fractional digits) and one unit of its precision either side: an order compares instants.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { type ContractRules, Filter, Timestamp } from "@data-access/schema"
import type { CheckId } from "../../Checks.js"
import { type Body, type Context, type Family, type Op, skipped, type Suite } from "../context.js"
import * as Inspect from "../inspect.js"
import { snakeToCamel } from "../json.js"
import {
  comparesTimes,
  evaluate,
  type KeyKind,
  nonMatching,
  OPERATORS,
  readings,
  type Row,
  rowOf,
  selection,
  textOf,
  UNDECIDED_KEYS
} from "../oracles.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { forEachProperty } from "../ast.js"
import { requestPropertyNames } from "../pools.js"
import * as TextLength from "../textLength.js"
import {
  everything,
  MAX_WALK_PAGES,
  missingReference,
  requiredRefs,
  walk,
  walkFailure
} from "../walk.js"
import * as AST from "effect/SchemaAST"

const literalsOf = (ast: AST.AST): Array<string> => {
  switch (ast._tag) {
    case "Literal":
      return typeof ast.literal === "string" ? [ast.literal] : []
    case "Union":
      return ast.types.flatMap(literalsOf)
    case "Refinement":
      return literalsOf(ast.from)
    case "Transformation":
      return literalsOf(ast.to)
    case "TupleType":
      return [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)].flatMap(
        literalsOf
      )
    default:
      return []
  }
}

/** The literals of a request property found anywhere under `under` (the filter `key`s, the `searchFields`). */
export const literalsOfProperty = (op: Op, under: string, name: string): ReadonlyArray<string> => {
  const out = new Set<string>()
  forEachProperty(op.request.ast, (p) => {
    if (p.name !== under) return
    if (under === name) literalsOf(p.type).forEach((l) => out.add(l))
    else
      forEachProperty(
        p.type,
        (q) => q.name === name && literalsOf(q.type).forEach((l) => out.add(l))
      )
  })
  return [...out]
}

const kindOf = (rows: ReadonlyArray<Row>, key: string): KeyKind =>
  /_at$/.test(key)
    ? "time"
    : rows.some((r) => typeof r.full[snakeToCamel(key)] === "boolean")
      ? "boolean"
      : "string"

/** The operators that order values. */
const ORDERS: ReadonlyArray<Filter.Operator> = ["lower_than", "greater_than"]

/** Operators that match the item their value comes from. */
const SELECTING: ReadonlySet<Filter.Operator> = new Set([
  "equals",
  "contains",
  "starts_with",
  "ends_with"
])

interface SearchCase {
  /**
   * `time`: one filter condition that orders a time key against another form of an item's
   * timestamp; `parent`: the List's required parent alone (ListNativeUsers' resourceId).
   */
  readonly mode: "search" | "filter" | "time" | "space" | "parent"
  readonly item: number
  readonly field: number
  readonly start: number
  readonly length: number
  readonly upper: boolean
  readonly operators: ReadonlyArray<number>
  /** How far from `item` the sample of the second condition is. */
  readonly other: number
  /** One condition, or a group of two. */
  readonly group: "and" | "or" | undefined
  /** How a timestamp value is written: the item's own text, or the same instant (or the next one either side) in another form. */
  readonly time: TimeForm
  readonly ref: number
  /** How many groups of one filter wrap the filter. */
  readonly nest: number
}

/**
 * Another RFC 3339 form of a timestamp value: at an offset in minutes (0: `Z`), with nine
 * fractional digits or the fewest, one unit of the item's own precision earlier or later.
 */
interface TimeForm {
  readonly offsetMinutes: number
  readonly nineDigits: boolean
  readonly step: -1 | 0 | 1
}

const timeForm: fc.Arbitrary<TimeForm> = fc.record({
  offsetMinutes: fc.oneof(fc.constant(0), fc.integer({ min: -14 * 60, max: 14 * 60 })),
  nineDigits: fc.boolean(),
  step: fc.constantFrom(0, -1, 1)
})

/**
 * A timestamp value of a filter condition, written from an item's `text` in the form `form` asks;
 * the text itself when it is not a timestamp or the form has no RFC 3339 text. One step is a unit
 * of the last digit the item's text carries (a millisecond for `.123Z`), so that a server that
 * compares at the precision it writes tells the neighbours apart.
 */
const timeValue = (text: string, form: TimeForm): string => {
  const t = Timestamp.parse(text)
  if (typeof t === "string") return text
  const digits = /\.(\d+)/.exec(text)?.[1]?.length ?? 0
  const moved =
    form.step === 0 ? t : Timestamp.addNanos(t, BigInt(form.step) * 10n ** BigInt(9 - digits))
  return (
    Timestamp.formatAt(moved, {
      offsetMinutes: form.offsetMinutes,
      digits: form.nineDigits ? 9 : digits
    }) ?? text
  )
}

/**
 * The operators a server might take for one another: each string operator's neighbouring readings.
 * A value is chosen so that each neighbour gives another answer than the operator on some item.
 */
const NEIGHBOURS: Partial<Record<Filter.Operator, ReadonlyArray<Filter.Operator>>> = {
  equals: ["contains", "starts_with", "ends_with"],
  contains: ["starts_with", "ends_with", "equals"],
  starts_with: ["contains", "equals", "ends_with"],
  ends_with: ["contains", "equals", "starts_with"],
  not_equals: ["not_contains"],
  not_contains: ["not_equals"]
}

/** The readings of the string operators' case (decisions.md section 10). */
const CASE_READINGS = readings.filter((r) => !r.orderCaseInsensitive && !r.timeEqualsAsText)

const condition = (key: string, operator: Filter.Operator, value: string): Filter.Filter<string> =>
  ({
    field: { key, operator, value: { "@type": Filter.STRING_VALUE_TYPE, value } }
  }) as Filter.Filter<string>

/** How many neighbours of `operator` some item tells apart from it with `value`, under every case reading either side. */
const told = (
  rows: ReadonlyArray<Row>,
  key: string,
  operator: Filter.Operator,
  value: string,
  neighbours: ReadonlyArray<Filter.Operator>
): number => {
  const own = condition(key, operator, value)
  const texts = rows.map((row) => textOf(row, key))
  const truth = texts.map((t) => CASE_READINGS.map((r) => evaluate(own, () => t, r)))
  return neighbours.filter((n) => {
    const other = condition(key, n, value)
    return CASE_READINGS.every((r) =>
      texts.some((t, i) => {
        const got = evaluate(other, () => t, r)
        return truth[i]!.every((x) => x !== got)
      })
    )
  }).length
}

/** Pieces of a text (whole code points), the case's own first: where a term may start and how long it is. */
const piecesOf = (
  text: string,
  start: number,
  length: number,
  upper: boolean
): ReadonlyArray<string> => {
  const points = Array.from(text)
  const n = points.length
  const starts = [
    Math.min(start, n),
    0,
    ...Array.from({ length: Math.min(n, 8) }, (_, i) => i + 1),
    ...Array.from({ length: Math.min(n, 6) }, (_, i) => n - 1 - i)
  ]
  const lengths = [length === 0 ? n : length, 1, 2, 3, 4, 6, 8, n]
  const out = new Set<string>()
  for (const s of starts) {
    for (const l of lengths) {
      if (s < 0 || l <= 0 || s >= n) continue
      const piece = points.slice(s, s + l).join("")
      out.add(upper ? piece.toUpperCase() : piece)
    }
  }
  return [...out]
}

/** Candidates to try per condition: enough to find a telling value, few enough to stay cheap. */
const MAX_CANDIDATES = 48
/** Items read to choose a value. */
const MAX_ROWS = 200

/**
 * A value for a string condition on which its neighbouring readings give other answers (the
 * first that tells every neighbour apart, else the one that tells most), from the pieces of the
 * case's own value, then the values and pieces of the other items read.
 */
const tellingValue = (
  rows: ReadonlyArray<Row>,
  key: string,
  operator: Filter.Operator,
  own: string,
  pieces: (text: string) => ReadonlyArray<string>
): string => {
  const neighbours = NEIGHBOURS[operator]
  if (neighbours === undefined) return own
  const sample = rows.slice(0, MAX_ROWS)
  const texts = sample.map((r) => textOf(r, key)).filter((t) => t !== "")
  // The first MAX_CANDIDATES distinct values of: `own`, its pieces, eight texts, three pieces of
  // each text; the pieces of a text only cut once the values before them leave room.
  const distinct = new Set<string>()
  const add = (values: ReadonlyArray<string>) => {
    for (const v of values) {
      if (distinct.size >= MAX_CANDIDATES) return
      distinct.add(v)
    }
  }
  add([own, ...pieces(own), ...texts.slice(0, 8)])
  for (const t of texts) {
    if (distinct.size >= MAX_CANDIDATES) break
    add(pieces(t).slice(0, 3))
  }
  const candidates = [...distinct]
  let best = own
  let score = -1
  for (const v of candidates) {
    if (v === "") continue
    const n = told(sample, key, operator, v, neighbours)
    if (n > score) [best, score] = [v, n]
    if (n === neighbours.length) break
  }
  return best
}

/**
 * A search term on which the neighbouring readings of search give other answers: only `name`
 * searched (when other fields are asked), a prefix or a whole value instead of a substring.
 */
const tellingTerm = (
  rows: ReadonlyArray<Row>,
  fields: ReadonlyArray<string>,
  own: string,
  candidates: ReadonlyArray<string>
): string => {
  const sample = rows.slice(0, MAX_ROWS)
  const lower = (s: string) => s.toLowerCase()
  const tests: Array<(term: string) => boolean> = [
    (t) =>
      sample.some((r) =>
        fields.some((f) => lower(textOf(r, f)).includes(t) && !lower(textOf(r, f)).startsWith(t))
      ),
    (t) =>
      sample.some((r) =>
        fields.some((f) => lower(textOf(r, f)).includes(t) && lower(textOf(r, f)) !== t)
      )
  ]
  if (fields.some((f) => f !== "name"))
    tests.push((t) =>
      sample.some(
        (r) =>
          fields.some((f) => lower(textOf(r, f)).includes(t)) &&
          !lower(textOf(r, "name")).includes(t)
      )
    )
  let best = own
  let score = -1
  for (const v of [own, ...candidates].slice(0, MAX_CANDIDATES)) {
    if (v === "") continue
    const n = tests.filter((t) => t(lower(v))).length
    if (n > score) [best, score] = [v, n]
    if (n === tests.length) break
  }
  return best
}

const CHECKS: ReadonlyArray<CheckId> = ["search-filter"]

/** The filter keys of a List whose values are text, and whose meaning the documents decide. */
const stringFilterKeys = (op: Op): ReadonlyArray<string> =>
  literalsOfProperty(op, "filter", "key").filter(
    (k) => !UNDECIDED_KEYS.has(k) && kindOf([], k) === "string"
  )

/** A suite of this family: reads only, its cases and how each runs (`family` names it for a replay). */
const readSuite = (op: Op, suite: Pick<Suite, "cases" | "run">, family = "search"): Suite => ({
  family,
  method: op.method,
  checks: CHECKS,
  writes: false,
  skip: undefined,
  ...suite
})

const searchSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const filterKeys = literalsOfProperty(op, "filter", "key").filter((k) => !UNDECIDED_KEYS.has(k))
  const timeKeys = filterKeys.filter((k) => kindOf([], k) === "time")
  const searchFields = literalsOfProperty(op, "searchFields", "searchFields").filter(
    (k) => !UNDECIDED_KEYS.has(k)
  )
  const modes = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(props.includes("filter") && filterKeys.length > 0 ? (["filter"] as const) : []),
    ...(props.includes("filter") && timeKeys.length > 0 ? (["time"] as const) : []),
    ...(props.includes("spaceId") ? (["space"] as const) : []),
    ...(op.parent?.required === true ? (["parent"] as const) : [])
  ]
  if (modes.length === 0) return undefined
  if (requiredRefs(op, ctx.pools, 0) === undefined)
    return skipped(
      "search",
      op.method,
      CHECKS,
      false,
      missingReference(op, ctx.pools) ?? "missing references"
    )
  const reference = everything(ctx, op)
  return readSuite(op, {
    cases: {
      _tag: "Property",
      arbitrary: fc.record({
        mode: fc.constantFrom(...modes),
        item: fc.nat(),
        field: fc.nat(),
        start: fc.nat({ max: 8 }),
        length: fc.nat({ max: 8 }),
        upper: fc.boolean(),
        operators: fc.array(fc.nat({ max: 9 }), { minLength: 2, maxLength: 2 }),
        other: fc.nat(),
        group: fc.constantFrom(undefined, "and", "or"),
        time: timeForm,
        ref: fc.nat({ max: 1000 }),
        nest: fc.oneof(
          { weight: 3, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) }
        )
      }),
      examples: Math.max(5, Math.ceil(ctx.examples / 2))
    },
    run: (c: SearchCase) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, c.ref)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        if (!all.ended) return []
        const toRow = (raw: Record<string, unknown>): Row => rowOf(op, raw)
        const rows = all.items.map(toRow)
        const sampleAt = (i: number) => (rows.length === 0 ? undefined : rows[i % rows.length])
        const sample = sampleAt(c.item)
        const textAt = (row: Row | undefined, k: string) =>
          row === undefined ? "" : textOf(row, k)
        const sampleText = (k: string) => textAt(sample, k)
        // A piece of the text cut at code points (never half of a surrogate pair: the term must be well-formed).
        const cut = (s: string) => {
          const points = Array.from(s)
          const from = Math.min(c.start, points.length)
          const piece = points
            .slice(from, from + (c.length === 0 ? points.length : c.length))
            .join("")
          return c.upper ? piece.toUpperCase() : piece
        }
        let body: Body
        // An item certainly matches (under every reading); returned items are judged by the
        // shared oracle (some reading selects them).
        let certain: (row: Row) => boolean
        let described: string
        let rule: ContractRules.RuleId = "search.match"
        // The rule a missing item points to more closely than "no match".
        let missRule: ContractRules.RuleId = "search.match"
        if (c.mode === "search") {
          // Two fields at a time in half the cases, the term taken from the first: an item matches
          // when any named field holds the term, not only when all do.
          const many = searchFields.length > 1 && c.length % 2 === 1
          const fields =
            searchFields.length === 0
              ? ["name"]
              : many
                ? [
                    searchFields[c.field % searchFields.length]!,
                    searchFields[(c.field + 1) % searchFields.length]!
                  ]
                : [searchFields[c.field % searchFields.length]!]
          const own = cut(sampleText(fields[0]!))
          const term = tellingTerm(
            rows,
            fields,
            own,
            piecesOf(sampleText(fields[0]!), c.start, c.length, c.upper)
          )
          // `name` is the default: leave searchFields out in half the cases that search it alone.
          const explicit =
            searchFields.length > 0 &&
            !(fields.length === 1 && fields[0] === "name" && c.start % 2 === 0)
          body = {
            ...base,
            limit: 500,
            search: term,
            ...(explicit ? { searchFields: fields } : {})
          }
          certain = (row) =>
            fields.some((f) => textOf(row, f).toLowerCase().includes(term.toLowerCase()))
          described = `search ${JSON.stringify(term)} in ${explicit ? fields.join(", ") : "the default field (name)"}`
          missRule =
            term !== term.toLowerCase()
              ? "search.case-insensitive"
              : fields[0] !== "name"
                ? "search.fields"
                : "search.match"
        } else if (c.mode === "parent") {
          const parent = op.parent!
          const named = base[parent.field]
          body = { ...base, limit: 500 }
          certain = (row) => textOf(row, parent.field) === named
          described = `${parent.field} ${JSON.stringify(named)}`
          rule = "lists.parent-scope"
          missRule = rule
        } else if (c.mode === "space") {
          const spaceId = sampleText("space_id")
          body = { ...base, limit: 500, ...(spaceId === "" ? {} : { spaceId }) }
          certain = (row) => spaceId === "" || textOf(row, "space_id") === spaceId
          described = `spaceId ${JSON.stringify(spaceId)}`
          rule = "lists.space-scope"
          missRule = rule
        } else {
          // The second condition of a group describes another item, and the conditions of an `or`
          // group each select their own item, so that `and` and `or` give different answers.
          const time = c.mode === "time"
          const group = time ? undefined : c.group
          const either = group === "or"
          const conditions = c.operators.slice(0, group === undefined ? 1 : 2).map((o, i) => {
            const keys = time ? timeKeys : filterKeys
            const k = keys[(c.field + i) % keys.length]!
            const from =
              i === 0 ? sample : sampleAt(c.item + 1 + (c.other % Math.max(1, rows.length - 1)))
            const kind = kindOf(rows, k)
            const operators = time
              ? ORDERS
              : either
                ? OPERATORS[kind].filter((x) => SELECTING.has(x))
                : OPERATORS[kind]
            const operator = operators[o % operators.length]!
            const whole =
              textAt(from, k) ||
              (kind === "time" ? "2000-01-01T00:00:00Z" : kind === "boolean" ? "false" : "")
            // Times are written in another form of the same instant; only an order moves one step from it.
            const ordered = ORDERS.includes(operator)
            const picked =
              !ordered && operator !== "equals" && operator !== "not_equals"
                ? cut(whole)
                : kind !== "time"
                  ? whole
                  : timeValue(whole, ordered ? c.time : { ...c.time, step: 0 })
            // On text, a value that tells the operator from its neighbours, chosen from the items read
            // (in an `or` group each condition keeps selecting its own item).
            const v =
              kind === "string" && !either
                ? tellingValue(rows, k, operator, picked, (t) =>
                    piecesOf(t, c.start, c.length, c.upper)
                  )
                : picked
            return {
              field: Filter.valueless.has(operator)
                ? { key: k, operator }
                : { key: k, operator, value: { "@type": Filter.STRING_VALUE_TYPE, value: v } }
            }
          })
          let filter = (
            conditions.length === 1
              ? conditions[0]!
              : { group: { operator: group, filters: conditions } }
          ) as Filter.Filter<string>
          // Groups nest to any depth (decisions.md section 3): a group of one filter selects what that filter selects.
          for (let depth = 0; depth < c.nest; depth++)
            filter = { group: { operator: depth % 2 === 0 ? "and" : "or", filters: [filter] } }
          body = { ...base, limit: 500, filter }
          certain = (row) => readings.every((r) => evaluate(filter, (k) => textOf(row, k), r))
          described = `filter ${JSON.stringify(filter)}`
          rule =
            either && conditions.length > 1
              ? "filter.group-operator"
              : comparesTimes(filter)
                ? "filter.time-instants"
                : "filter.match"
          missRule = rule
        }
        return yield* judged(ctx, op, base, rows, {
          body,
          certain,
          described,
          rule,
          missRule,
          mode: c.mode
        })
      })
  })
}

/** A List request of the family and what it selects: the items certain to match, and the rules a wrong or a missing item breaks. */
interface Selecting {
  readonly body: Body
  readonly certain: (row: Row) => boolean
  readonly described: string
  readonly rule: ContractRules.RuleId
  readonly missRule: ContractRules.RuleId
  readonly mode: string
}

/**
 * Walks a request and judges its items: returned items by their own content (the shared oracle:
 * some reading selects them); a matching item counts as missing only when it matches in a second
 * read of everything and the same request leaves it out again (objects may change while the reads
 * run, on a shared deployment as anywhere).
 */
const judged = (
  ctx: Context,
  op: Op,
  base: Body,
  rows: ReadonlyArray<Row>,
  { body, certain, described, missRule, mode, rule }: Selecting
) =>
  Effect.gen(function* () {
    const toRow = (raw: Record<string, unknown>): Row => rowOf(op, raw)
    const w = yield* walk(ctx, op, body, MAX_WALK_PAGES)
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
    if (!w.ended) return []
    const selected = selection(op, body)
    const wrong =
      selected === undefined ? undefined : nonMatching(op, selected, w.items, lastExchange, mode)
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

/**
 * Every operator once on each string key (in turn) of a List's filter, with a value that tells it
 * from its neighbouring readings, chosen from the items read: the random cases of `searchSuite`
 * may not reach each operator on a short run.
 */
const operatorsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("filter")) return undefined
  const keys = stringFilterKeys(op)
  if (keys.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const operators = Object.keys(NEIGHBOURS) as ReadonlyArray<Filter.Operator>
  const reference = everything(ctx, op)
  const seed = Math.abs(Math.trunc(ctx.seed))
  return readSuite(op, {
    cases: { _tag: "Enumerated", count: operators.length, at: (i) => i },
    run: (i: number) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, seed)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        if (!all.ended) return []
        const rows = all.items.map((x) => rowOf(op, x))
        // Keys whose values are text on the items read (a boolean key is judged by the random cases).
        const texts = keys.filter(
          (k) => kindOf(rows, k) === "string" && rows.some((r) => textOf(r, k) !== "")
        )
        if (texts.length === 0) return []
        const operator = operators[i]!
        const key = texts[(i + seed) % texts.length]!
        const sample = rows[(seed + i * 7) % rows.length]!
        const own = textOf(sample, key)
        const value = tellingValue(rows, key, operator, own, (t) =>
          piecesOf(t, (seed + i) % 4, 0, false)
        )
        const filter = condition(key, operator, value)
        const certain = (row: Row) =>
          readings.every((r) => evaluate(filter, (k) => textOf(row, k), r))
        return yield* judged(ctx, op, base, rows, {
          body: { ...base, limit: 500, filter },
          certain,
          described: `filter ${JSON.stringify(filter)}`,
          rule: "filter.match",
          missRule: "filter.match",
          mode: "filter"
        })
      })
  })
}

/**
 * Conditions judged on items whose key is empty (its zero value) beside items that hold a value:
 * `not_equals`, `not_contains` and `lower_than` with a value that is not empty (`held`) select
 * the empty ones; `empty` and `equals ""` select exactly them, `not_empty` and `not_equals ""`
 * exactly the others.
 */
const ZERO_VALUE_CONDITIONS: ReadonlyArray<{
  readonly operator: Filter.Operator
  readonly value: "held" | "" | undefined
}> = [
  { operator: "not_equals", value: "held" },
  { operator: "not_contains", value: "held" },
  { operator: "lower_than", value: "held" },
  { operator: "empty", value: undefined },
  { operator: "not_empty", value: undefined },
  { operator: "equals", value: "" },
  { operator: "not_equals", value: "" }
]

/**
 * Items whose key is left out or written as `""` are one value, `""` (decisions.md section 1:
 * "Readers treat an absent field as its zero value"): every condition of `ZERO_VALUE_CONDITIONS`
 * is judged on a key some items leave empty. A server that reads an absent value as SQL's NULL
 * (no comparison holds), or takes only an absent field for empty (`IS NULL`) or only `""`, answers
 * otherwise; the random cases reach such a key and operator only by chance.
 */
const emptyValuesSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("filter")) return undefined
  const keys = stringFilterKeys(op)
  if (keys.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const reference = everything(ctx, op)
  const seed = Math.abs(Math.trunc(ctx.seed))
  return readSuite(op, {
    cases: { _tag: "Enumerated", count: ZERO_VALUE_CONDITIONS.length, at: (i) => i },
    run: (i: number) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, seed)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        if (!all.ended) return []
        const rows = all.items.map((x) => rowOf(op, x))
        // Keys that some item leaves empty and another holds a value in.
        const mixed = keys.filter(
          (k) =>
            kindOf(rows, k) === "string" &&
            rows.some((r) => textOf(r, k) === "") &&
            rows.some((r) => textOf(r, k) !== "")
        )
        if (mixed.length === 0) return []
        const key = mixed[(i + seed) % mixed.length]!
        const held = rows.filter((r) => textOf(r, key) !== "")
        const { operator, value: v } = ZERO_VALUE_CONDITIONS[i]!
        const value = v === "held" ? textOf(held[(seed + i * 7) % held.length]!, key) : v
        const filter: Filter.Filter<string> =
          value === undefined
            ? ({ field: { key, operator } } as Filter.Filter<string>)
            : condition(key, operator, value)
        const certain = (row: Row) =>
          readings.every((r) => evaluate(filter, (k) => textOf(row, k), r))
        return yield* judged(ctx, op, base, rows, {
          body: { ...base, limit: 500, filter },
          certain,
          described: `filter ${JSON.stringify(filter)} (items without ${key} hold "")`,
          rule: "filter.match",
          missRule: "filter.match",
          mode: "filter"
        })
      })
  })
}

// ---------------------------------------------------------------------------------------------
// text read literally, not as a pattern
// ---------------------------------------------------------------------------------------------

/** Characters that a query language or a regular expression reads as operators. */
export const PATTERN_CHARACTERS: ReadonlyArray<string> = [
  "%",
  "_",
  "*",
  "?",
  ".",
  "[",
  "]",
  "(",
  "^",
  "$",
  "\\",
  "|",
  "+"
]

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")

/**
 * The pattern readings a server may wrongly give a value, each as the source of a regular
 * expression (`undefined` when the value is none under it): SQL's LIKE (`%`, `_`, a backslash
 * escapes), a glob (`*`, `?`, `[...]`, a backslash escapes) and a regular expression itself.
 */
export const PATTERN_READINGS: ReadonlyArray<{
  readonly name: string
  readonly source: (value: string) => string | undefined
}> = [
  {
    name: "SQL LIKE",
    source: (v) => {
      let out = ""
      for (let i = 0; i < v.length; i++) {
        const ch = v[i]!
        if (ch === "\\" && i + 1 < v.length) out += escapeRegExp(v[++i]!)
        else out += ch === "%" ? "[\\s\\S]*" : ch === "_" ? "[\\s\\S]" : escapeRegExp(ch)
      }
      return out
    }
  },
  {
    name: "glob",
    source: (v) => {
      let out = ""
      for (let i = 0; i < v.length; i++) {
        const ch = v[i]!
        const close = ch === "[" ? v.indexOf("]", i + 2) : -1
        if (ch === "\\" && i + 1 < v.length) out += escapeRegExp(v[++i]!)
        else if (close > 0) {
          out += `[${v.slice(i + 1, close).replace(/[\\\]^]/g, "\\$&")}]`
          i = close
        } else out += ch === "*" ? "[\\s\\S]*" : ch === "?" ? "[\\s\\S]" : escapeRegExp(ch)
      }
      return out
    }
  },
  { name: "regular expression", source: (v) => v }
]

/** How each text operator places its value in a text, for a pattern reading (`search` as `contains`). */
const ANCHORED: Partial<Record<Filter.Operator, readonly [string, string]>> = {
  equals: ["^(?:", ")$"],
  not_equals: ["^(?:", ")$"],
  contains: ["(?:", ")"],
  not_contains: ["(?:", ")"],
  starts_with: ["^(?:", ")"],
  ends_with: ["(?:", ")$"]
}

/** A pattern reading's test of a text, or `undefined` when the value is no pattern under it. */
const patternTest = (
  reading: (typeof PATTERN_READINGS)[number],
  operator: Filter.Operator,
  value: string,
  caseInsensitive: boolean
): ((text: string) => boolean) | undefined => {
  const anchors = ANCHORED[operator]
  const source = reading.source(value)
  if (anchors === undefined || source === undefined) return undefined
  let re: RegExp
  try {
    re = new RegExp(`${anchors[0]}${source}${anchors[1]}`, caseInsensitive ? "si" : "s")
  } catch {
    return undefined
  }
  return operator.startsWith("not_") ? (text) => !re.test(text) : (text) => re.test(text)
}

/** Control characters (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** Letters that a backslash before them leaves themselves in every reading (no class, escape or reference in a regular expression). */
const PLAIN_ESCAPED = /[aeghijlmoqyzAEGHIJLMOQYZ-]/

/**
 * Values with `ch` in it, written from a text so that a pattern reading of `ch` matches the text
 * (one character or a run replaced by a wildcard, a quantifier, a class, a group, an anchor, an
 * alternative, an escape), while the literal reading matches only a text that holds `ch`.
 */
const patternValues = (text: string, ch: string): ReadonlyArray<string> => {
  const p = Array.from(text)
  const n = p.length
  if (n < 3) return []
  const at = [...new Set([Math.floor(n / 2), 1, n - 2])]
  const join = (xs: ReadonlyArray<string>) => xs.join("")
  const out: Array<string> = []
  for (const i of at) {
    const before = p.slice(0, i)
    const after = p.slice(i + 1)
    switch (ch) {
      case "%":
      case "*":
        out.push(
          join([...before, ch, ...p.slice(i + 2)]),
          join([...before, ch, ...after]),
          join([...p.slice(0, i + 1), ch, ...after])
        )
        break
      case "_":
      case ".":
      case "?":
        out.push(join([...before, ch, ...after]), join([...p.slice(0, i + 1), ch, ...after]))
        break
      case "+":
        out.push(join([...p.slice(0, i + 1), ch, ...after]))
        break
      case "[":
        out.push(join([...before, "[", p[i]!, "]", ...after]))
        break
      case "]":
        out.push(join([...before, "[", p[i]!, p[i]!, "]", ...after]))
        break
      case "(":
        out.push(join([...before, "(", p[i]!, ")", ...after]))
        break
      case "\\":
        if (PLAIN_ESCAPED.test(p[i]!)) out.push(join([...before, "\\", ...p.slice(i)]))
        break
      case "^":
        out.push(`^${join(p.slice(0, i + 1))}`, `^${text}`)
        break
      case "$":
        out.push(`${join(p.slice(i))}$`, `${text}$`)
        break
      case "|":
        out.push(`${join(p.slice(0, i + 1))}|zq`, `${text}|zq`)
        break
    }
  }
  return out
}

/** The modes of a pattern case: `search` in `name`, or one text operator of a filter. */
const PATTERN_OPERATORS: ReadonlyArray<Filter.Operator> = [
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "starts_with",
  "ends_with",
  "lower_than",
  "greater_than"
]

/**
 * How many pattern readings a value tells from the literal one on the items read: some item that
 * the reading selects and no literal reading does, or that every literal reading selects and the
 * reading does not, under each case the reading may fold (search: case-insensitive only).
 */
const patternsTold = (
  texts: ReadonlyArray<string>,
  operator: Filter.Operator,
  value: string,
  search: boolean
): number => {
  const cases = search ? [true] : [false, true]
  const literal = (t: string, ci: boolean) =>
    search
      ? t.toLowerCase().includes(value.toLowerCase())
      : evaluate(condition("k", operator, value), () => t, {
          caseInsensitive: ci,
          orderCaseInsensitive: ci,
          timeEqualsAsText: false
        })
  const lit = texts.map((t) => cases.map((ci) => literal(t, ci)))
  return PATTERN_READINGS.filter((r) =>
    cases.every((ci) => {
      const test = patternTest(r, search ? "contains" : operator, value, ci)
      return test !== undefined && texts.some((t, i) => lit[i]!.every((x) => x !== test(t)))
    })
  ).length
}

/**
 * `search` and every text operator of a filter, each with a value holding one of the characters
 * that a query language or a regular expression reads as an operator, written from the items read
 * so that a pattern reading selects other items than the literal one (`na_e` where an item is
 * named `name`, `.` where no name holds a dot): the items returned are judged by the literal
 * reading (decisions.md section 3: search is a substring match; the operators compare strings).
 */
const patternsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const keys = props.includes("filter") ? stringFilterKeys(op) : []
  const modes: ReadonlyArray<Filter.Operator | "search"> = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(keys.length > 0 ? PATTERN_OPERATORS : [])
  ]
  if (modes.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const reference = everything(ctx, op)
  const seed = Math.abs(Math.trunc(ctx.seed))
  const count = modes.length * PATTERN_CHARACTERS.length
  return readSuite(
    op,
    {
      cases: { _tag: "Enumerated", count, at: (i) => i },
      run: (i: number) =>
        Effect.gen(function* () {
          const base = requiredRefs(op, ctx.pools, seed)!
          const all = yield* reference(base)
          if (all.error !== undefined) return walkFailure(all)
          if (!all.ended || all.items.length === 0) return []
          const rows = all.items.map((x) => rowOf(op, x))
          const ch = PATTERN_CHARACTERS[i % PATTERN_CHARACTERS.length]!
          const mode = modes[Math.floor(i / PATTERN_CHARACTERS.length)]!
          const search = mode === "search"
          // Keys whose values are text on the items read (string operators on a boolean key may be refused: strict-filter-types).
          const texts = keys.filter(
            (k) => kindOf(rows, k) === "string" && rows.some((r) => textOf(r, k).length >= 3)
          )
          if (!search && texts.length === 0) return []
          const key = search ? "name" : texts[(i + seed) % texts.length]!
          const operator: Filter.Operator = search ? "contains" : mode
          const values = rows.map((r) => textOf(r, key))
          // Values written from a few items' texts; the one that tells most readings from the literal one.
          const sources = [0, 1, 2, 3]
            .map((j) => values[(seed + i * 7 + j * 31) % values.length]!)
            .filter((t) => Array.from(t).length >= 3)
          // Within 255 characters under every count and without control characters (a server may refuse others: string-limits).
          const candidates = [...new Set(sources.flatMap((t) => patternValues(t, ch)))]
            .filter((v) => TextLength.longest(v) <= 255 && !CONTROL.test(v))
            .slice(0, MAX_CANDIDATES)
          if (candidates.length === 0) return []
          const sample = values.slice(0, MAX_ROWS)
          let value = candidates[0]!
          let best = -1
          for (const v of candidates) {
            const n = ORDERS.includes(operator) ? 0 : patternsTold(sample, operator, v, search)
            if (n > best) [value, best] = [v, n]
            if (n === PATTERN_READINGS.length) break
          }
          if (search) {
            const body = { ...base, limit: 500, search: value }
            const certain = (row: Row) =>
              textOf(row, "name").toLowerCase().includes(value.toLowerCase())
            return yield* judged(ctx, op, base, rows, {
              body,
              certain,
              described: `search ${JSON.stringify(value)} (read literally)`,
              rule: "search.match",
              missRule: "search.match",
              mode: "search"
            })
          }
          const filter = condition(key, operator, value)
          const certain = (row: Row) =>
            readings.every((r) => evaluate(filter, (k) => textOf(row, k), r))
          return yield* judged(ctx, op, base, rows, {
            body: { ...base, limit: 500, filter },
            certain,
            described: `filter ${JSON.stringify(filter)} (read literally)`,
            rule: "filter.match",
            missRule: "filter.match",
            mode: "filter"
          })
        })
    },
    "patterns"
  )
}

/**
 * `search`, `filter` and `spaceId` in one request, each selecting items the others leave out: a
 * List returns the items that every part selects (the parts of a request all apply), so an item
 * that one part alone selects must not come back, and one that all parts select must.
 */
const combinedSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const filterKeys = stringFilterKeys(op)
  const parts = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(props.includes("filter") && filterKeys.length > 0 ? (["filter"] as const) : []),
    ...(props.includes("spaceId") ? (["space"] as const) : [])
  ]
  if (parts.length < 2 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  // Every pair of parts, then all of them.
  const combos: ReadonlyArray<ReadonlyArray<(typeof parts)[number]>> = [
    ...parts.flatMap((a, i) => parts.slice(i + 1).map((b) => [a, b])),
    ...(parts.length > 2 ? [parts] : [])
  ]
  const reference = everything(ctx, op)
  const seed = Math.abs(Math.trunc(ctx.seed))
  const count = combos.length * 2
  return readSuite(op, {
    cases: { _tag: "Enumerated", count, at: (i) => i },
    run: (i: number) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, seed)!
        const all = yield* reference(base)
        if (all.error !== undefined) return walkFailure(all)
        if (!all.ended || all.items.length < 2) return []
        const rows = all.items.map((x) => rowOf(op, x))
        const combo = combos[i % combos.length]!
        // Each part describes its own item (the first in even cases, the second part another item in odd ones).
        const first = rows[(seed + i * 7) % rows.length]!
        const second =
          rows[(seed + i * 7 + 1 + (i % 2) * Math.floor(rows.length / 2)) % rows.length]!
        const body: Body = { ...base, limit: 500 }
        const described: Array<string> = []
        combo.forEach((part, j) => {
          const row = i % 2 === 0 || j === 0 ? first : second
          if (part === "search") {
            const name = textOf(row, "name")
            const term = tellingTerm(rows, ["name"], name, piecesOf(name, (seed + i) % 4, 0, false))
            if (term !== "") {
              body.search = term
              described.push(`search ${JSON.stringify(term)}`)
            }
          } else if (part === "filter") {
            const key =
              filterKeys.find((k) => k !== "name" && textOf(row, k) !== "") ??
              filterKeys.find((k) => textOf(row, k) !== "")
            if (key !== undefined) {
              body.filter = condition(key, "equals", textOf(row, key))
              described.push(`filter ${JSON.stringify(body.filter)}`)
            }
          } else {
            const spaceId = textOf(row, "space_id")
            if (spaceId !== "") {
              body.spaceId = spaceId
              described.push(`spaceId ${JSON.stringify(spaceId)}`)
            }
          }
        })
        if (described.length < 2) return []
        const selected = selection(op, body)
        if (selected === undefined) return []
        const certain = (row: Row) =>
          selected.matches(row) &&
          (body.filter === undefined ||
            readings.every((r) =>
              evaluate(body.filter as Filter.Filter<string>, (k) => textOf(row, k), r)
            ))
        return yield* judged(ctx, op, base, rows, {
          body,
          certain,
          described: described.join(" and "),
          rule: selected.rule,
          missRule: selected.rule,
          mode: "combined"
        })
      })
  })
}

export const search: Family = {
  name: "search",
  checks: CHECKS,
  suites: (op, ctx) =>
    [
      searchSuite(op, ctx),
      operatorsSuite(op, ctx),
      emptyValuesSuite(op, ctx),
      patternsSuite(op, ctx),
      combinedSuite(op, ctx)
    ].filter((s): s is Suite => s !== undefined)
}
