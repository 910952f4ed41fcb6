/**
 * The oracles one exchange decides: each a function of the operation, the request as sent and its
 * answer, apart from how cases are made. The runner's families call them on the exchanges they
 * make; the conformance proxy applies every oracle of `registry` to the traffic it relays, so the
 * rules the proxy judges are `registryRules`, derived, never listed by hand.
 */
import * as Option from "effect/Option"
import type * as AST from "effect/SchemaAST"
import { ContractRules, Filter, JsonBody, Secrets, Timestamp } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Body, fullObject, objectOf, objectPropertyNames, type Op, show } from "./context.js"
import { type Exchange, requestBytesOf } from "./http.js"
import * as Inspect from "./inspect.js"
import { asRecord, canonical, isZero, sameAsSent, snakeToCamel } from "./json.js"
import { fail, note, type Outcome, pass, type Verdict } from "./outcome.js"
import { referenceOf, requestPropertyNames } from "./pools.js"
import * as Shape from "./requestShape.js"
import { encodedFields } from "./schemas.js"
import { compareCreated, compareIds, itemsOf } from "./walk.js"

/** A request rule a request breaks: the rule, a cause without values, a message. */
export interface Breach {
  readonly rule: ContractRules.RuleId
  readonly cause: string
  readonly message: string
  /** A form only a lenient server accepts: the row of decisions.md section 10 it relies on. */
  readonly latitude?: ContractRules.LatitudeName | undefined
}

/** One exchange as the oracles read it. */
export interface View {
  /** The operation its path names, `undefined` for an unknown route. */
  readonly op: Op | undefined
  readonly exchange: Exchange
  /** The request body as sent, when it is a JSON object (keys as sent). */
  readonly body: Body | undefined
  /**
   * The request in its canonical encoding (lowerCamelCase, int64 as strings, timestamps in `Z`)
   * when it decodes and breaks no must; `undefined` otherwise.
   */
  readonly sent: Body | undefined
  /** What the request breaks: musts, and forms only a lenient server accepts (`latitude` set). */
  readonly breaches: ReadonlyArray<Breach>
  /** The request's headers (names lower case), the key left out. */
  readonly headers: Readonly<Record<string, string>>
  /** Whether an `X-API-KEY` header with a value came. */
  readonly keyPresent: boolean
  /** The `X-API-KEY` the request sent (a wrong one included), to look for in error answers. */
  readonly apiKey: string | undefined
  /** Whether the request uses a form a server may leave unimplemented (compression, Connect GET). */
  readonly optionalForm: boolean
  /** Whether the answer was read to its end (a relayed answer over the checking limit is not). */
  readonly complete: boolean
  readonly skewMillis: number
}

/** An oracle of one exchange: the rules it judges and how. */
export interface ExchangeOracle {
  readonly name: string
  readonly check: CheckId
  readonly rules: ReadonlyArray<ContractRules.RuleId>
  /** Verdicts on one exchange; none when the exchange is not its kind. */
  readonly judge: (view: View) => ReadonlyArray<Verdict>
}

/** A success oracle: judges a 200 answer to a request that breaks no must. */
const onSuccess = (
  name: string,
  check: CheckId,
  rules: ReadonlyArray<ContractRules.RuleId>,
  judge: (op: Op, sent: Body, e: Exchange) => ReadonlyArray<Verdict>
): ExchangeOracle => ({
  name,
  check,
  rules,
  judge: (v) =>
    v.op !== undefined && v.sent !== undefined && v.complete && Inspect.statusOf(v.exchange) === 200
      ? judge(v.op, v.sent, v.exchange)
      : []
})

const defined = (...xs: ReadonlyArray<Outcome | undefined>): ReadonlyArray<Outcome> =>
  xs.filter((o): o is Outcome => o !== undefined)

/** The answer's JSON body when it is a 200 with one. */
const successJson = (e: Exchange): unknown => {
  const r = Option.getOrUndefined(e.response)
  return r === undefined || r.status !== 200 ? undefined : Option.getOrUndefined(r.json)
}

/** A page of a List answer: its items and `listMetadata` (`{}` when absent). */
export const pageOf = (op: Op, json: unknown) => ({
  items: itemsOf(op, json),
  meta: asRecord(asRecord(json)?.listMetadata) ?? {}
})

/**
 * One page on its own (decisions.md section 4): `count` is the number of items, at most `limit`
 * items, `after` / `before` the ids of the last / first item (`""` or absent on an empty page).
 */
export const pageRules = (
  limit: number | undefined,
  page: {
    readonly items: ReadonlyArray<Record<string, unknown>>
    readonly meta: Record<string, unknown>
  },
  e: Exchange
): ReadonlyArray<Outcome> => {
  const out: Array<Outcome> = []
  const count = typeof page.meta.count === "number" ? page.meta.count : 0
  if (count !== page.items.length)
    out.push(
      fail(
        "lists.count",
        "count differs from items",
        `listMetadata.count is ${count} but the page has ${page.items.length} items`,
        e,
        `listMetadata.count = ${count}`
      )
    )
  if (limit !== undefined && page.items.length > limit)
    out.push(
      fail(
        "lists.limit-respected",
        "more items than limit",
        `a page has ${page.items.length} items, more than limit ${limit}`,
        e
      )
    )
  const first = page.items[0]?.id ?? ""
  const last = page.items[page.items.length - 1]?.id ?? ""
  if ((page.meta.after ?? "") !== last || (page.meta.before ?? "") !== first) {
    out.push(
      fail(
        "lists.after-before",
        "after/before",
        `listMetadata.after/before are ${JSON.stringify(page.meta.after ?? "")}/${JSON.stringify(page.meta.before ?? "")}, expected the ids of the last/first item ${JSON.stringify(last)}/${JSON.stringify(first)}`,
        e
      )
    )
  }
  return out
}

