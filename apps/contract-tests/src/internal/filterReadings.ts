/**
 * How a List's `search` and `filter` read an item: its fields as text, every reading a faithful
 * server may take (decisions.md section 10), and the filters whose outcome every reading decides.
 * The search-filter oracle, the valid-accepted oracle and the generator share it.
 */
import { Filter, Timestamp } from "@data-access/schema"
import { fullObject, type Op } from "./context.js"
import { snakeToCamel } from "./json.js"

/** An item as the filters read it: the object as sent, and with every default filled in. */
export type Row = { readonly raw: Record<string, unknown>; readonly full: Record<string, unknown> }

export const rowOf = (op: Op, raw: Record<string, unknown>): Row => ({
  raw,
  full: fullObject(op.object, raw) ?? raw
})

/** The rows of a list of items, once per list and operation (each case of a suite reads the same memoised walk). */
export const rowsOf = (
  op: Op,
  items: ReadonlyArray<Record<string, unknown>>
): ReadonlyArray<Row> => {
  let known = rowsByItems.get(items)
  if (known === undefined || known.op !== op) {
    known = { op, rows: items.map((raw) => rowOf(op, raw)) }
    rowsByItems.set(items, known)
  }
  return known.rows
}

const rowsByItems = new WeakMap<object, { readonly op: Op; readonly rows: ReadonlyArray<Row> }>()

/** A field's text for search and filters: strings as they are, booleans and numbers as JSON text. */
export const textOf = (row: Row, key: string): string => fieldText(row.full[snakeToCamel(key)])

const fieldText = (v: unknown): string =>
  typeof v === "string" ? v : typeof v === "boolean" || typeof v === "number" ? String(v) : ""

/**
 * One reading of the filter: the case of the string operators (`equals`, `contains`...), the case
 * of `lower_than` / `greater_than` on text (a server may fold one and not the other), and whether
 * time keys are equal as instants or as text.
 */
export interface Reading {
  readonly caseInsensitive: boolean
  readonly orderCaseInsensitive: boolean
  readonly timeEqualsAsText: boolean
}

/** Every reading a faithful server may take (decisions.md section 10). */
export const readings: ReadonlyArray<Reading> = [false, true].flatMap((caseInsensitive) =>
  [false, true].flatMap((orderCaseInsensitive) =>
    [false, true].map((timeEqualsAsText) => ({
      caseInsensitive,
      orderCaseInsensitive,
      timeEqualsAsText
    }))
  )
)

/** The conditions of a filter, at any depth, in order (none for an empty filter). */
export const conditionsOf = (
  filter: Filter.Filter<string>,
  out: Array<Filter.Condition<string>> = []
): ReadonlyArray<Filter.Condition<string>> => {
  if (Filter.isEmpty(filter)) return out
  if ("group" in filter && filter.group !== undefined)
    for (const f of filter.group.filters) conditionsOf(f, out)
  else if ("field" in filter && filter.field !== undefined) out.push(filter.field)
  return out
}

/**
 * The readings that can differ on a filter (`readings` without the variants of a flag none of its
 * conditions reads), memoised per filter: `every` and `some` over them are those over all readings.
 */
export const readingsOf = (filter: Filter.Filter<string>): ReadonlyArray<Reading> => {
  let out = readingsByFilter.get(filter)
  if (out === undefined) {
    const read = { caseInsensitive: false, orderCaseInsensitive: false, timeEqualsAsText: false }
    for (const { key, operator } of conditionsOf(filter)) {
      if (operator === "empty" || operator === "not_empty") continue
      if (Filter.textHolds(operator, "", "") === undefined) read.orderCaseInsensitive = true
      else {
        read.caseInsensitive = true
        if ((operator === "equals" || operator === "not_equals") && /_at$/.test(key))
          read.timeEqualsAsText = true
      }
    }
    out = readings.filter(
      (r) =>
        (read.caseInsensitive || !r.caseInsensitive) &&
        (read.orderCaseInsensitive || !r.orderCaseInsensitive) &&
        (read.timeEqualsAsText || !r.timeEqualsAsText)
    )
    readingsByFilter.set(filter, out)
  }
  return out
}

const readingsByFilter = new WeakMap<object, ReadonlyArray<Reading>>()

/**
 * Instants by text (`null`: no instant), emptied when full: every reading of every filter reads
 * the same few timestamps of the items listed.
 */
const instants = new Map<string, Timestamp.Timestamp | null>()
const MAX_INSTANTS = 4096

const instant = (s: string): Timestamp.Timestamp | undefined => {
  let known = instants.get(s)
  if (known === undefined) {
    const t = Timestamp.parse(s)
    known = t instanceof Timestamp.Timestamp ? t : null
    if (instants.size >= MAX_INSTANTS) instants.clear()
    instants.set(s, known)
  }
  return known ?? undefined
}

/** One condition's test of a field's text under a reading, its value read once. */
type ConditionTest = (raw: string, reading: Reading) => boolean

