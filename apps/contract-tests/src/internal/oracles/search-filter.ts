/**
 * search-filter: a List returns only the items its `search`, `filter` and parent scope select,
 * under some reading a faithful server may take.
 */
import * as Option from "effect/Option"
import type { ContractRules, Filter } from "@data-access/schema"
import { type Body, objectOf, type Op } from "../context.js"
import type { Exchange } from "../http.js"
import { asRecord, snakeToCamel } from "../json.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import { has, itemsOf, lastOf, type Walk } from "../listWalk.js"
import {
  comparesTimes,
  conditionsOf,
  everyReadingSelects,
  judgeable,
  type Row,
  rowOf,
  someReadingSelects,
  textOf,
  UNDECIDED_KEYS
} from "../filterReadings.js"
import { answerExcerpt, answeredFirst, codeOf, slowNotHung, statusOf } from "../answerReading.js"
import { asciiLower } from "../unicodeText.js"
import { type ExchangeOracle, onSuccess, successJson } from "../exchangeOracle.js"

/**
 * One part of what a List request selects (its search, its parent, its filter): the rule an item
 * it returns but does not select breaks (`rule`, tested by `matches` under some allowed reading),
 * the rule an item it certainly selects but leaves out breaks (`missRule`, tested by `certain`
 * under every allowed reading), and the fields of an item both read (`reads`, lowerCamelCase).
 */
interface Part {
  readonly rule: ContractRules.RuleId
  readonly missRule: ContractRules.RuleId
  readonly described: string
  readonly matches: (row: Row) => boolean
  readonly certain: (row: Row) => boolean
  readonly reads: ReadonlyArray<string>
}

/** Whether a filter holds an `or` group of several filters at any depth (filter.group-operator). */
const orOfSeveral = (filter: Filter.Filter<string>): boolean =>
  "group" in filter &&
  filter.group !== undefined &&
  ((filter.group.operator === "or" && filter.group.filters.length > 1) ||
    filter.group.filters.some(orOfSeveral))

/**
 * The parts of what a List request selects, and whether they are all of it (`whole`: no search
 * over a field whose values are undecided, no filter the readings do not decide).
 */