/**
 * `nextCursor` across the pages of a walk (decisions.md section 3: "Set when more items follow;
 * empty or absent on the last page"): a page whose cursor leads to an empty page breaks it, unless
 * the page is full and that empty page ends the walk: a server that fills a page cannot always
 * know that nothing follows, and the empty page can be read as the last one.
 */
export const cursorRules = (
  limit: number | undefined,
  pages: ReadonlyArray<{
    readonly items: ReadonlyArray<unknown>
    readonly meta: Record<string, unknown>
    readonly exchange: Exchange
  }>
): ReadonlyArray<Outcome> => {
  const hasCursor = (meta: Record<string, unknown>) =>
    typeof meta.nextCursor === "string" && meta.nextCursor !== ""
  // A page size of the server's own below `limit` (no must says a page holds `limit` items while
  // more follow), as the walk shows it: the largest page that more items followed.
  const served = Math.max(
    0,
    ...pages.flatMap((p, i) => ((pages[i + 1]?.items.length ?? 0) > 0 ? [p.items.length] : []))
  )
  const out: Array<Outcome> = []
  pages.forEach((p, i) => {
    const next = pages[i + 1]
    if (next === undefined || next.items.length > 0 || !hasCursor(p.meta)) return
    const full =
      limit !== undefined &&
      p.items.length > 0 &&
      (p.items.length === limit || (served > 0 && p.items.length >= served))
    if (full && !hasCursor(next.meta)) return
    const what = p.items.length === 0 ? "an empty page" : full ? "a full page" : "a page"
    out.push(
      fail(
        p.items.length === 0 ? "lists.empty-page" : "lists.next-cursor",
        `nextCursor on ${p.items.length === 0 ? "an empty" : "the last"} page`,
        `${what} carries nextCursor, but no items follow (the next page is empty${hasCursor(next.meta) ? " and carries a cursor again" : ""})`,
        next.exchange
      )
    )
  })
  return out
}

/**
 * Whether a List's order is observable: its items carry `createdAt` (decisions.md section 3: "by
 * `createdAt`, ties by `id`"). Items without it (saved log queries) come in an order the server
 * keeps to itself, and ids are opaque (section 5: "Readers must not parse them"), so ids alone
 * never judge an order.
 */
export const orderObservable = (op: Op): boolean =>
  op.kind === "list" && objectPropertyNames(op).has("createdAt")

/**
 * Items of a List in the order `order` asks (createdAt, then id); the first pair out of order, if
 * any. Never a pair for a List whose order is not observable (`orderObservable`): every caller
 * judges the order through this one function.
 */
export const outOfOrder = (
  op: Op,
  items: ReadonlyArray<Record<string, unknown>>,
  order: unknown
): readonly [Record<string, unknown>, Record<string, unknown>] | undefined => {
  if (!orderObservable(op)) return undefined
  const sign = order === "desc" ? -1 : 1
  // Under `desc` the documents do not say which way ties by `id` go: either, the same way throughout.
  let ties: number | undefined = order === "desc" ? undefined : -1
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!
    const b = items[i]!
    const byCreated = sign * compareCreated(a, b)
    if (byCreated > 0) return [a, b]
    if (byCreated < 0) continue
    const byId = compareIds(a, b)
    if (byId === 0) continue
    ties ??= byId
    if (byId !== ties) return [a, b]
  }
  return undefined
}

export const orderFailure = (
  pair: readonly [Record<string, unknown>, Record<string, unknown>],
  order: unknown,
  e: Exchange | undefined
): Outcome =>
  fail(
    "lists.order",
    `order ${typeof order === "string" ? order : "default"} not respected`,
    `items ${String(pair[0].id)} and ${String(pair[1].id)} are not in ${order === "desc" ? "desc order of createdAt, ties by id one way throughout" : "asc (default) order of createdAt then id"}`,
    e
  )

const page = onSuccess(
  "page",
  "paging",
  ["lists.count", "lists.limit-respected", "lists.after-before", "lists.order"],
  (op, sent, e) => {
    const json = successJson(e)
    if (op.kind !== "list" || json === undefined) return []
    const p = pageOf(op, json)
    const out = [...pageRules(typeof sent.limit === "number" ? sent.limit : undefined, p, e)]
    // A cursor's page follows the walk it came from: its order is judged across the walk (the runner), not here.
    const cursor = typeof sent.cursor === "string" && sent.cursor !== ""
    const judgesOrder = !cursor && orderObservable(op)
    const pair = judgesOrder ? outOfOrder(op, p.items, sent.order) : undefined
    if (pair !== undefined) out.push(orderFailure(pair, sent.order, e))
    return out.length === 0
      ? [
          pass("paging", [
            "lists.count",
            "lists.limit-respected",
            "lists.after-before",
            ...(judgesOrder ? (["lists.order"] as const) : [])
          ])
        ]
      : out
  }
)

