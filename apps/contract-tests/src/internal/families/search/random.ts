/**
 * The random cases of the search family: a `search`, a `filter` (one condition or a group, nested
 * or not), a time key ordered against another form of an item's timestamp, a `spaceId` or a
 * required parent, each written from an item read and judged on what it selects.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { type ContractRules, Filter, Timestamp } from "@data-access/schema"
import { type Body, type Context, type Op, type Suite } from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import {
  everyReadingSelects,
  OPERATORS,
  type Row,
  rowsOf,
  textOf,
  UNDECIDED_KEYS
} from "../../filterReadings.js"
import { requestPropertyNames } from "../../pools.js"
import { filterRule, searchMissRule } from "../../oracles/search-filter.js"
import { everything, requiredRefs } from "../../listWalk.js"
import { literalsOfProperty } from "../shared/literals.js"
import { CHECKS, judged, kindOf, ORDERS, readSuite } from "./judged.js"
import { piecesOf, tellingTerm, tellingValue } from "./telling.js"
import { skippedWithoutReferences } from "../shared/references.js"
import { walkFailure } from "../shared/walkFailure.js"

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

export const searchSuite = (op: Op, ctx: Context): Suite | undefined => {
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
  const unfilled = skippedWithoutReferences("search", op, ctx, CHECKS)
  if (unfilled !== undefined) return unfilled
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
        const rows = rowsOf(op, all.items)
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
          missRule = searchMissRule(term, fields)
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
                ? tellingValue(rows, k, operator, picked, (t, max) =>
                    piecesOf(t, c.start, c.length, c.upper, max)
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
          if (time)
            Dimensions.sent(
              ctx.dimensions,
              op.method,
              conditions.flatMap(({ field }) =>
                Dimensions.valid(
                  `filter.field.value (${field.key})`,
                  c.time.nineDigits ? "precision" : "value",
                  ...(c.time.offsetMinutes !== 0 ? (["offset"] as const) : [])
                )
              )
            )
          certain = (row) => everyReadingSelects(filter, row)
          described = `filter ${JSON.stringify(filter)}`
          rule = filterRule(filter, either && conditions.length > 1)
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
