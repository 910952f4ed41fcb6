/**
 * Text read literally, not as a pattern: `search` and every text operator of a filter with a value
 * holding a character that a query language or a regular expression reads as an operator.
 */
import * as Effect from "effect/Effect"
import { Filter } from "@data-access/schema"
import type { Context, Op, Suite } from "../../context.js"
import { evaluate, type Row, textOf } from "../../filterReadings.js"
import { requestPropertyNames } from "../../pools.js"
import * as TextLength from "../../textLength.js"
import { requiredRefs } from "../../listWalk.js"
import { judged, judgedFilter, kindOf, ORDERS, readingSuite, stringFilterKeys } from "./judged.js"
import { condition, MAX_CANDIDATES, MAX_ROWS } from "./telling.js"

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

/** The characters `escapeRegExp` escapes. */
const SPECIAL: ReadonlySet<string> = new Set("\\^$.*+?()[]{}|")

/** One character as `escapeRegExp` writes it. */
const escapeChar = (ch: string) => (SPECIAL.has(ch) ? `\\${ch}` : ch)

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
        if (ch === "\\" && i + 1 < v.length) out += escapeChar(v[++i]!)
        else out += ch === "%" ? "[\\s\\S]*" : ch === "_" ? "[\\s\\S]" : escapeChar(ch)
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
        if (ch === "\\" && i + 1 < v.length) out += escapeChar(v[++i]!)
        else if (close > 0) {
          out += `[${v.slice(i + 1, close).replace(/[\\\]^]/g, "\\$&")}]`
          i = close
        } else out += ch === "*" ? "[\\s\\S]*" : ch === "?" ? "[\\s\\S]" : escapeChar(ch)
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

/**
 * A pattern reading's expression of a value placed as a text operator places it (a `not_`
 * operator selects the texts it does not match), or `undefined` when the value is no pattern under it.
 */
const patternExpression = (
  reading: (typeof PATTERN_READINGS)[number],
  operator: Filter.Operator,
  value: string,
  caseInsensitive: boolean
): RegExp | undefined => {
  const anchors = ANCHORED[operator]
  const source = reading.source(value)
  if (anchors === undefined || source === undefined) return undefined
  return compiled(`${anchors[0]}${source}${anchors[1]}`, caseInsensitive ? "si" : "s")
}

/** Compiled expressions by flags and source (`null`: no expression), emptied when full. */
const expressions = new Map<string, RegExp | null>()
const MAX_EXPRESSIONS = 4096