// ---------------------------------------------------------------------------------------------
// search, filter, spaceId
// ---------------------------------------------------------------------------------------------

/** An item as the filters read it: the object as sent, and with every default filled in. */
export type Row = { readonly raw: Record<string, unknown>; readonly full: Record<string, unknown> }

export const rowOf = (op: Op, raw: Record<string, unknown>): Row => ({
  raw,
  full: fullObject(op.object, raw) ?? raw
})

/** A field's text for search and filters: strings as they are, booleans and numbers as JSON text. */
export const textOf = (row: Row, key: string): string => {
  const v = row.full[snakeToCamel(key)]
  return typeof v === "string"
    ? v
    : typeof v === "boolean" || typeof v === "number"
      ? String(v)
      : ""
}

/**
 * One reading of the filter: the case of the string operators (`equals`, `contains`...), the case
 * of `lower_than` / `greater_than` on text (a server may fold one and not the other), and whether
 * time keys are equal as instants or as text.
 */
export interface Reading {
  readonly caseInsensitive: boolean
  readonly orderCaseInsensitive: boolean
  readonly timeEqualsAsText: boolean
}

/** Every reading a faithful server may take (decisions.md section 10). */
export const readings: ReadonlyArray<Reading> = [false, true].flatMap((caseInsensitive) =>
  [false, true].flatMap((orderCaseInsensitive) =>
    [false, true].map((timeEqualsAsText) => ({
      caseInsensitive,
      orderCaseInsensitive,
      timeEqualsAsText
    }))
  )
)

const instant = (s: string) => {
  const t = Timestamp.parse(s)
  return t instanceof Timestamp.Timestamp ? t : undefined
}

/** A filter evaluated under one reading (decisions.md section 3). */
export const evaluate = (
  filter: Filter.Filter<string>,
  get: (key: string) => string,
  reading: Reading
): boolean => {
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
    if (time !== undefined && time[0] !== undefined && time[1] !== undefined)
      return Timestamp.Order(time[0], time[1])
    const [a, b] = reading.orderCaseInsensitive
      ? [raw.toLowerCase(), rawExpected.toLowerCase()]
      : [raw, rawExpected]
    return a < b ? -1 : a > b ? 1 : 0
  }
  const equal = () =>
    time !== undefined && !reading.timeEqualsAsText && time[0] && time[1]
      ? Timestamp.Order(time[0], time[1]) === 0
      : actual === expected
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

/** Whether a filter compares a time key with `lower_than` / `greater_than` somewhere (`filter.time-instants`). */
export const comparesTimes = (filter: Filter.Filter<string>): boolean => {
  if (Filter.isEmpty(filter)) return false
  if ("group" in filter && filter.group !== undefined)
    return filter.group.filters.some(comparesTimes)
  const field = filter.field
  return (
    field !== undefined &&
    /_at$/.test(field.key) &&
    (field.operator === "lower_than" || field.operator === "greater_than")
  )
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
  "search-filter",
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
    return wrong === undefined ? [pass("search-filter", [s.rule])] : [wrong]
  }
)

const zeroFields = new WeakMap<Op, ReadonlyArray<string>>()

/**
 * The request fields of a create that the object holds under the same name as a scalar, whose
 * absence means their zero value: not the request enums a server may default (decisions.md
 * section 10), not ids naming other objects, not the variants of a one-of, not secrets.
 */
const zeroValueFields = (op: Op): ReadonlyArray<string> => {
  let out = zeroFields.get(op)
  if (out !== undefined) return out
  const props = objectPropertyNames(op)
  const defaulted = Shape.alwaysSentEnums(op)
  out = requestPropertyNames(op).filter(
    (k) =>
      k !== "id" &&
      referenceOf(op, k) === undefined &&
      props.has(k) &&
      !defaulted.has(k) &&
      !(op.oneOf ?? []).includes(k) &&
      !Secrets.fieldNames.has(k)
  )
  zeroFields.set(op, out)
  return out
}

/** The fields a request sets (lowerCamelCase; `null` is not set). */
const sentKeys = (sent: Body): ReadonlySet<string> =>
  new Set(
    Object.entries(asRecord(Shape.normalizeKeys(sent)) ?? {}).flatMap(([k, v]) =>
      v === null || v === undefined ? [] : [k]
    )
  )

/** The names of the fields of a request field's object type (a vendor object's), at any wrapping (optional, nullable). */
const nestedFieldNames = (op: Op, field: string): ReadonlyArray<string> => {
  const p = encodedFields(op.request).find((x) => String(x.name) === field)
  const types = (a: AST.AST): ReadonlyArray<AST.AST> =>
    a._tag === "Union" ? a.types.flatMap(types) : a._tag === "Refinement" ? types(a.from) : [a]
  return (p === undefined ? [] : types(p.type)).flatMap((t) =>
    t._tag === "TypeLiteral" ? t.propertySignatures.map((x) => String(x.name)) : []
  )
}

const zeroOf = (value: unknown): unknown =>
  typeof value === "boolean"
    ? false
    : typeof value === "string"
      ? ""
      : typeof value === "number"
        ? 0
        : undefined

/**
 * The first field left out of a create whose value in the created object is a scalar other than
 * its zero value: at the top level, and inside an object the request sent (a vendor object's
 * fields left out).
 */