const conditionTest = ({ key, operator, value }: Filter.Condition<string>): ConditionTest => {
  const rawExpected = value?.value ?? ""
  const lowerExpected = rawExpected.toLowerCase()
  const time = /_at$/.test(key)
  const expectedInstant = time ? instant(rawExpected) : undefined
  const equality = operator === "equals" || operator === "not_equals"
  const text = Filter.textHolds(operator, "", "") !== undefined
  return (raw, reading) => {
    const actualInstant = time ? instant(raw) : undefined
    // Times equal as instants, unless the reading compares them as text.
    if (equality && !reading.timeEqualsAsText && actualInstant && expectedInstant)
      return (Timestamp.Order(actualInstant, expectedInstant) === 0) === (operator === "equals")
    if (text)
      return reading.caseInsensitive
        ? Filter.textHolds(operator, raw.toLowerCase(), lowerExpected)!
        : Filter.textHolds(operator, raw, rawExpected)!
    if (operator === "empty") return raw === ""
    if (operator === "not_empty") return raw !== ""
    let order: number
    if (actualInstant !== undefined && expectedInstant !== undefined)
      order = Timestamp.Order(actualInstant, expectedInstant)
    else {
      const [a, b] = reading.orderCaseInsensitive
        ? [raw.toLowerCase(), lowerExpected]
        : [raw, rawExpected]
      order = a < b ? -1 : a > b ? 1 : 0
    }
    return operator === "lower_than" ? order < 0 : order > 0
  }
}

/**
 * A filter prepared once: the keys of its conditions in order (as sent and lowerCamelCase), its
 * test under a reading of their texts (`texts[i]` the text of `keys[i]`), and its `readingsOf`.
 */
interface Prepared {
  readonly keys: ReadonlyArray<string>
  readonly fields: ReadonlyArray<string>
  readonly test: (texts: ReadonlyArray<string>, reading: Reading) => boolean
  readonly readings: ReadonlyArray<Reading>
}

const preparedFilters = new WeakMap<object, Prepared>()

const prepared = (filter: Filter.Filter<string>): Prepared => {
  let known = preparedFilters.get(filter)
  if (known === undefined) {
    const keys: Array<string> = []
    const compile = (
      f: Filter.Filter<string>
    ): ((texts: ReadonlyArray<string>, reading: Reading) => boolean) => {
      if (Filter.isEmpty(f)) return () => true
      if ("group" in f && f.group !== undefined) {
        const parts = f.group.filters.map(compile)
        return f.group.operator === "and"
          ? (texts, reading) => parts.every((p) => p(texts, reading))
          : (texts, reading) => parts.some((p) => p(texts, reading))
      }
      const at = keys.push(f.field!.key) - 1
      const holds = conditionTest(f.field!)
      return (texts, reading) => holds(texts[at]!, reading)
    }
    const test = compile(filter)
    known = { keys, fields: keys.map(snakeToCamel), test, readings: readingsOf(filter) }
    preparedFilters.set(filter, known)
  }
  return known
}

/** A filter evaluated under one reading (decisions.md section 3). */
export const evaluate = (
  filter: Filter.Filter<string>,
  get: (key: string) => string,
  reading: Reading
): boolean => {
  const p = prepared(filter)
  return p.test(p.keys.map(get), reading)
}

/** The texts of a row's fields (`textOf`). */
const textsOf = (row: Row, fields: ReadonlyArray<string>): ReadonlyArray<string> =>
  fields.map((f) => fieldText(row.full[f]))

/** Whether some (`every`: every) reading that can differ on a filter (`readingsOf`) selects a row. */
const readingsSelect =
  (every: boolean) =>
  (filter: Filter.Filter<string>, row: Row): boolean => {
    const p = prepared(filter)
    const texts = textsOf(row, p.fields)
    const selects = (r: Reading) => p.test(texts, r)
    return every ? p.readings.every(selects) : p.readings.some(selects)
  }

/** Whether some reading that can differ on a filter (`readingsOf`) selects a row. */
export const someReadingSelects = readingsSelect(false)

/** Whether every reading that can differ on a filter (`readingsOf`) selects a row. */
export const everyReadingSelects = readingsSelect(true)

/** Keys whose values the documents do not decide (`type` of an MDM integration): never judged. */
export const UNDECIDED_KEYS: ReadonlySet<string> = new Set(["type"])

/** The kind of a filter key's values: text, a timestamp (`*_at`), or a boolean. */
export type KeyKind = "string" | "boolean" | "time"

/**
 * The operators whose outcome every reading decides, per kind of key: string operators on times
 * depend on the server's text form of a timestamp, and booleans are only equal or not. Valid
 * requests use only these; the oracles judge only filters made of them.
 */
export const OPERATORS: Record<KeyKind, ReadonlyArray<Filter.Operator>> = {
  string: Filter.Operator.literals,
  time: ["equals", "not_equals", "lower_than", "greater_than", "empty", "not_empty"],
  boolean: ["equals", "not_equals"]
}

/**
 * Whether a filter stays where every faithful server's answer is decided by the readings: no key
 * whose values are undecided, and on time keys only comparisons of timestamps.
 */
export const judgeable = (filter: Filter.Filter<string>): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined) return filter.group.filters.every(judgeable)
  const field = filter.field
  if (field === undefined || UNDECIDED_KEYS.has(field.key)) return false
  if (!/_at$/.test(field.key)) return true
  if (!OPERATORS.time.includes(field.operator)) return false
  return Filter.valueless.has(field.operator) || instant(field.value?.value ?? "") !== undefined
}

/** Whether a filter compares a time key with `lower_than` / `greater_than` somewhere (`filter.time-instants`). */
export const comparesTimes = (filter: Filter.Filter<string>): boolean =>
  conditionsOf(filter).some(
    (c) => /_at$/.test(c.key) && (c.operator === "lower_than" || c.operator === "greater_than")
  )
