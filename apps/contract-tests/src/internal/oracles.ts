/**
 * The oracles one exchange decides once its answer is a success: a function of the operation, the
 * request as sent (lowerCamelCase, unknown fields and `null`s included) and the exchange, apart
 * from how cases are made. The runner's families call them on the exchanges they make; the
 * conformance proxy applies every oracle of `registry` to the traffic it relays.
 */
import * as Option from "effect/Option"
import { type ContractRules, Filter, Secrets, Timestamp } from "@data-access/schema"
import type { CheckId } from "../Checks.js"
import { type Body, fullObject, objectOf, objectPropertyNames, type Op, show } from "./context.js"
import type { Exchange } from "./http.js"
import { asRecord, sameAsSent, snakeToCamel } from "./json.js"
import { fail, note, type Outcome, pass, type Verdict } from "./outcome.js"
import { requestPropertyNames } from "./pools.js"
import { compareItems, itemsOf } from "./walk.js"

/** An oracle of one exchange: the rules it judges and how. */
export interface ExchangeOracle {
  readonly name: string
  readonly check: CheckId
  readonly rules: ReadonlyArray<ContractRules.RuleId>
  /** Verdicts on a 200 answer to `sent`; none when the exchange is not its kind. */
  readonly judge: (op: Op, sent: Body, e: Exchange) => ReadonlyArray<Verdict>
}

/** The answer's JSON body when it is a 200 with one. */
const successJson = (e: Exchange): unknown => {
  const r = Option.getOrUndefined(e.response)
  return r === undefined || r.status !== 200 ? undefined : Option.getOrUndefined(r.json)
}

/** A page of a List answer: its items and `listMetadata` (`{}` when absent). */
export const pageOf = (op: Op, json: unknown) => ({ items: itemsOf(op, json), meta: asRecord(asRecord(json)?.listMetadata) ?? {} })

/**
 * One page on its own (decisions.md section 4): `count` is the number of items, at most `limit`
 * items, `after` / `before` the ids of the last / first item (`""` or absent on an empty page).
 */
export const pageRules = (
  limit: number | undefined,
  page: { readonly items: ReadonlyArray<Record<string, unknown>>; readonly meta: Record<string, unknown> },
  e: Exchange
): ReadonlyArray<Outcome> => {
  const out: Array<Outcome> = []
  const count = typeof page.meta.count === "number" ? page.meta.count : 0
  if (count !== page.items.length) out.push(fail("lists.count", "count differs from items", `listMetadata.count is ${count} but the page has ${page.items.length} items`, e, `listMetadata.count = ${count}`))
  if (limit !== undefined && page.items.length > limit) out.push(fail("lists.limit-respected", "more items than limit", `a page has ${page.items.length} items, more than limit ${limit}`, e))
  const first = page.items[0]?.id ?? ""
  const last = page.items[page.items.length - 1]?.id ?? ""
  if ((page.meta.after ?? "") !== last || (page.meta.before ?? "") !== first) {
    out.push(fail("lists.after-before", "after/before", `listMetadata.after/before are ${JSON.stringify(page.meta.after ?? "")}/${JSON.stringify(page.meta.before ?? "")}, expected the ids of the last/first item ${JSON.stringify(last)}/${JSON.stringify(first)}`, e))
  }
  return out
}

/** Items in the order `order` asks (createdAt, then id); the first pair out of order, if any. */
export const outOfOrder = (items: ReadonlyArray<Record<string, unknown>>, order: unknown): readonly [Record<string, unknown>, Record<string, unknown>] | undefined => {
  const sign = order === "desc" ? -1 : 1
  for (let i = 1; i < items.length; i++) if (sign * compareItems(items[i - 1]!, items[i]!) > 0) return [items[i - 1]!, items[i]!]
  return undefined
}

export const orderFailure = (pair: readonly [Record<string, unknown>, Record<string, unknown>], order: unknown, e: Exchange | undefined): Outcome =>
  fail("lists.order", `order ${typeof order === "string" ? order : "default"} not respected`, `items ${String(pair[0].id)} and ${String(pair[1].id)} are not in ${order === "desc" ? "desc" : "asc (default)"} order of createdAt then id`, e)

const page: ExchangeOracle = {
  name: "page",
  check: "paging",
  rules: ["lists.count", "lists.limit-respected", "lists.after-before", "lists.order"],
  judge: (op, sent, e) => {
    const json = successJson(e)
    if (op.kind !== "list" || json === undefined) return []
    const p = pageOf(op, json)
    const out = [...pageRules(typeof sent.limit === "number" ? sent.limit : undefined, p, e)]
    // A cursor's page follows the walk it came from: its order is judged across the walk (the runner), not here.
    const cursor = typeof sent.cursor === "string" && sent.cursor !== ""
    const pair = cursor ? undefined : outOfOrder(p.items, sent.order)
    if (pair !== undefined) out.push(orderFailure(pair, sent.order, e))
    return out.length === 0 ? [pass("paging")] : out
  }
}

