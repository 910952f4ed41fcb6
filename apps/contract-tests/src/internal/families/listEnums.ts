/**
 * Values of one List's request enums sent to another List whose enum lacks them: the
 * `searchFields` entries and the filter keys differ between the Lists (ListIntegrationsMDM's
 * `searchFields` allows `type`, ListSatellites' does not; `satellite_type` is a key of
 * ListSatellites only). Each is refused with invalid_argument (decisions.md section 2: "enum
 * value"; section 3: "An unknown key or operator is invalid_argument"); a server that shares one
 * enum between the Lists accepts them. The values come from the request schemas.
 */
import * as Effect from "effect/Effect"
import { type ContractRules, Filter, Operations } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Body, type Context, type Family, type Op, send, type Suite } from "../context.js"
import { post } from "../http.js"
import * as Inspect from "../inspect.js"
import { madeValid, refusalVerdict } from "../refusalVerdict.js"
import type { Outcome } from "../outcome.js"
import { requestPropertyNames } from "../pools.js"
import { requiredRefs } from "../listWalk.js"
import { literalsOfProperty } from "./shared/literals.js"

const CHECKS: ReadonlyArray<CheckId> = ["no-server-errors", "invalid-rejected"]

const lists = (Operations.all as ReadonlyArray<Op>).filter((o) => o.kind === "list")

/** The enums of a List's request that another List has too: the `searchFields` entries and the filter keys, with the rule a value outside them breaks. */
const ENUMS: ReadonlyArray<{
  readonly field: string
  readonly values: (op: Op) => ReadonlyArray<string>
  readonly rule: ContractRules.RuleId
}> = [
  {
    field: "searchFields",
    values: (op) => literalsOfProperty(op, "searchFields", "searchFields"),
    rule: "fields.enum"
  },
  {
    field: "filter",
    values: (op) => literalsOfProperty(op, "filter", "key"),
    rule: "filter.unknown-key"
  }
]

interface Case {
  readonly rule: ContractRules.RuleId
  readonly label: string
  readonly body: Body
}

/** Each value another List's enum allows and this List's does not, in a request that is valid but for it. */
export const foreignValues = (op: Op, base: Body): ReadonlyArray<Case> => {
  const props = requestPropertyNames(op)
  return ENUMS.flatMap(({ field, rule, values }) => {
    if (!props.includes(field)) return []
    const own = new Set(values(op))
    const others = [
      ...new Set(
        lists
          .filter((o) => o !== op && requestPropertyNames(o).includes(field))
          .flatMap((o) => values(o))
      )
    ].filter((v) => !own.has(v))
    return others.map((v): Case =>
      field === "searchFields"
        ? {
            rule,
            label: `searchFields: ${JSON.stringify(v)} (another List's value)`,
            body: { ...base, limit: 10, search: "a", searchFields: [v] }
          }
        : {
            rule,
            label: `filter key ${JSON.stringify(v)} (another List's key)`,
            body: {
              ...base,
              limit: 10,
              filter: {
                field: {
                  key: v,
                  operator: "equals",
                  value: { "@type": Filter.STRING_VALUE_TYPE, value: "a" }
                }
              }
            }
          }
    )
  })
}

const listEnumsSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  const base = requiredRefs(op, ctx.pools, 0)
  if (base === undefined) return undefined
  const cases = foreignValues(op, base)
  if (cases.length === 0) return undefined
  return {
    family: "list-enums",
    method: op.method,
    checks: CHECKS,
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: Case) =>
      Effect.map(send(ctx, post(op.path, c.body)), (e): ReadonlyArray<Outcome> => {
        const status = Inspect.statusOf(e)
        // A rate limit or an overload may answer any request first: no answer to the request's fault.
        if (status === undefined || Inspect.answeredFirst(e)) return []
        if (status >= 500) return [Inspect.noServerErrors(e)]
        const verdict = refusalVerdict(e, [{ rule: c.rule, cause: c.label }], madeValid)
        return verdict === undefined ? [] : [verdict]
      })
  }
}

export const listEnums: Family = {
  name: "list-enums",
  checks: CHECKS,
  suites: (op, ctx) => [listEnumsSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