/** A regular expression compiled once per source and flags; `undefined` when the source is none. */
const compiled = (source: string, flags: string): RegExp | undefined => {
  const key = `${flags}/${source}`
  let re = expressions.get(key)
  if (re === undefined) {
    try {
      re = new RegExp(source, flags)
    } catch {
      re = null
    }
    if (expressions.size >= MAX_EXPRESSIONS) expressions.clear()
    expressions.set(key, re)
  }
  return re ?? undefined
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

/** A literal reading of a text operator on a text, given in lower case too (`evaluate` on a key that is no time). */
const literalTest = (
  operator: Filter.Operator,
  value: string,
  caseInsensitive: boolean
): ((text: string, lower: string) => boolean) => {
  const expected = caseInsensitive ? value.toLowerCase() : value
  return (t, lower) =>
    Filter.textHolds(operator, caseInsensitive ? lower : t, expected) ??
    evaluate(condition("k", operator, value), () => t, {
      caseInsensitive,
      orderCaseInsensitive: caseInsensitive,
      timeEqualsAsText: false
    })
}

/**
 * The distinct texts of a list and each in lower case, once per list: whether some text tells a
 * reading from another is the same over the distinct ones (a key of a few values repeats them).
 */
interface Distinct {
  readonly texts: ReadonlyArray<string>
  readonly lower: ReadonlyArray<string>
}
const distinctTexts = new WeakMap<ReadonlyArray<string>, Distinct>()
const distinct = (texts: ReadonlyArray<string>): Distinct => {
  let known = distinctTexts.get(texts)
  if (known === undefined) {
    const unique = [...new Set(texts)]
    distinctTexts.set(texts, (known = { texts: unique, lower: unique.map((t) => t.toLowerCase()) }))
  }
  return known
}

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/

/** Whether every text is ASCII, once per list of texts. */
const asciiTexts = new WeakMap<ReadonlyArray<string>, boolean>()
const allAscii = (texts: ReadonlyArray<string>): boolean => {
  let known = asciiTexts.get(texts)
  if (known === undefined) {
    known = texts.every((t) => ASCII.test(t))
    asciiTexts.set(texts, known)
  }
  return known
}

/**
 * The pattern readings that may tell a value from the literal one: a reading under which the value
 * is a pattern, and not one that reads it as the literal text (a literal regular expression matches
 * as the string operators do, case-sensitively, and case-insensitively on ASCII texts).
 */
const tellingReadings = (
  texts: ReadonlyArray<string>,
  value: string,
  search: boolean
): ReadonlyArray<(typeof PATTERN_READINGS)[number]> => {
  const literal = escapeRegExp(value)
  return PATTERN_READINGS.filter((r) => {
    const source = r.source(value)
    return (
      source !== undefined &&
      (source !== literal || (search && !(ASCII.test(value) && allAscii(texts))))
    )
  })
}

/**
 * How many pattern readings a value tells from the literal one on the items read: some item that
 * the reading selects and no literal reading does, or that every literal reading selects and the
 * reading does not, under each case the reading may fold (search: case-insensitive only); only
 * `candidates` (its `tellingReadings`) are tried, and no more once they cannot tell more than
 * `beyond` (whose regular expressions need not be compiled). The texts the value was written from
 * (`first`) are tried first: a pattern reading of it matches them, and the literal one seldom does.
 */
const patternsTold = (
  sample: ReadonlyArray<string>,
  operator: Filter.Operator,
  value: string,
  search: boolean,
  candidates: ReadonlyArray<(typeof PATTERN_READINGS)[number]>,
  first: ReadonlyArray<string>,
  beyond: number
): number => {
  if (candidates.length === 0) return 0
  const cases = search ? [true] : [false, true]
  const lowerValue = value.toLowerCase()
  const literals = search
    ? [(_: string, lower: string) => lower.includes(lowerValue)]
    : cases.map((ci) => literalTest(operator, value, ci))
  const { texts, lower } = distinct(sample)
  const negated = !search && operator.startsWith("not_")
  // Each text's literal answers, when first needed; each expression's verdict, once.
  const lit: Array<ReadonlyArray<boolean> | undefined> = []
  const toldBy = new Map<RegExp, boolean>()
  const tellsAt = (re: RegExp, i: number) => {
    const t = texts[i]!
    const got = re.test(t) !== negated
    return (lit[i] ??= literals.map((l) => l(t, lower[i]!))).every((x) => x !== got)
  }
  const starts = [...new Set(first)].map((t) => texts.indexOf(t)).filter((i) => i >= 0)
  const tells = (re: RegExp) => {
    let known = toldBy.get(re)
    if (known === undefined) {
      known = starts.some((i) => tellsAt(re, i))
      for (let i = 0; !known && i < texts.length; i++)
        if (!starts.includes(i)) known = tellsAt(re, i)
      toldBy.set(re, known)
    }
    return known
  }
  let told = 0
  for (let j = 0; j < candidates.length && told + candidates.length - j > beyond; j++)
    if (
      cases.every((ci) => {
        const re = patternExpression(candidates[j]!, search ? "contains" : operator, value, ci)
        return re !== undefined && tells(re)
      })
    )
      told++
  return told
}

/**
 * `search` and every text operator of a filter, each with a value holding one of the characters
 * that a query language or a regular expression reads as an operator, written from the items read
 * so that a pattern reading selects other items than the literal one (`na_e` where an item is
 * named `name`, `.` where no name holds a dot): the items returned are judged by the literal
 * reading (decisions.md section 3: search is a substring match; the operators compare strings).
 */
export const patternsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const props = requestPropertyNames(op)
  const keys = props.includes("filter") ? stringFilterKeys(op) : []
  const modes: ReadonlyArray<Filter.Operator | "search"> = [
    ...(props.includes("search") ? (["search"] as const) : []),
    ...(keys.length > 0 ? PATTERN_OPERATORS : [])
  ]
  if (modes.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  const count = modes.length * PATTERN_CHARACTERS.length
  return readingSuite(
    op,
    ctx,
    count,
    (i, rows, base, seed) =>
      Effect.gen(function* () {
        if (rows.length === 0) return []
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
        // The most readings each candidate and those after it may tell: no later one can tell more than the best so far.
        const ordered = ORDERS.includes(operator)
        const telling = candidates.map((v) => (ordered ? [] : tellingReadings(sample, v, search)))
        const most = telling.map((t) => t.length)
        for (let j = most.length - 2; j >= 0; j--) most[j] = Math.max(most[j]!, most[j + 1]!)
        for (let j = 0; j < candidates.length; j++) {
          const v = candidates[j]!
          // One that may tell no more readings than the best so far cannot take its place.
          if (ordered || telling[j]!.length > best) {
            const n = ordered
              ? 0
              : patternsTold(sample, operator, v, search, telling[j]!, sources, best)
            if (n > best) [value, best] = [v, n]
          }
          if (best >= (most[j + 1] ?? 0)) break
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
        return yield* judgedFilter(
          ctx,
          op,
          base,
          rows,
          filter,
          `filter ${JSON.stringify(filter)} (read literally)`
        )
      }),
    "patterns"
  )
}