// ---------------------------------------------------------------------------------------------
// search, filter, spaceId
// ---------------------------------------------------------------------------------------------

/** An item as the filters read it: the object as sent, and with every default filled in. */
export type Row = { readonly raw: Record<string, unknown>; readonly full: Record<string, unknown> }

export const rowOf = (op: Op, raw: Record<string, unknown>): Row => ({ raw, full: fullObject(op.object, raw) ?? raw })

/** A field's text for search and filters: strings as they are, booleans and numbers as JSON text. */
export const textOf = (row: Row, key: string): string => {
  const v = row.full[snakeToCamel(key)]
  return typeof v === "string" ? v : typeof v === "boolean" || typeof v === "number" ? String(v) : ""
}

/** One reading of the filter: the case of string operators, and whether time keys compare as instants or text. */
export interface Reading {
  readonly caseInsensitive: boolean
  readonly timeEqualsAsText: boolean
}

/** Every reading a faithful server may take (decisions.md section 10). */
export const readings: ReadonlyArray<Reading> = [
  { caseInsensitive: false, timeEqualsAsText: false },
  { caseInsensitive: true, timeEqualsAsText: false },
  { caseInsensitive: false, timeEqualsAsText: true },
  { caseInsensitive: true, timeEqualsAsText: true }
]

const instant = (s: string) => {
  const t = Timestamp.parse(s)
  return t instanceof Timestamp.Timestamp ? t : undefined
}

/** A filter evaluated under one reading (decisions.md section 3). */
export const evaluate = (filter: Filter.Filter<string>, get: (key: string) => string, reading: Reading): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined) {
    const results = filter.group.filters.map((f) => evaluate(f, get, reading))
    return filter.group.operator === "and" ? results.every(Boolean) : results.some(Boolean)
  }
  const { key, operator } = filter.field!
  const raw = get(key)
  const rawExpected = filter.field!.value?.value ?? ""
  const fold = (s: string) => (reading.caseInsensitive ? s.toLowerCase() : s)
  const actual = fold(raw)
  const expected = fold(rawExpected)
  const time = /_at$/.test(key) ? [instant(raw), instant(rawExpected)] : undefined
  const compare = (): number => {
    if (time !== undefined && time[0] !== undefined && time[1] !== undefined) return Timestamp.Order(time[0], time[1])
    return actual < expected ? -1 : actual > expected ? 1 : 0
  }
  const equal = () => (time !== undefined && !reading.timeEqualsAsText && time[0] && time[1] ? Timestamp.Order(time[0], time[1]) === 0 : actual === expected)
  switch (operator) {
    case "equals":
      return equal()
    case "not_equals":
      return !equal()
    case "contains":
      return actual.includes(expected)
    case "not_contains":
      return !actual.includes(expected)
    case "empty":
      return raw === ""
    case "not_empty":
      return raw !== ""
    case "starts_with":
      return actual.startsWith(expected)
    case "ends_with":
      return actual.endsWith(expected)
    case "lower_than":
      return compare() < 0
    case "greater_than":
      return compare() > 0
  }
}

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
const judgeable = (filter: Filter.Filter<string>): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined) return filter.group.filters.every(judgeable)
  const field = filter.field
  if (field === undefined || UNDECIDED_KEYS.has(field.key)) return false
  if (!/_at$/.test(field.key)) return true
  if (!OPERATORS.time.includes(field.operator)) return false
  return Filter.valueless.has(field.operator) || instant(field.value?.value ?? "") !== undefined
}

/**
 * What a List request selects, as a test of one item under some allowed reading, with the rule
 * an item that fails it breaks; `undefined` when the request selects nothing it could judge.
 */
export const selection = (sent: Body): { readonly rule: ContractRules.RuleId; readonly described: string; readonly matches: (row: Row) => boolean } | undefined => {
  const tests: Array<{ readonly rule: ContractRules.RuleId; readonly described: string; readonly matches: (row: Row) => boolean }> = []
  if (typeof sent.search === "string" && sent.search !== "") {
    const term = sent.search.toLowerCase()
    const fields = Array.isArray(sent.searchFields) && sent.searchFields.length > 0 ? sent.searchFields.filter((f): f is string => typeof f === "string") : ["name"]
    if (!fields.some((f) => UNDECIDED_KEYS.has(f))) {
      tests.push({ rule: "search.match", described: `search ${JSON.stringify(sent.search)} in ${fields.join(", ")}`, matches: (row) => fields.some((f) => textOf(row, f).toLowerCase().includes(term)) })
    }
  }
  if (typeof sent.spaceId === "string" && sent.spaceId !== "") {
    const spaceId = sent.spaceId
    tests.push({ rule: "lists.space-scope", described: `spaceId ${JSON.stringify(spaceId)}`, matches: (row) => textOf(row, "space_id") === spaceId })
  }
  const filter = asRecord(sent.filter) as Filter.Filter<string> | undefined
  if (filter !== undefined && judgeable(filter)) {
    tests.push({ rule: "filter.match", described: `filter ${JSON.stringify(filter)}`, matches: (row) => readings.some((r) => evaluate(filter, (k) => textOf(row, k), r)) })
  }
  return tests.length === 0 ? undefined : { rule: tests[0]!.rule, described: tests.map((t) => t.described).join(" and "), matches: (row) => tests.every((t) => t.matches(row)) }
}

