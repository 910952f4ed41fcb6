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
import { comparesTimes, evaluate, type KeyKind, nonMatching, OPERATORS, readings, type Row, rowOf, selection, textOf, UNDECIDED_KEYS } from "../oracles.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { forEachProperty } from "../ast.js"
import { requestPropertyNames } from "../pools.js"
import { everything, MAX_WALK_PAGES, missingReference, requiredRefs, walk } from "../walk.js"
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
      return [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)].flatMap(literalsOf)
    default:
      return []
  }
}

/** The literals of a request property found anywhere under `under` (the filter `key`s, the `searchFields`). */
const literalsOfProperty = (op: Op, under: string, name: string): ReadonlyArray<string> => {
  const out = new Set<string>()
  forEachProperty(op.request.ast, (p) => {
    if (p.name !== under) return
    if (under === name) literalsOf(p.type).forEach((l) => out.add(l))
    else forEachProperty(p.type, (q) => q.name === name && literalsOf(q.type).forEach((l) => out.add(l)))
  })
  return [...out]
}

const kindOf = (rows: ReadonlyArray<Row>, key: string): KeyKind =>
  /_at$/.test(key) ? "time" : rows.some((r) => typeof r.full[snakeToCamel(key)] === "boolean") ? "boolean" : "string"

/** The operators that order values. */
const ORDERS: ReadonlyArray<Filter.Operator> = ["lower_than", "greater_than"]

/** Operators that match the item their value comes from. */
const SELECTING: ReadonlySet<Filter.Operator> = new Set(["equals", "contains", "starts_with", "ends_with"])

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
  const moved = form.step === 0 ? t : Timestamp.addNanos(t, BigInt(form.step) * 10n ** BigInt(9 - digits))
  return Timestamp.formatAt(moved, { offsetMinutes: form.offsetMinutes, digits: form.nineDigits ? 9 : digits }) ?? text
}

const CHECKS: ReadonlyArray<CheckId> = ["search-filter"]

const searchSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const filterKeys = literalsOfProperty(op, "filter", "key").filter((k) => !UNDECIDED_KEYS.has(k))
  const timeKeys = filterKeys.filter((k) => kindOf([], k) === "time")
  const searchFields = literalsOfProperty(op, "searchFields", "searchFields").filter((k) => !UNDECIDED_KEYS.has(k))
  const modes = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(props.includes("filter") && filterKeys.length > 0 ? (["filter"] as const) : []),
    ...(props.includes("filter") && timeKeys.length > 0 ? (["time"] as const) : []),
    ...(props.includes("spaceId") ? (["space"] as const) : []),
    ...(op.parent?.required === true ? (["parent"] as const) : [])
  ]
  if (modes.length === 0) return undefined
  if (requiredRefs(op, ctx.pools, 0) === undefined) return skipped("search", op.method, CHECKS, false, missingReference(op, ctx.pools) ?? "missing references")
  const reference = everything(ctx, op)
  return {
    family: "search",
    method: op.method,
    checks: CHECKS,
    writes: false,
    skip: undefined,
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
        nest: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) })
      }),
      examples: Math.max(5, Math.ceil(ctx.examples / 2))
    },
    run: (c: SearchCase) =>
      Effect.gen(function* () {
        const base = requiredRefs(op, ctx.pools, c.ref)!
        const all = yield* reference(base)
        if (all.error !== undefined || !all.ended) return []
        const toRow = (raw: Record<string, unknown>): Row => rowOf(op, raw)
        const rows = all.items.map(toRow)
        const sampleAt = (i: number) => (rows.length === 0 ? undefined : rows[i % rows.length])
        const sample = sampleAt(c.item)
        const textAt = (row: Row | undefined, k: string) => (row === undefined ? "" : textOf(row, k))
        const sampleText = (k: string) => textAt(sample, k)
        // A piece of the text cut at code points (never half of a surrogate pair: the term must be well-formed).
        const cut = (s: string) => {
          const points = Array.from(s)
          const from = Math.min(c.start, points.length)
          const piece = points.slice(from, from + (c.length === 0 ? points.length : c.length)).join("")
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
          const fields = searchFields.length === 0 ? ["name"] : [searchFields[c.field % searchFields.length]!]
          const term = cut(sampleText(fields[0]!))
          // `name` is the default: sometimes leave searchFields out to test that too.
          const explicit = searchFields.length > 0 && !(c.upper && fields[0] === "name" && c.start % 2 === 0)
          body = { ...base, limit: 500, search: term, ...(explicit ? { searchFields: fields } : {}) }
          certain = (row) => fields.some((f) => textOf(row, f).toLowerCase().includes(term.toLowerCase()))
          described = `search ${JSON.stringify(term)} in ${explicit ? fields.join(", ") : "the default field (name)"}`
          missRule = term !== term.toLowerCase() ? "search.case-insensitive" : fields[0] !== "name" ? "search.fields" : "search.match"
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
            const from = i === 0 ? sample : sampleAt(c.item + 1 + (c.other % Math.max(1, rows.length - 1)))
            const kind = kindOf(rows, k)
            const operators = time ? ORDERS : either ? OPERATORS[kind].filter((x) => SELECTING.has(x)) : OPERATORS[kind]
            const operator = operators[o % operators.length]!
            const whole = textAt(from, k) || (kind === "time" ? "2000-01-01T00:00:00Z" : kind === "boolean" ? "false" : "")
            // Times are written in another form of the same instant; only an order moves one step from it.
            const ordered = ORDERS.includes(operator)
            const v = !ordered && operator !== "equals" && operator !== "not_equals" ? cut(whole) : kind !== "time" ? whole : timeValue(whole, ordered ? c.time : { ...c.time, step: 0 })
            return { field: Filter.valueless.has(operator) ? { key: k, operator } : { key: k, operator, value: { "@type": Filter.STRING_VALUE_TYPE, value: v } } }
          })
          let filter = (conditions.length === 1 ? conditions[0]! : { group: { operator: group, filters: conditions } }) as Filter.Filter<string>
          // Groups nest to any depth (decisions.md section 3): a group of one filter selects what that filter selects.
          for (let depth = 0; depth < c.nest; depth++) filter = { group: { operator: depth % 2 === 0 ? "and" : "or", filters: [filter] } }
          body = { ...base, limit: 500, filter }
          certain = (row) => readings.every((r) => evaluate(filter, (k) => textOf(row, k), r))
          described = `filter ${JSON.stringify(filter)}`
          rule = either && conditions.length > 1 ? "filter.group-operator" : comparesTimes(filter) ? "filter.time-instants" : "filter.match"
          missRule = rule
        }
        const w = yield* walk(ctx, op, body, MAX_WALK_PAGES)
        const lastExchange = w.pages[w.pages.length - 1]?.exchange ?? w.error
        if (w.error !== undefined) {
          const code = Inspect.codeOf(w.error) ?? `HTTP ${Inspect.statusOf(w.error) ?? "none"}`
          return [fail(rule, `${c.mode} rejected with ${code}`, `${described} was rejected with ${code}`, w.error)]
        }
        if (!w.ended) return []
        // Returned items are judged by their own content. A matching item counts as missing only
        // when it matches in a second read of everything and the same request leaves it out again
        // (objects may change while the reads run, on a shared deployment as anywhere).
        const selected = selection(op, body)
        const wrong = selected === undefined ? undefined : nonMatching(op, selected, w.items, lastExchange, c.mode)
        const got = new Set(w.items.map((x) => String(x.id)))
        let missing = rows.filter(certain).map((r) => String(r.raw.id)).filter((id) => !got.has(id))
        if (missing.length > 0) {
          const again = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
          const retry = yield* walk(ctx, op, body, MAX_WALK_PAGES)
          if (again.error === undefined && again.ended && retry.error === undefined && retry.ended) {
            const still = new Set(again.items.map(toRow).filter(certain).map((r) => String(r.raw.id)))
            const gotAgain = new Set(retry.items.map((x) => String(x.id)))
            missing = missing.filter((id) => still.has(id) && !gotAgain.has(id))
          }
        }
        const out: Array<Outcome> = []
        if (wrong !== undefined) out.push(wrong)
        if (missing.length > 0) out.push(fail(missRule, `${c.mode} misses matching items`, `${described} left out ${missing.length} matching items (e.g. ${missing[0]})`, lastExchange))
        return out.length === 0 ? [pass("search-filter", [...new Set([rule, missRule])])] : out
      })
  }
}

export const search: Family = {
  name: "search",
  checks: CHECKS,
  suites: (op, ctx) => [searchSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
