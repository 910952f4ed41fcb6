/**
 * `lower_than` / `greater_than` on the time keys of a List's filter, with values that only an exact
 * order of instants judges right: between two items' times that differ only below the second, an
 * item's own time written with another number of fractional digits or at another offset
 * (`+00:00`, `-05:30`), the whole second an item's time falls in, written as `:05Z`, `:05.000Z` or
 * `:05.000000000Z`, and the tenth of a second after it, written with one digit (`:05.8Z`).
 */
import * as Effect from "effect/Effect"
import { type Filter, Timestamp } from "@data-access/schema"
import type { Context, Op, Suite } from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import { textOf } from "../../filterReadings.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { literalsOfProperty } from "../shared/literals.js"
import { judgedFilter, kindOf, readingSuite } from "./judged.js"
import { condition } from "./telling.js"

/**
 * Where a value's wall clock is: minutes east of UTC (0 writes `Z`), or `+00:00`, UTC spelled as an
 * offset. An offset east of UTC is paired with `lower_than` and one west with `greater_than` where
 * the value is near an item's time, so that a server that reads the wall clock as UTC selects an
 * item it must not, or leaves one out.
 */
type Zone = number | "+00:00"

/**
 * How a case writes its value, and which operator compares it: `floor` is an item's time cut to
 * `unit` fractional digits (0: its whole second), `ceil` the next such unit after it, written with
 * `digits` (`floor` selects the item with `greater_than`, `ceil` with `lower_than`).
 */
const KINDS: ReadonlyArray<
  | {
      readonly value: "between" | "respelled"
      readonly operator: Filter.Operator
      readonly zone: Zone
    }
  | { readonly value: "floor" | "ceil"; readonly unit: number; readonly digits: number }
> = [
  { value: "ceil", unit: 1, digits: 1 },
  { value: "between", operator: "lower_than", zone: 120 },
  { value: "between", operator: "greater_than", zone: 0 },
  { value: "respelled", operator: "greater_than", zone: "+00:00" },
  { value: "respelled", operator: "lower_than", zone: -330 },
  { value: "floor", unit: 0, digits: 0 },
  { value: "floor", unit: 0, digits: 3 },
  { value: "floor", unit: 0, digits: 9 },
  { value: "floor", unit: 3, digits: 3 }
]

/** An instant written with `digits` fractional digits (more when fewer would lose one) at `zone`. */
const written = (t: Timestamp.Timestamp, digits: number, zone: Zone): string | undefined =>
  zone === "+00:00"
    ? Timestamp.formatAt(t, { digits })?.replace(/Z$/, "+00:00")
    : Timestamp.formatAt(t, { digits, offsetMinutes: zone })

/** Fractional digits a value is written with (formatAt writes more when fewer would lose one). */
const DIGITS = [0, 3, 6, 9] as const

/** The distinct instants of a key on the items read, ascending. */
const instantsOf = (texts: ReadonlyArray<string>): ReadonlyArray<Timestamp.Timestamp> => {
  const parsed = texts
    .map((t) => Timestamp.parse(t))
    .filter((t): t is Timestamp.Timestamp => typeof t !== "string")
    .sort(Timestamp.Order)
  return parsed.filter((t, i) => i === 0 || Timestamp.Order(parsed[i - 1]!, t) !== 0)
}

/**
 * Two neighbouring instants with room for one between them, those within one second first (a
 * server that compares seconds, or milliseconds, finds them equal), picked by `n`.
 */
const pairOf = (instants: ReadonlyArray<Timestamp.Timestamp>, n: number) => {
  const pairs = instants
    .slice(1)
    .map((b, i) => [instants[i]!, b] as const)
    .filter(([a, b]) => Timestamp.toEpochNanos(b) - Timestamp.toEpochNanos(a) >= 2n)
  const close = pairs.filter(([a, b]) => a.seconds === b.seconds)
  const from = close.length > 0 ? close : pairs
  return from.length === 0 ? undefined : from[n % from.length]
}

/** The digits an item's text carries after the second. */
const digitsOf = (text: string) => /\.(\d+)/.exec(text)?.[1]?.length ?? 0

/**
 * Each time key of a List's filter ordered against values that differ from the items' times only
 * below the second or only in their spelling: every value is RFC 3339 with 0 to 9 fractional
 * digits, in `Z` or at an offset, which a parser must accept (interface.md, common convention 5;
 * decisions.md section 10 lets a server refuse only a value that is not RFC 3339), and the oracle
 * orders instants exactly.
 */
export const timesSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("filter")) return undefined
  const keys = literalsOfProperty(op, "filter", "key").filter((k) => kindOf([], k) === "time")
  if (keys.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  return readingSuite(
    op,
    ctx,
    keys.length * KINDS.length,
    (i, rows, base, seed) => {
      const key = keys[i % keys.length]!
      const kind = KINDS[Math.floor(i / keys.length) % KINDS.length]!
      const instants = instantsOf(rows.map((r) => textOf(r, key)))
      const pair = pairOf(instants, seed + i)
      if (pair === undefined) return Effect.succeed([])
      const [a, b] = pair
      const digits = DIGITS[(seed + i) % DIGITS.length]!
      let value: string | undefined
      if (kind.value === "between") {
        const middle = (Timestamp.toEpochNanos(a) + Timestamp.toEpochNanos(b)) / 2n
        const t = Timestamp.fromEpochNanos(middle)
        value = t === undefined ? undefined : written(t, digits, kind.zone)
      } else if (kind.value === "respelled") {
        // The later item's own time in another number of digits than its text carries.
        const own = digitsOf(rows.map((r) => textOf(r, key)).find((t) => sameInstant(t, b)) ?? "")
        value = written(b, own === 9 ? 0 : 9, kind.zone)
      } else if ("unit" in kind) {
        // The whole second (or millisecond, or tenth) of a time that has more, or the next one after
        // it (not a whole second), the item later or earlier than the value.
        const unit = 10 ** (9 - kind.unit)
        const t = [b, a].find(
          (x) =>
            x.nanos % unit !== 0 &&
            (kind.value === "floor" || x.nanos - (x.nanos % unit) + unit < 1e9)
        )
        if (t === undefined) return Effect.succeed([])
        const cut = t.nanos - (t.nanos % unit)
        const rounded = Timestamp.make(t.seconds, kind.value === "floor" ? cut : cut + unit)
        value = rounded === undefined ? undefined : written(rounded, kind.digits, 0)
      }
      if (value === undefined) return Effect.succeed([])
      const operator =
        "operator" in kind ? kind.operator : kind.value === "ceil" ? "lower_than" : "greater_than"
      Dimensions.sent(
        ctx.dimensions,
        op.method,
        Dimensions.valid(
          `filter.field.value (${key})`,
          "precision",
          ...("zone" in kind && kind.zone !== 0 ? (["offset"] as const) : [])
        )
      )
      const filter: Filter.Filter<string> = condition(key, operator, value)
      return judgedFilter(
        ctx,
        op,
        base,
        rows,
        filter,
        `filter ${JSON.stringify(filter)}`,
        "filter.time-instants"
      )
    },
    "times"
  )
}

const sameInstant = (text: string, t: Timestamp.Timestamp) => {
  const parsed = Timestamp.parse(text)
  return typeof parsed !== "string" && Timestamp.Order(parsed, t) === 0
}