const unsentZeroValues = (
  op: Op,
  sent: Body,
  full: Record<string, unknown>
): { readonly field: string; readonly value: unknown; readonly zero: unknown } | undefined => {
  const set = sentKeys(sent)
  for (const k of zeroValueFields(op)) {
    const value = full[k]
    if (!set.has(k)) {
      const zero = zeroOf(value)
      if (zero !== undefined && value !== zero) return { field: k, value, zero }
      continue
    }
    const inner = asRecord(asRecord(Shape.normalizeKeys(sent))?.[k])
    const got = asRecord(value)
    if (inner === undefined || got === undefined) continue
    const innerSet = sentKeys(inner)
    for (const j of nestedFieldNames(op, k)) {
      if (innerSet.has(j) || Secrets.fieldNames.has(j) || /Id$/.test(j)) continue
      const zero = zeroOf(got[j])
      if (zero !== undefined && got[j] !== zero) return { field: `${k}.${j}`, value: got[j], zero }
    }
  }
  return undefined
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
      if (Secrets.fieldNames.has(k) && typeof v === "string" && v !== "" && go[k] === v)
        echoed.push(at)
      else findEchoes(v, go[k], at)
    }
  }
  findEchoes(sent, rawObj, "")
  if (echoed.length > 0)
    out.push(
      note(
        "secret-returned",
        `the response returns the secret sent in ${echoed.join(", ")} (value not shown)`,
        e
      )
    )
  // Unknown fields, at any depth, are ignored (decisions.md section 1): they are not part of the object.
  for (const [k, v] of Object.entries(Shape.withoutUnknownFields(op, sent))) {
    if (!known.has(k) || v === null || v === undefined || Secrets.fieldNames.has(k)) continue
    if (props.has(k)) {
      if (!sameAsSent(v, full[k], (key) => Secrets.fieldNames.has(key))) {
        return [
          ...out,
          fail(
            "echo.create",
            `${k} differs`,
            `sent ${k} ${show(v)}, the created object has ${show(full[k])}`,
            e,
            `${k} = ${show(full[k])}`
          )
        ]
      }
      continue
    }
    const m = /^(.+)Id$/.exec(k)
    if (m !== null && props.has(m[1]!) && asRecord(rawObj[m[1]!]) !== undefined) {
      const got = asRecord(rawObj[m[1]!])!.id
      if (got !== v) {
        return [
          ...out,
          fail(
            "echo.create",
            `${k} differs`,
            `sent ${k} ${show(v)}, the created object's ${m[1]}.id is ${JSON.stringify(got)}`,
            e,
            `${m[1]}.id = ${JSON.stringify(got)}`
          )
        ]
      }
    }
  }
  // The complete object (interface.md, Endpoints): a created object has a creation time.
  if (props.has("createdAt") && (typeof rawObj.createdAt !== "string" || rawObj.createdAt === "")) {
    return [
      ...out,
      fail(
        "echo.create-complete",
        "createdAt missing",
        "the created object has no createdAt",
        e,
        `createdAt = ${show(rawObj.createdAt)}`
      )
    ]
  }
  // Left out is its zero value (proto3): scalar fields of the object the request did not send.
  const zero = unsentZeroValues(op, sent, full)
  if (zero !== undefined)
    return [
      ...out,
      fail(
        "echo.create-zero-values",
        `${zero.field} not its zero value`,
        `the request left out ${zero.field}, the created object has ${show(zero.value)}, not ${show(zero.zero)}`,
        e,
        `${zero.field} = ${show(zero.value)}`
      )
    ]
  // A sent `<x>Id` the object holds only as its nested `<x>` comes back as that object (the link's `nativeUser`).
  const nested = Object.entries(sent).flatMap(([k, v]) => {
    const m = /^(.+)Id$/.exec(k)
    return m !== null &&
      typeof v === "string" &&
      v !== "" &&
      known.has(k) &&
      !props.has(k) &&
      props.has(m[1]!)
      ? [{ field: k, object: m[1]!, id: v }]
      : []
  })
  for (const { field, object, id } of nested) {
    if (asRecord(rawObj[object]) === undefined) {
      return [
        ...out,
        fail(
          "echo.create-references",
          `${object} missing`,
          `sent ${field} ${JSON.stringify(id)}, the created object has no ${object}`,
          e,
          `${object} = ${show(rawObj[object])}`
        )
      ]
    }
  }
  // The linked identity: a `group` link names its group (decisions.md section 6).
  if (sent.identityType === "group" && typeof sent.identityId === "string" && props.has("group")) {
    const group = asRecord(rawObj.group)
    if (group?.id !== sent.identityId) {
      return [
        ...out,
        fail(
          "echo.identity-group",
          "linked group not returned",
          `a link to group ${JSON.stringify(sent.identityId)} came back with group ${show(rawObj.group)}`,
          e,
          `group = ${show(rawObj.group)}`
        )
      ]
    }
  }
  // A nested `<x>` beside a sent `<x>Id` the object holds too names that id (a connector's `space`).
  const stale = staleNested(props, sent, rawObj)
  if (stale !== undefined) {
    return [
      ...out,
      fail(
        "echo.create-references",
        `${stale} is another object`,
        `the create returned ${stale}Id ${show(rawObj[`${stale}Id`])} with ${stale} ${show(rawObj[stale])}`,
        e,
        `${stale}.id = ${show(asRecord(rawObj[stale])?.id)}`
      )
    ]
  }
  const judged: Array<ContractRules.RuleId> = ["echo.create"]
  if (props.has("createdAt")) judged.push("echo.create-complete")
  if (zeroValueFields(op).some((k) => !sentKeys(sent).has(k)))
    judged.push("echo.create-zero-values")
  if (sent.identityType === "group") judged.push("echo.identity-group")
  if (nested.length > 0 || sendsReference(props, sent)) judged.push("echo.create-references")
  return [...out, pass("create-echo", judged)]
}

