/**
 * Values that tell the readings of a condition apart: a string operator from its neighbours (a
 * server might take one for another), a search term from a prefix or whole-value match, each
 * chosen from the items read.
 */
import { Filter } from "@data-access/schema"
import { evaluate, readings, type Row, textOf } from "../../filterReadings.js"

/**
 * The operators a server might take for one another: each string operator's neighbouring readings.
 * A value is chosen so that each neighbour gives another answer than the operator on some item.
 */
export const NEIGHBOURS: Partial<Record<Filter.Operator, ReadonlyArray<Filter.Operator>>> = {
  equals: ["contains", "starts_with", "ends_with"],
  contains: ["starts_with", "ends_with", "equals"],
  starts_with: ["contains", "equals", "ends_with"],
  ends_with: ["contains", "equals", "starts_with"],
  not_equals: ["not_contains"],
  not_contains: ["not_equals"]
}

/** The readings of the string operators' case (decisions.md section 10). */
const CASE_READINGS = readings.filter((r) => !r.orderCaseInsensitive && !r.timeEqualsAsText)

export const condition = (
  key: string,
  operator: Filter.Operator,
  value: string
): Filter.Filter<string> =>
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
export const piecesOf = (
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
export const MAX_CANDIDATES = 48
/** Items read to choose a value. */
export const MAX_ROWS = 200

/**
 * A value for a string condition on which its neighbouring readings give other answers (the
 * first that tells every neighbour apart, else the one that tells most), from the pieces of the
 * case's own value, then the values and pieces of the other items read.
 */
export const tellingValue = (
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
export const tellingTerm = (
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
