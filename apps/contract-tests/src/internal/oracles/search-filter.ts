/**
 * search-filter: a List returns only the items its `search`, `filter` and parent scope select,
 * under some reading a faithful server may take.
 */
import type { ContractRules, Filter } from "@data-access/schema"
import { type Body, objectOf, type Op } from "../context.js"
import type { Exchange } from "../http.js"
import { asRecord } from "../json.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { itemsOf } from "../walk.js"
import {
  comparesTimes,
  evaluate,
  judgeable,
  readings,
  type Row,
  rowOf,
  textOf,
  UNDECIDED_KEYS
} from "./filters.js"
import { codeOf, statusOf } from "./answer.js"
import { type ExchangeOracle, onSuccess, successJson } from "./oracle.js"

/**
 * What a List request selects, as a test of one item under some allowed reading, with the rule
 * an item that fails it breaks; `undefined` when the request selects nothing it could judge.
 */
export const selection = (
  op: Op,
  sent: Body
):
  | {
      readonly rule: ContractRules.RuleId
      readonly described: string
      readonly matches: (row: Row) => boolean
    }
  | undefined => {
  const tests: Array<{
    readonly rule: ContractRules.RuleId
    readonly described: string
    readonly matches: (row: Row) => boolean
  }> = []
  if (typeof sent.search === "string" && sent.search !== "") {
    const term = sent.search.toLowerCase()
    const fields =
      Array.isArray(sent.searchFields) && sent.searchFields.length > 0
        ? sent.searchFields.filter((f): f is string => typeof f === "string")
        : ["name"]
    if (!fields.some((f) => UNDECIDED_KEYS.has(f))) {
      tests.push({
        rule: "search.match",
        described: `search ${JSON.stringify(sent.search)} in ${fields.join(", ")}`,
        matches: (row) => fields.some((f) => textOf(row, f).toLowerCase().includes(term))
      })
    }
  }
  // The parent a List names (ListSatellites' optional spaceId, ListNativeUsers' resourceId): only its items.
  const parent = op.parent
  const named = parent === undefined ? undefined : sent[parent.field]
  if (parent !== undefined && typeof named === "string" && named !== "") {
    tests.push({
      rule: parent.required ? "lists.parent-scope" : "lists.space-scope",
      described: `${parent.field} ${JSON.stringify(named)}`,
      matches: (row) => textOf(row, parent.field) === named
    })
  }
  const filter = asRecord(sent.filter) as Filter.Filter<string> | undefined
  if (filter !== undefined && judgeable(filter)) {
    tests.push({
      rule: comparesTimes(filter) ? "filter.time-instants" : "filter.match",
      described: `filter ${JSON.stringify(filter)}`,
      matches: (row) => readings.some((r) => evaluate(filter, (k) => textOf(row, k), r))
    })
  }
  return tests.length === 0
    ? undefined
    : {
        rule: tests[0]!.rule,
        described: tests.map((t) => t.described).join(" and "),
        matches: (row) => tests.every((t) => t.matches(row))
      }
}

/** What a request selects (`selection`). */
export type Selection = NonNullable<ReturnType<typeof selection>>

/** The returned items that no allowed reading of the request selects: a failure of the selection's rule. */
export const nonMatching = (
  op: Op,
  s: Selection,
  items: ReadonlyArray<Record<string, unknown>>,
  e: Exchange | undefined,
  mode = "selection"
): Outcome | undefined => {
  const wrong = items.filter((raw) => !s.matches(rowOf(op, raw))).map((x) => String(x.id))
  return wrong.length === 0
    ? undefined
    : fail(
        s.rule,
        `${mode} returns non-matching items`,
        `${s.described} returned ${wrong.length} items that do not match (e.g. ${wrong[0]})`,
        e
      )
}

const matching = onSuccess(
  "matching",
  [
    "search.match",
    "filter.match",
    "filter.time-instants",
    "lists.space-scope",
    "lists.parent-scope"
  ],
  (op, sent, e) => {
    const json = successJson(e)
    const s = op.kind === "list" && json !== undefined ? selection(op, sent) : undefined
    if (s === undefined) return []
    const wrong = nonMatching(op, s, itemsOf(op, json), e)
    return wrong === undefined ? [passes([s.rule])] : [wrong]
  }
)

/**
 * The trace of a Get by another key than `id` (`lookup`, GetEncryptionKeysByKeyId's `keyId`) with
 * the `value` of an object known to exist: the answer holds an object with it (keys.known-key-id);
 * an answer other than 200 or not_found says nothing of it. Live traffic: whether an object with
 * the value exists is not known, so the proxy does not judge this rule.
 */
export const knownKeyFound = (
  op: Op,
  lookup: string,
  value: string,
  e: Exchange
): ReadonlyArray<Outcome> => {
  const status = statusOf(e)
  if (status !== 200 && codeOf(e) !== "not_found") return []
  const items = status === 200 ? objectOf(op, successJson(e)) : undefined
  const hit = Array.isArray(items) && items.some((x) => asRecord(x)?.[lookup] === value)
  return hit
    ? [passes(["keys.known-key-id"])]
    : [
        fail(
          "keys.known-key-id",
          "a known key not found",
          `${op.method} with the ${lookup} ${JSON.stringify(value)} of an existing object answered ${status === 200 ? "no object with it" : "not_found"}`,
          e
        )
      ]
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [matching]