const echo = onSuccess(
  "create-echo",
  "create-echo",
  [
    "echo.create",
    "echo.create-complete",
    "echo.create-zero-values",
    "echo.identity-group",
    "echo.create-references"
  ],
  (op, sent, e) => (op.kind === "create" ? createEcho(op, sent, e) : [])
)

/**
 * The first sent `<x>Id` (UpdateSatellite's `spaceId`) whose nested `<x>` in `obj` names another
 * object than `obj`'s own `<x>Id`: the id moved and the nested copy stayed behind. A nested object
 * left out (its zero value) agrees with any id; both readings of `spaceId: ""` (decisions.md
 * section 10) agree with themselves.
 */
export const staleNested = (
  props: ReadonlySet<string>,
  sent: Body,
  obj: Body
): string | undefined => {
  for (const k of Object.keys(sent)) {
    const m = /^(.+)Id$/.exec(k)
    if (
      m === null ||
      sent[k] === null ||
      sent[k] === undefined ||
      !props.has(m[1]!) ||
      !props.has(k)
    )
      continue
    const nestedId = asRecord(obj[m[1]!])?.id
    if (typeof nestedId === "string" && nestedId !== "" && nestedId !== (obj[k] ?? "")) return m[1]!
  }
  return undefined
}

/** Whether `sent` holds an `<x>Id` the object also holds as its nested `<x>`. */
const sendsReference = (props: ReadonlySet<string>, sent: Body): boolean =>
  Object.keys(sent).some(
    (k) =>
      sent[k] !== null &&
      sent[k] !== undefined &&
      props.has(k) &&
      props.has(/^(.+)Id$/.exec(k)?.[1] ?? "")
  )

/** updates.references: an update's answer names, in the nested `<x>`, the object its `<x>Id` names. */
export const updateReferences = (op: Op, sent: Body, e: Exchange): Outcome | undefined => {
  const json = successJson(e)
  const obj = asRecord(objectOf(op, json))
  const props = objectPropertyNames(op)
  if (op.kind !== "update" || obj === undefined || !sendsReference(props, sent)) return undefined
  const stale = staleNested(props, sent, obj)
  return stale === undefined
    ? pass("update-semantics", ["updates.references"])
    : fail(
        "updates.references",
        `${stale} not moved with ${stale}Id`,
        `the update returned ${stale}Id ${show(obj[`${stale}Id`])} with ${stale} ${show(obj[stale])}`,
        e,
        `${stale}.id = ${show(asRecord(obj[stale])?.id)}`
      )
}

const updateEcho = onSuccess(
  "update-echo",
  "update-semantics",
  ["updates.references"],
  (op, sent, e) => defined(updateReferences(op, sent, e))
)

/**
 * A Get returns the object its id names; GetEncryptionKeysByKeyId only keys with the `keyId` sent
 * (an empty array when none has it).
 */
export const namedRead = (op: Op, sent: Body, e: Exchange): Outcome | undefined => {
  const json = successJson(e)
  if (op.kind !== "get" || json === undefined) return undefined
  const got = objectOf(op, json)
  if (typeof sent.id === "string") {
    const id = asRecord(got)?.id
    if (id === undefined) return undefined
    return id === sent.id
      ? pass("stable-reads", ["reads.named-object"])
      : fail(
          "reads.named-object",
          "another object",
          `a Get of ${JSON.stringify(sent.id)} returned the object ${JSON.stringify(id)}`,
          e,
          `id = ${JSON.stringify(id)}`
        )
  }
  if (typeof sent.keyId === "string" && Array.isArray(got)) {
    const other = got
      .map(asRecord)
      .find((k) => k !== undefined && typeof k.keyId === "string" && k.keyId !== sent.keyId)
    return other === undefined
      ? pass("search-filter", ["keys.by-key-id"])
      : fail(
          "keys.by-key-id",
          "a key with another keyId",
          `keyId ${JSON.stringify(sent.keyId)} returned a key whose keyId is ${JSON.stringify(other.keyId)}`,
          e,
          `keyId = ${JSON.stringify(other.keyId)}`
        )
  }
  return undefined
}

const named = onSuccess(
  "named-read",
  "stable-reads",
  ["reads.named-object", "keys.by-key-id"],
  (op, sent, e) => defined(namedRead(op, sent, e))
)

// ---------------------------------------------------------------------------------------------
// the answer on its own
// ---------------------------------------------------------------------------------------------

const noServerErrors: ExchangeOracle = {
  name: "no-server-errors",
  check: "no-server-errors",
  rules: ["errors.no-internal-for-client-faults"],
  judge: (v) => [Inspect.noServerErrors(v.exchange, v.optionalForm)]
}