const partsOf = (
  op: Op,
  sent: Body
): { readonly parts: ReadonlyArray<Part>; readonly whole: boolean } => {
  const parts: Array<Part> = []
  let whole = true
  if (typeof sent.search === "string" && sent.search !== "") {
    const search = sent.search
    const term = search.toLowerCase()
    const fields =
      Array.isArray(sent.searchFields) && sent.searchFields.length > 0
        ? sent.searchFields.filter((f): f is string => typeof f === "string")
        : ["name"]
    // A term of ASCII only is found the same under every case folding (decisions.md section 3).
    const ascii = /^[\x20-\x7e]+$/.test(search) ? asciiLower(search) : undefined
    if (fields.some((f) => UNDECIDED_KEYS.has(f))) whole = false
    else
      parts.push({
        rule: "search.match",
        missRule: searchMissRule(search, fields),
        described: `search ${JSON.stringify(search)} in ${fields.join(", ")}`,
        matches: (row) => fields.some((f) => textOf(row, f).toLowerCase().includes(term)),
        certain: (row) =>
          ascii !== undefined &&
          fields.some((f) => {
            const v = row.full[snakeToCamel(f)]
            return typeof v === "string" && asciiLower(v).includes(ascii)
          }),
        reads: fields.map(snakeToCamel)
      })
  }
  // The parent a List names (ListSatellites' optional spaceId, ListNativeUsers' resourceId): only its items.
  const parent = op.parent
  const named = parent === undefined ? undefined : sent[parent.field]
  if (parent !== undefined && typeof named === "string" && named !== "") {
    const rule = parent.required ? "lists.parent-scope" : "lists.space-scope"
    const matches = (row: Row) => textOf(row, parent.field) === named
    parts.push({
      rule,
      missRule: rule,
      described: `${parent.field} ${JSON.stringify(named)}`,
      matches,
      certain: matches,
      reads: [parent.field]
    })
  }
  const filter = asRecord(sent.filter) as Filter.Filter<string> | undefined
  if (filter !== undefined && judgeable(filter)) {
    const rule = comparesTimes(filter) ? "filter.time-instants" : "filter.match"
    parts.push({
      rule,
      missRule: filterRule(filter, orOfSeveral(filter)),
      described: `filter ${JSON.stringify(filter)}`,
      matches: (row) => someReadingSelects(filter, row),
      certain: (row) => everyReadingSelects(filter, row),
      reads: [...new Set(conditionsOf(filter).map((c) => c.key))].map(snakeToCamel)
    })
  } else if (sent.filter !== undefined && sent.filter !== null) whole = false
  return { parts, whole }
}

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
  const { parts } = partsOf(op, sent)
  return parts.length === 0
    ? undefined
    : {
        rule: parts[0]!.rule,
        described: parts.map((t) => t.described).join(" and "),
        matches: (row) => parts.every((t) => t.matches(row))
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

/** Whether a List request (`sent`, decoded) selects anything but every item: a search, a filter or a parent. */
export const selects = (op: Op, sent: Body): boolean => {
  const { parts, whole } = partsOf(op, sent)
  return parts.length > 0 || !whole
}

/**
 * What a List request (`sent`, decoded) certainly selects: the items every allowed reading of each
 * of its parts selects (`certain`, reading the fields `reads` only), and the rule a walk that
 * leaves one out breaks, its first part's; `undefined` when it selects every item (`selects`) or
 * a part of it is not read so (`partsOf`'s `whole`).
 */
export const certainSelection = (
  op: Op,
  sent: Body
):
  | {
      readonly rule: ContractRules.RuleId
      readonly described: string
      readonly certain: (row: Row) => boolean
      readonly reads: ReadonlyArray<string>
    }
  | undefined => {
  const { parts, whole } = partsOf(op, sent)
  if (!whole || parts.length === 0) return undefined
  return {
    rule: parts[0]!.missRule,
    described: parts.map((t) => t.described).join(" and "),
    certain: (row) => parts.every((t) => t.certain(row)),
    reads: parts.flatMap((t) => t.reads)
  }
}

/**
 * A List walked to its last page (`sent`: its request decoded, `returned`: the ids of every page)
 * against the objects the run created and knows (`known`: each as the model of the run last saw
 * it, created before the walk's first request, none written while it ran): each one its request
 * selects under every allowed reading (`certainSelection`), judged on fields the object shows
 * with a scalar value that no request sets on its own (`free` aside), is among them, or the walk
 * breaks the rule of what selects it (`undefined`: no known object is certainly selected; a walk
 * that selects every item is create-echo's `createdListed`). Live traffic: the proxy and the HAR
 * judge keep the same model of the objects created through them.
 */
export const knownSelected = (
  op: Op,
  sent: Body,
  returned: ReadonlySet<string>,
  known: ReadonlyArray<Record<string, unknown>>,
  free: ReadonlySet<string>,
  e: Exchange
): Outcome | undefined => {
  const s = certainSelection(op, sent)
  if (s === undefined) return undefined
  const scalar = (o: Record<string, unknown>, k: string) =>
    !free.has(k) && ["string", "boolean", "number"].includes(typeof o[k])
  const missing: Array<string> = []
  let judged = 0
  for (const o of known) {
    if (!s.reads.every((k) => scalar(o, k)) || !s.certain({ raw: o, full: o })) continue
    judged++
    if (!returned.has(String(o.id))) missing.push(String(o.id))
  }
  if (judged === 0) return undefined
  return missing.length === 0
    ? passes([s.rule])
    : fail(
        s.rule,
        `${op.method} walk misses created objects it selects`,
        `${s.described}, every page walked, left out ${missing.length} of the ${judged} objects the run created before it that it selects under every reading (e.g. ${missing[0]})`,
        e
      )
}

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

/**
 * The rule a search that leaves out an item holding its term breaks: search.case-insensitive when
 * the term has a capital, search.fields when the first field searched is not `name`, else
 * search.match. Live traffic: the proxy judges a missing item only among the objects created
 * through it (`knownSelected`).
 */
export const searchMissRule = (
  term: string,
  fields: ReadonlyArray<string>
): ContractRules.RuleId =>
  term !== term.toLowerCase()
    ? "search.case-insensitive"
    : fields[0] !== "name"
      ? "search.fields"
      : "search.match"

/**
 * The rule a filter's wrong or missing item breaks: filter.group-operator for an `or` group of
 * several conditions, filter.time-instants for one that compares times, else filter.match. Live
 * traffic: the proxy judges returned items by `selection`, whose rules are these.
 */
export const filterRule = (
  filter: Filter.Filter<string>,
  orOfSeveral: boolean
): ContractRules.RuleId =>
  orOfSeveral
    ? "filter.group-operator"
    : comparesTimes(filter)
      ? "filter.time-instants"
      : "filter.match"

/**
 * A walk of a read that selects (`mode` naming it) returns only items its selection selects
 * (`nonMatching`); a walk that failed or did not end tells nothing. Live traffic: the proxy judges
 * every item returned the same way (`filterResults`).
 */
export const selectsOnly = (op: Op, body: Body, w: Walk, mode: string): Outcome | undefined => {
  if (w.error !== undefined || !w.ended) return undefined
  const s = selection(op, body)
  return s === undefined ? undefined : nonMatching(op, s, w.items, lastOf(w), mode)
}

/**
 * A walk of a read that selects nothing (a search or a filter no item matches, a parent with no
 * items): any item it returns is one its selection leaves out (`nonMatching`, `mode` naming the
 * read). Live traffic: the proxy judges every item returned the same way (`filterResults`).
 */
export const selectsNothing = (
  op: Op,
  body: Body,
  w: Walk,
  mode: string
): ReadonlyArray<Outcome> => {
  const s = selection(op, body)
  if (s === undefined) return []
  const wrong = nonMatching(op, s, w.items, lastOf(w), mode)
  return [wrong ?? passes([s.rule])]
}

/**
 * A read of a List that selects an object just created by its name (`label` its kind: a search,
 * a filter, a parent scope; `rule` the rule a miss breaks): it returns the object and nothing it
 * does not select. A walk that failed or did not end tells nothing. Live traffic: the proxy does
 * not know which object was just created, so it judges only the items returned (`filterResults`).
 */
export const selectsCreated = (t: {
  readonly list: Op
  readonly label: string
  readonly rule: ContractRules.RuleId
  readonly body: Body
  readonly name: string
  readonly id: string
  readonly walk: Walk
}): ReadonlyArray<Outcome> => {
  const w = t.walk
  if (w.error !== undefined || !w.ended) return []
  const out: Array<Outcome> = []
  if (!has(w, t.id))
    out.push(
      fail(
        t.rule,
        `${t.label} misses a created object`,
        `${t.label} ${JSON.stringify(t.name)} (the name of the object just created) does not return it (${t.id})`,
        lastOf(w)
      )
    )
  const s = selection(t.list, t.body)
  const wrong = s === undefined ? undefined : nonMatching(t.list, s, w.items, lastOf(w), t.label)
  if (wrong !== undefined) out.push(wrong)
  return out.length === 0 ? [passes([t.rule])] : out
}

/** The ids of the items read before (`rows`) certain to match that a walk of the request left out; none when the walk failed or did not end. */
export const missingItems = (
  rows: ReadonlyArray<Row>,
  certain: (row: Row) => boolean,
  w: Walk
): ReadonlyArray<string> => {
  if (w.error !== undefined || !w.ended) return []
  const got = new Set(w.items.map((x) => String(x.id)))
  return rows
    .filter(certain)
    .map((r) => String(r.raw.id))
    .filter((id) => !got.has(id))
}

/**
 * The trace of a List request that selects (a search or a filter): the items read before certain
 * to match that the walk of the request left out (`missing`, `missingItems`), the walk, and, when
 * it left some out, everything and the request walked again (`again`). Returned items are judged
 * by their own content (some reading selects them, `nonMatching`: `rule`); a matching item counts
 * as missing (`missRule`)
 * only when it still matches in the second read of everything and the request leaves it out
 * again (objects may change while the reads run). Live traffic: the proxy sees pages, not
 * everything a List holds, so it judges the items returned (`filterResults`), and a missing one
 * only among the objects created through it (`knownSelected`).
 */
export const selectionVerdict = (t: {
  readonly op: Op
  readonly body: Body
  readonly missing: ReadonlyArray<string>
  readonly certain: (row: Row) => boolean
  readonly described: string
  readonly rule: ContractRules.RuleId
  readonly missRule: ContractRules.RuleId
  readonly mode: string
  readonly walk: Walk
  readonly again: { readonly everything: Walk; readonly request: Walk } | undefined
}): ReadonlyArray<Outcome> => {
  const w = t.walk
  const lastExchange = w.pages[w.pages.length - 1]?.exchange ?? w.error
  if (w.error !== undefined) {
    // A rate limit or an overload may answer any request first, and a slow target may not answer
    // within the timeout: neither is a refusal of the request.
    if (answeredFirst(w.error) || slowNotHung(w.error)) return []
    const code = codeOf(w.error) ?? `HTTP ${statusOf(w.error) ?? "none"}`
    return [
      fail(
        t.rule,
        `${t.mode} rejected with ${code}`,
        `${t.described} was rejected with ${code}`,
        w.error
      )
    ]
  }
  // Every page read is judged by its items, whether or not the walk ended.
  const selected = selection(t.op, t.body)
  const wrong =
    selected === undefined ? undefined : nonMatching(t.op, selected, w.items, lastExchange, t.mode)
  if (!w.ended) return wrong === undefined ? [] : [wrong]
  let missing = t.missing
  const again = t.again
  if (
    missing.length > 0 &&
    again !== undefined &&
    again.everything.error === undefined &&
    again.everything.ended &&
    again.request.error === undefined &&
    again.request.ended
  ) {
    const still = new Set(
      again.everything.items
        .map((raw) => rowOf(t.op, raw))
        .filter(t.certain)
        .map((r) => String(r.raw.id))
    )
    const gotAgain = new Set(again.request.items.map((x) => String(x.id)))
    missing = missing.filter((id) => still.has(id) && !gotAgain.has(id))
  }
  const out: Array<Outcome> = []
  if (wrong !== undefined) out.push(wrong)
  if (missing.length > 0)
    out.push(
      fail(
        t.missRule,
        `${t.mode} misses matching items`,
        `${t.described} left out ${missing.length} matching items (e.g. ${missing[0]})`,
        lastExchange
      )
    )
  return out.length === 0 ? [passes([...new Set([t.rule, t.missRule])])] : out
}

/**
 * lists.parent-scope, keys.by-key-id: a read whose parent id names nothing (`what`; `rule`, the
 * rule of its kind) answered 200 returns no items (decisions.md section 10: not_found or an empty
 * answer). Live traffic: the proxy does not know the id names nothing, so it does not judge this.
 */
export const parentNamesNothing = (
  op: Op,
  e: Exchange,
  what: string,
  rule: ContractRules.RuleId
): Outcome | undefined => {
  if (statusOf(e) !== 200 || answeredFirst(e)) return undefined
  const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
  const found =
    op.kind === "list"
      ? itemsOf(op, json).length
      : ((x) => (Array.isArray(x) ? x.length : 0))(objectOf(op, json))
  return found === 0
    ? pass("search-filter", [rule])
    : fail(
        rule,
        `${what}: items returned`,
        `${what} returned ${found} items; a server answers not_found or an empty answer`,
        e,
        answerExcerpt(e)
      )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [matching]