/** What a request selects (`selection`). */
export type Selection = NonNullable<ReturnType<typeof selection>>

/** The returned items that no allowed reading of the request selects: a failure of the selection's rule. */
export const nonMatching = (op: Op, s: Selection, items: ReadonlyArray<Record<string, unknown>>, e: Exchange | undefined, mode = "selection"): Outcome | undefined => {
  const wrong = items.filter((raw) => !s.matches(rowOf(op, raw))).map((x) => String(x.id))
  return wrong.length === 0 ? undefined : fail(s.rule, `${mode} returns non-matching items`, `${s.described} returned ${wrong.length} items that do not match (e.g. ${wrong[0]})`, e)
}

const matching: ExchangeOracle = {
  name: "matching",
  check: "search-filter",
  rules: ["search.match", "filter.match", "lists.space-scope"],
  judge: (op, sent, e) => {
    const json = successJson(e)
    const s = op.kind === "list" && json !== undefined ? selection(sent) : undefined
    if (s === undefined) return []
    const wrong = nonMatching(op, s, itemsOf(op, json), e)
    return wrong === undefined ? [pass("search-filter")] : [wrong]
  }
}

/** create-echo: sent fields read back unchanged, the linked group named; a secret returned is a note. */
export const createEcho = (op: Op, sent: Body, e: Exchange): ReadonlyArray<Verdict> => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return []
  const raw = objectOf(op, r.json.value)
  const full = fullObject(op.object, raw)
  if (full === undefined) return []
  const props = objectPropertyNames(op)
  const known = new Set(requestPropertyNames(op))
  const rawObj = asRecord(raw) ?? {}
  const out: Array<Verdict> = []
  // Secrets: returning one is a server's choice (decisions.md section 10), reported as a note.
  const echoed: Array<string> = []
  const findEchoes = (s: unknown, got: unknown, path: string): void => {
    const so = asRecord(s)
    const go = asRecord(got)
    if (so === undefined || go === undefined) return
    for (const [k, v] of Object.entries(so)) {
      const at = path ? `${path}.${k}` : k
      if (Secrets.fieldNames.has(k) && typeof v === "string" && v !== "" && go[k] === v) echoed.push(at)
      else findEchoes(v, go[k], at)
    }
  }
  findEchoes(sent, rawObj, "")
  if (echoed.length > 0) out.push(note("secret-returned", `the response returns the secret sent in ${echoed.join(", ")} (value not shown)`, e))
  for (const [k, v] of Object.entries(sent)) {
    if (!known.has(k) || v === null || v === undefined || Secrets.fieldNames.has(k)) continue
    if (props.has(k)) {
      if (!sameAsSent(v, full[k], (key) => Secrets.fieldNames.has(key))) {
        return [...out, fail("echo.create", `${k} differs`, `sent ${k} ${show(v)}, the created object has ${show(full[k])}`, e, `${k} = ${show(full[k])}`)]
      }
      continue
    }
    const m = /^(.+)Id$/.exec(k)
    if (m !== null && props.has(m[1]!) && asRecord(rawObj[m[1]!]) !== undefined) {
      const got = asRecord(rawObj[m[1]!])!.id
      if (got !== v) {
        return [...out, fail("echo.create", `${k} differs`, `sent ${k} ${show(v)}, the created object's ${m[1]}.id is ${JSON.stringify(got)}`, e, `${m[1]}.id = ${JSON.stringify(got)}`)]
      }
    }
  }
  // The linked identity: a `group` link names its group (decisions.md section 6).
  if (sent.identityType === "group" && typeof sent.identityId === "string" && props.has("group")) {
    const group = asRecord(rawObj.group)
    if (group?.id !== sent.identityId) {
      return [...out, fail("echo.identity-group", "linked group not returned", `a link to group ${JSON.stringify(sent.identityId)} came back with group ${show(rawObj.group)}`, e, `group = ${show(rawObj.group)}`)]
    }
  }
  return [...out, pass("create-echo")]
}

const echo: ExchangeOracle = {
  name: "create-echo",
  check: "create-echo",
  rules: ["echo.create", "echo.identity-group"],
  judge: (op, sent, e) => (op.kind === "create" ? createEcho(op, sent, e) : [])
}

/** Every oracle one exchange decides: the proxy applies them all. */
export const registry: ReadonlyArray<ExchangeOracle> = [page, matching, echo]

/** The rules the registry's oracles judge. */
export const registryRules: ReadonlyArray<ContractRules.RuleId> = registry.flatMap((o) => o.rules)