/** An oracle of the answer alone, judged once the answer was read to its end. */
const onAnswer = (
  name: string,
  check: CheckId,
  rules: ReadonlyArray<ContractRules.RuleId>,
  judge: (v: View) => ReadonlyArray<Outcome>
): ExchangeOracle => ({
  name,
  check,
  rules,
  judge: (v) => (v.complete ? judge(v) : [])
})

const successShape = onAnswer("success-shape", "success-shape", ["wire.success"], (v) =>
  defined(Inspect.successShape(v.exchange))
)
const errorShape = onAnswer(
  "error-shape",
  "error-shape",
  ["errors.connect-body", "errors.status-agrees", "errors.retry-after"],
  (v) => defined(Inspect.errorShape(v.exchange))
)
const rateLimitHeaders = onAnswer(
  "rate-limit-headers",
  "error-shape",
  ["errors.rate-limit-headers"],
  (v) => defined(Inspect.rateLimitHeaders(v.exchange))
)

const responseSchema = onAnswer(
  "response-schema",
  "response-schema",
  [
    "response.schema",
    "response.field-types",
    "timestamps.utc-z",
    "timestamps.fraction-digits",
    "int64.as-string"
  ],
  (v) => (v.op === undefined ? [] : defined(Inspect.responseSchema(v.op, v.exchange)))
)
const timestamps = onAnswer(
  "timestamps",
  "timestamps",
  ["timestamps.past", "timestamps.expires-future"],
  (v) => defined(Inspect.timestamps(v.exchange, v.skewMillis))
)

/** secrets: an error answer to a request with secrets carries none of them. */
export const secretsKept = (body: unknown, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  const secrets = Secrets.values(body)
  if (r === undefined || r.status === 200 || secrets.length === 0) return undefined
  const leaked = secrets.some(
    (s) => r.text.includes(s) || r.text.includes(JSON.stringify(s).slice(1, -1))
  )
  return leaked
    ? fail(
        "secrets.not-in-errors",
        "secret in the error body",
        `the ${Inspect.summary(e)} answer quotes a secret field's value that the request sent (value not shown)`,
        {
          ...e,
          response: Option.some({
            ...r,
            text: "[not shown: it holds a secret]",
            json: Option.none()
          })
        }
      )
    : pass("secrets", ["secrets.not-in-errors"])
}

/** secrets: an error answer does not print the `X-API-KEY` the request sent (decisions.md section 8). */
export const keyKept = (key: string | undefined, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status === 200 || key === undefined || key.length < Secrets.MIN_LENGTH)
    return undefined
  return r.text.includes(key)
    ? fail(
        "secrets.key-not-in-errors",
        "API key in the error body",
        `the ${Inspect.summary(e)} answer prints the X-API-KEY the request sent (value not shown)`,
        {
          ...e,
          response: Option.some({
            ...r,
            text: "[not shown: it holds the API key]",
            json: Option.none()
          })
        }
      )
    : pass("secrets", ["secrets.key-not-in-errors"])
}

const secrets = onAnswer(
  "secrets",
  "secrets",
  ["secrets.not-in-errors", "secrets.key-not-in-errors"],
  (v) =>
    defined(
      v.body === undefined ? undefined : secretsKept(v.body, v.exchange),
      keyKept(v.apiKey, v.exchange)
    )
)

const camelCaseOutput = onAnswer(
  "camel-case-output",
  "response-schema",
  ["wire.output-camel-case"],
  (v) => defined(Inspect.camelCaseOutput(v.exchange))
)

// ---------------------------------------------------------------------------------------------
// requests that must be refused, and requests that must be served
// ---------------------------------------------------------------------------------------------

/**
 * The rules a request can break on its own (the proxy's client side): a request that breaks one
 * is never served.
 */
export const requestRules = [
  "protocol.unknown-route",
  "protocol.method",
  "protocol.content-type",
  "protocol.version-header",
  "auth.key-required",
  "wire.empty-body",
  "wire.json-object-body",
  "fields.required",
  "fields.min-length",
  "fields.enum",
  "fields.json-type",
  "fields.one-of",
  "fields.connector-name",
  "lists.limit-range",
  "filter.unknown-key",
  "filter.group-not-empty"
] as const satisfies ReadonlyArray<ContractRules.RuleId>

/** A rule a request can break on its own. */
export type RequestRule = (typeof requestRules)[number]

