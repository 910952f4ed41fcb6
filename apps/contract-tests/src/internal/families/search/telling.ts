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

/** Pieces of a text (whole code points), the case's own first: where a term may start and how long it is; the first `max`. */
export const piecesOf = (
  text: string,
  start: number,
  length: number,
  upper: boolean,
  max = Infinity
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
      if (out.size >= max) return [...out]
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
  pieces: (text: string, max?: number) => ReadonlyArray<string>
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
    add(pieces(t, 3))
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
  // Each item's searched texts and name in lower case, once for every candidate.
  const texts = sample.map((r) => fields.map((f) => lower(textOf(r, f))))
  const names = sample.map((r) => lower(textOf(r, "name")))
  const tests: Array<(term: string) => boolean> = [
    (t) => texts.some((ts) => ts.some((x) => x.includes(t) && !x.startsWith(t))),
    (t) => texts.some((ts) => ts.some((x) => x.includes(t) && x !== t))
  ]
  if (fields.some((f) => f !== "name"))
    tests.push((t) =>
      texts.some((ts, i) => ts.some((x) => x.includes(t)) && !names[i]!.includes(t))
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

type Group = {
  readonly operator: "and" | "or"
  readonly filters: ReadonlyArray<Filter.Filter<string>>
}

const groupOf = (f: Filter.Filter<string>): Group | undefined =>
  "group" in f && f.group !== undefined ? (f.group as Group) : undefined

const grouped = (g: Group): Filter.Filter<string> => ({ group: g }) as Filter.Filter<string>

const swapped = (operator: "and" | "or"): "and" | "or" => (operator === "and" ? "or" : "and")

/**
 * The readings of a filter's groups a server might take instead of it: one group's operator
 * swapped (`or` read as `and` or back), a nested group taking its parent's operator, a nested
 * group flattened into its parent, and every group read as `and`, or as `or`.
 */
export const groupMisreadings = (
  filter: Filter.Filter<string>
): ReadonlyArray<Filter.Filter<string>> => {
  const out: Array<Filter.Filter<string>> = []
  const visit = (
    f: Filter.Filter<string>,
    parent: Group | undefined,
    put: (g: Filter.Filter<string> | ReadonlyArray<Filter.Filter<string>>) => Filter.Filter<string>
  ) => {
    const g = groupOf(f)
    if (g === undefined) return
    out.push(put(grouped({ ...g, operator: swapped(g.operator) })))
    if (parent !== undefined) {
      if (parent.operator !== g.operator)
        out.push(put(grouped({ ...g, operator: parent.operator })))
      out.push(put(g.filters))
    }
    g.filters.forEach((child, i) =>
      visit(child, g, (x) => {
        const filters = Array.isArray(x)
          ? [...g.filters.slice(0, i), ...x, ...g.filters.slice(i + 1)]
          : g.filters.map((c, j) => (j === i ? (x as Filter.Filter<string>) : c))
        return put(grouped({ ...g, filters }))
      })
    )
  }
  visit(filter, undefined, (x) =>
    Array.isArray(x) ? grouped({ operator: "and", filters: x }) : (x as Filter.Filter<string>)
  )
  const every = (operator: "and" | "or") => {
    const all = (f: Filter.Filter<string>): Filter.Filter<string> => {
      const g = groupOf(f)
      return g === undefined ? f : grouped({ operator, filters: g.filters.map(all) })
    }
    return all(filter)
  }
  out.push(every("and"), every("or"))
  return out
}

/** Whether some item tells `other` from `filter`: it gives another answer under every reading. */
const tells = (
  rows: ReadonlyArray<Row>,
  filter: Filter.Filter<string>,
  other: Filter.Filter<string>
): boolean =>
  rows.some((row) => {
    const get = (k: string) => textOf(row, k)
    const right = readings.map((r) => evaluate(filter, get, r))
    return readings.every((r) => right.every((x) => x !== evaluate(other, get, r)))
  })

/**
 * A filter of groups nested `depth` deep (each group a condition and the next group; the innermost
 * two conditions), `equals` / `not_equals` on string keys with values of the items read, drawn from
 * `seed` until each of its `groupMisreadings` (that changes it) selects other items: the first
 * found, or undefined.
 */
export const tellingNested = (
  rows: ReadonlyArray<Row>,
  keys: ReadonlyArray<string>,
  depth: number,
  seed: number
): Filter.Filter<string> | undefined => {
  const sample = rows.slice(0, MAX_ROWS)
  if (sample.length < 2 || keys.length === 0) return undefined
  let state = (seed * 2654435761 + depth * 40503) >>> 0
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 8) % n
  }
  // Values are never empty (what an empty value selects is another suite's question).
  const leaf = (): Filter.Filter<string> => {
    let key = keys[0]!
    let value = ""
    for (let i = 0; i < 8 && value === ""; i++) {
      key = keys[next(keys.length)]!
      value = textOf(sample[next(Math.min(sample.length, 6))]!, key)
    }
    return condition(key, next(3) === 0 ? "not_equals" : "equals", value === "" ? "x" : value)
  }
  for (let attempt = 0; attempt < MAX_CANDIDATES; attempt++) {
    let filter = grouped({ operator: next(2) === 0 ? "and" : "or", filters: [leaf(), leaf()] })
    for (let d = 1; d < depth; d++)
      filter = grouped({ operator: next(2) === 0 ? "and" : "or", filters: [leaf(), filter] })
    const text = JSON.stringify(filter)
    const others = groupMisreadings(filter).filter((m) => JSON.stringify(m) !== text)
    if (others.every((m) => tells(sample, filter, m))) return filter
  }
  return undefined
}
