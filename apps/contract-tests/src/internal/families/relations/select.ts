/** What the relations family's suites share: the reads of a List that select an object by a field's value, and walks read. */
import { type ContractRules, Filter } from "@data-access/schema"
import type { Body, Context, Op } from "../../context.js"
import * as Gen from "../../generate.js"
import { requestPropertyNames } from "../../pools.js"
import { requiredRefs } from "../../listWalk.js"
import { searchMissRule } from "../../oracles/search-filter.js"

export const condition = (key: string, value: string): Filter.Filter<string> => ({
  field: { key, operator: "equals", value: { "@type": Filter.STRING_VALUE_TYPE, value } }
})

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** A read of a List that selects by one field's value: its label, the body's extra fields and the rule a miss breaks. */
interface Probe {
  readonly label: string
  readonly body: Body
  readonly rule: ContractRules.RuleId
}

/**
 * The reads of a List that select objects by `field` = `value`, where the List has them (derived
 * from its request schema): a search in that field (or the default field, `name`), again with the
 * case swapped when the value has letters beyond ASCII, a filter `equals` on it, its parent scope.
 */
export const probesOf = (
  list: Op,
  base: Body,
  field: string,
  value: string
): ReadonlyArray<Probe> => {
  const out: Array<Probe> = []
  const props = requestPropertyNames(list)
  if (props.includes("search")) {
    // A value with letters beyond ASCII is also searched with their case swapped: search folds every case.
    const terms = Gen.hasCaseBeyondAscii(value) ? [value, Gen.swappedCase(value)] : [value]
    for (const term of terms) {
      const rule = term === value ? "search.match" : searchMissRule(term, [field])
      const swapped = term === value ? "" : ", case swapped"
      if (Gen.isValid(list, { ...base, limit: 1, search: term, searchFields: [field] }))
        out.push({
          label: `search in ${field}${swapped}`,
          body: { search: term, searchFields: [field] },
          rule
        })
      else if (field === "name" && Gen.isValid(list, { ...base, limit: 1, search: term }))
        out.push({ label: `search${swapped}`, body: { search: term }, rule })
    }
  }
  const filter = condition(snake(field), value)
  if (props.includes("filter") && Gen.isValid(list, { ...base, limit: 1, filter }))
    out.push({ label: `filter ${snake(field)} equals`, body: { filter }, rule: "filter.match" })
  if (list.parent !== undefined && list.parent.field === field && !list.parent.required)
    out.push({ label: field, body: { [field]: value }, rule: "lists.space-scope" })
  return out
}

/** A List's required references, its required parent taken from `object` when it names one. */
export const baseFor = (
  list: Op,
  ctx: Context,
  object: Record<string, unknown>
): Body | undefined => {
  const base = requiredRefs(list, ctx.pools, 0)
  if (base === undefined) return undefined
  const parent = list.parent
  if (
    parent?.required === true &&
    typeof object[parent.field] === "string" &&
    object[parent.field] !== ""
  )
    return { ...base, [parent.field]: object[parent.field] }
  return base
}