/** The answer to a request that breaks a must: never a success, and the protocol's own statuses. */
const refused: ExchangeOracle = {
  name: "refused",
  check: "invalid-rejected",
  rules: requestRules,
  judge: ({ breaches, exchange: e, keyPresent, op }) => {
    const response = Option.getOrUndefined(e.response)
    const musts = breaches.filter((b) => b.latitude === undefined)
    // A rate limit or an overload may answer any request first: it is no answer to the request's fault.
    if (response === undefined || musts.length === 0 || Inspect.answeredFirst(e)) return []
    const first = musts[0]!
    const got = Inspect.summary(e)
    const code = Inspect.codeOf(e)
    // Without a key, a server may check the key first (401) whatever else the request breaks.
    if (!keyPresent && response.status === 401 && code === "unauthenticated")
      return [pass("auth", ["auth.key-required"])]
    if (op === undefined) {
      // An unknown route is 404 with the code unimplemented (an empty body is no Connect error: error-shape says so).
      if (response.status === 404 && (code === "unimplemented" || code === undefined))
        return [pass("protocol", ["protocol.unknown-route"])]
      return [
        fail(
          "protocol.unknown-route",
          `unknown route: got ${got}`,
          `an unknown route got ${got}, expected 404 unimplemented`,
          e,
          Inspect.excerpt(response, 300)
        )
      ]
    }
    if (first.rule === "protocol.method") {
      if (response.status === 405 && /(^|,)\s*POST\s*(,|$)/i.test(response.headers["allow"] ?? ""))
        return [pass("protocol", ["protocol.method"])]
      // A GET that is no Connect GET: a server may serve Connect GET, refusing a GET it cannot read
      // (connect-es answers 415), or leave it out (415 / unimplemented, decisions.md section 10), so
      // any refusal passes, as in the runner's GET probes.
      if (e.request.method === "GET" && response.status !== 200)
        return [pass("protocol", ["protocol.method"])]
      return [
        fail(
          "protocol.method",
          `${first.cause}: got ${got}`,
          `${first.message} got ${got}, expected 405 with Allow: POST`,
          e,
          Inspect.excerpt(response, 300)
        )
      ]
    }
    if (first.rule === "protocol.content-type") {
      if (response.status === 415) return [pass("protocol", ["protocol.content-type"])]
      return [
        fail(
          "protocol.content-type",
          `content type: got ${got}`,
          `${first.message} got ${got}, expected 415`,
          e,
          Inspect.excerpt(response, 300)
        )
      ]
    }
    if (response.status === 200) {
      return [
        fail(
          first.rule,
          `${first.cause}: got 200`,
          `a request that breaks ${first.rule} (${first.message}) was served with 200, expected an error`,
          e,
          Inspect.excerpt(response, 300)
        )
      ]
    }
    return [pass("invalid-rejected", [first.rule])]
  }
}

/** A way of spelling a valid request that a server must read like its plain form, and the rule it tests. */
export interface Spelling {
  readonly rule: ContractRules.RuleId
  readonly label: string
  readonly has: (op: Op, body: Body) => boolean
}

/** The spellings of a valid request, in the order a refusal is put down to them. */
export const spellings: ReadonlyArray<Spelling> = [
  { rule: "wire.unknown-fields-ignored", label: "unknown field", has: Shape.hasUnknownFields },
  {
    rule: "wire.snake-case",
    label: "snake_case names",
    has: (_, body) => Shape.hasSnakeCase(body)
  },
  {
    rule: "wire.null-is-unset",
    label: "null for unset fields",
    has: (_, body) => Shape.hasNulls(body)
  }
]

/** The rule a refusal of a valid request in its plain form breaks: `limit` at a bound (1, 500) has its own. */
export const plainAcceptance = (
  body: Body
): { readonly rule: ContractRules.RuleId; readonly label: string } =>
  body.limit === 500 || body.limit === 1
    ? { rule: "lists.limit-accepted", label: `limit ${body.limit}` }
    : { rule: "fields.valid-accepted", label: "valid request" }

/** The rule a refusal of a valid request breaks, read from the request alone: its first spelling, else its plain form's. */
export const acceptanceRule = (
  op: Op,
  body: Body
): { readonly rule: ContractRules.RuleId; readonly label: string } =>
  spellings.find((s) => s.has(op, body)) ?? plainAcceptance(body)

/**
 * Why a faithful server may refuse a request that breaks no must (decisions.md section 10), or
 * `undefined` when every faithful server serves it: a form only a lenient server accepts, a cursor
 * (bound to its request, or never given), an enum left out, a field whose format a server may
 * validate, a filter outside what every reading decides.
 */
export const mayRefuse = (
  op: Op,
  body: Body,
  sent: Body,
  breaches: ReadonlyArray<Breach>,
  headers: Readonly<Record<string, string>>
): string | undefined => {
  if (breaches.length > 0) return breaches[0]!.cause
  // Headers outside what clients send (decisions.md section 1): the documents do not say how they are answered.
  const timeout = headers["connect-timeout-ms"]
  if (timeout !== undefined && !/^\d{1,10}$/.test(timeout)) return "a malformed Connect-Timeout-Ms"
  const version = headers["connect-protocol-version"]
  if (version !== undefined && version !== "1") return "a Connect-Protocol-Version other than 1"
  if (typeof sent.cursor === "string" && sent.cursor !== "") return "a cursor"
  for (const name of Shape.alwaysSentEnums(op).keys())
    if (sent[name] === undefined) return `${name} left out`
  const format = (v: unknown, depth: number): string | undefined => {
    if (depth > 16 || v === null || typeof v !== "object") return undefined
    for (const [k, x] of Object.entries(v)) {
      if (ContractRules.formatFields.has(snakeToCamel(k)) && typeof x === "string")
        return `${k}: a format a server may validate`
      const inner = k === "filter" ? undefined : format(x, depth + 1)
      if (inner !== undefined) return inner
    }
    return undefined
  }
  const formatted = format(body, 0)
  if (formatted !== undefined) return formatted
  const filter = asRecord(sent.filter) as Filter.Filter<string> | undefined
  if (
    filter !== undefined &&
    (!judgeable(filter) || !typedOperators(filter, Shape.booleanProperties(op.object)))
  )
    return "a filter some server may refuse"
  return undefined
}

