/** Filter conditions judged on items whose key is empty (its zero value) beside items that hold a value. */
import * as Effect from "effect/Effect"
import type { Filter } from "@data-access/schema"
import type { Context, Op, Suite } from "../../context.js"
import { textOf } from "../../filterReadings.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { judgedFilter, kindOf, readingSuite, stringFilterKeys } from "./judged.js"
import { condition } from "./telling.js"

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
export const emptyValuesSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list" || !requestPropertyNames(op).includes("filter")) return undefined
  const keys = stringFilterKeys(op)
  if (keys.length === 0 || requiredRefs(op, ctx.pools, 0) === undefined) return undefined
  return readingSuite(
    op,
    ctx,
    ZERO_VALUE_CONDITIONS.length,
    (i, rows, base, seed) => {
      // Keys that some item leaves empty and another holds a value in.
      const mixed = keys.filter(
        (k) =>
          kindOf(rows, k) === "string" &&
          rows.some((r) => textOf(r, k) === "") &&
          rows.some((r) => textOf(r, k) !== "")
      )
      if (mixed.length === 0) return Effect.succeed([])
      const key = mixed[(i + seed) % mixed.length]!
      const held = rows.filter((r) => textOf(r, key) !== "")
      const { operator, value: v } = ZERO_VALUE_CONDITIONS[i]!
      const value = v === "held" ? textOf(held[(seed + i * 7) % held.length]!, key) : v
      const filter: Filter.Filter<string> =
        value === undefined
          ? ({ field: { key, operator } } as Filter.Filter<string>)
          : condition(key, operator, value)
      return judgedFilter(
        ctx,
        op,
        base,
        rows,
        filter,
        `filter ${JSON.stringify(filter)} (items without ${key} hold "")`
      )
    },
    "empty-values"
  )
}