/** Whether every condition on a boolean key uses only the operators booleans have (a server may refuse the others: strict-filter-types). */
const typedOperators = (filter: Filter.Filter<string>, booleans: ReadonlySet<string>): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined)
    return filter.group.filters.every((f) => typedOperators(f, booleans))
  const field = filter.field
  return (
    field === undefined ||
    !booleans.has(snakeToCamel(field.key)) ||
    OPERATORS.boolean.includes(field.operator)
  )
}

/**
 * valid-accepted: a request that breaks no must and that every faithful server serves is not
 * refused with invalid_argument. (The runner's valid requests are such by construction and judged
 * more widely there: any refusal, told apart by a second request.)
 */
const validAccepted: ExchangeOracle = {
  name: "valid-accepted",
  check: "valid-accepted",
  rules: [
    "fields.valid-accepted",
    "wire.unknown-fields-ignored",
    "wire.snake-case",
    "wire.null-is-unset",
    "lists.limit-accepted"
  ],
  judge: ({ body, breaches, exchange: e, headers, op, sent }) => {
    if (op === undefined || body === undefined || sent === undefined) return []
    const status = Inspect.statusOf(e)
    if (status === 200) return [pass("valid-accepted", [acceptanceRule(op, body).rule])]
    if (
      status !== 400 ||
      Inspect.codeOf(e) !== "invalid_argument" ||
      mayRefuse(op, body, sent, breaches, headers) !== undefined
    )
      return []
    const { label, rule } = acceptanceRule(op, body)
    return [
      fail(
        rule,
        `${label}: rejected with invalid_argument`,
        `a valid request (${label}) was rejected with invalid_argument`,
        e,
        Option.match(e.response, {
          onNone: () => undefined,
          onSome: (r) => Inspect.excerpt(r, 300)
        })
      )
    ]
  }
}

/** A body of at most 1 MiB is not refused for its size: resource_exhausted without `Retry-After` (a rate limit says when to retry). */
const bodyLimit: ExchangeOracle = {
  name: "body-limit",
  check: "protocol",
  rules: ["protocol.body-limit"],
  judge: ({ exchange: e }) => {
    const r = Option.getOrUndefined(e.response)
    // A body not seen to its end is of unknown size.
    const bodyBytes = requestBytesOf(e)
    if (
      r === undefined ||
      bodyBytes > JsonBody.GUARANTEED_MAX_BYTES ||
      Inspect.codeOf(e) !== "resource_exhausted" ||
      r.headers["retry-after"] !== undefined
    )
      return []
    return [
      fail(
        "protocol.body-limit",
        "refused for its size",
        `a ${bodyBytes}-byte body was refused with resource_exhausted and no Retry-After: a server serves bodies up to 1 MiB`,
        e,
        Inspect.excerpt(r, 300)
      )
    ]
  }
}

/** Every oracle one exchange decides: the proxy applies them all. */
export const registry: ReadonlyArray<ExchangeOracle> = [
  noServerErrors,
  successShape,
  errorShape,
  rateLimitHeaders,
  responseSchema,
  camelCaseOutput,
  timestamps,
  secrets,
  refused,
  validAccepted,
  bodyLimit,
  page,
  matching,
  echo,
  updateEcho,
  named
]

/** Every oracle's verdicts on one exchange, notes included. */
export const judgeAll = (view: View): ReadonlyArray<Verdict> =>
  registry.flatMap((o) => o.judge(view))

/** The rules the registry's oracles judge. */
export const registryRules: ReadonlyArray<ContractRules.RuleId> = registry.flatMap((o) => o.rules)

const fractionDigits = (s: string) => /\.(\d+)/.exec(s)?.[1]?.length ?? 0

/** Two timestamps name the same instant, at the coarser precision of the two texts. */
const sameInstant = (a: string, b: string): boolean => {
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b)
  if (typeof ta === "string" || typeof tb === "string") return a === b
  const unit = 10n ** BigInt(9 - Math.min(fractionDigits(a), fractionDigits(b), 9))
  return Timestamp.toEpochNanos(ta) / unit === Timestamp.toEpochNanos(tb) / unit
}

/**
 * The first path where two reads of one object differ, under what a faithful server may do:
 * zero values and absent fields are the same, secret fields (decisions.md section 8) may be left
 * out, timestamps compare as instants, and a nested object with an id (a copy of another object,
 * which may change on its own) compares by its id, when both reads carry it.
 */
export const storedDifference = (
  a: unknown,
  b: unknown,
  path = "",
  key = ""
): string | undefined => {
  if (Secrets.fieldNames.has(key) || (isZero(a) && isZero(b))) return undefined
  const ra = asRecord(a) ?? (a === undefined && asRecord(b) !== undefined ? {} : undefined)
  const rb = asRecord(b) ?? (b === undefined && ra !== undefined ? {} : undefined)
  if (ra !== undefined && rb !== undefined) {
    if (path !== "" && ("id" in ra || "id" in rb))
      return !("id" in ra) || !("id" in rb) || ra.id === rb.id ? undefined : `${path}.id`
    for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
      const d = storedDifference(ra[k], rb[k], path === "" ? k : `${path}.${k}`, k)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return path
    for (let i = 0; i < a.length; i++) {
      const d = storedDifference(a[i], b[i], `${path}[${i}]`, key)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (typeof a === "string" && typeof b === "string" && Inspect.timestampFields.has(key))
    return sameInstant(a, b) ? undefined : path
  return canonical(a) === canonical(b) ? undefined : path || "(object)"
}
