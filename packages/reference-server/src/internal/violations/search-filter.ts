/**
 * The violations of the `search-filter` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { Filter, Timestamp } from "@data-access/schema"
import * as Effect from "effect/Effect"
import type { Json } from "../../Collections.js"
import { fieldValue, filteringWith, matches, snakeToCamel as camelOf } from "../handlers.js"
import type { Handler, RouteHook } from "../pipeline-types.js"
import { listIgnores, preparing } from "../violationHooks.js"
import { orAsAnd } from "../filterRewrites.js"
import { collectionOf } from "../operationCollections.js"
import { violation } from "../violationRecord.js"

/** A List handler that answers `search` itself, an item kept when `termMatches` of the term holds for one of its search fields (default `name`), not the pipeline's search. */
const searchedBy =
  (termMatches: (search: string) => (text: string) => boolean): RouteHook<Handler> =>
  (next, op) =>
    op.kind !== "list"
      ? next
      : (request, ctx) => {
          const search = typeof request.search === "string" ? request.search : ""
          if (search === "") return next(request, ctx)
          const named = request.searchFields as ReadonlyArray<string> | undefined
          const { search: _, ...rest } = request
          const keys = named !== undefined && named.length > 0 ? named : ["name"]
          const matches = termMatches(search)
          return next(rest, {
            ...ctx,
            store: {
              ...ctx.store,
              all: (c) =>
                Effect.map(ctx.store.all(c), (items) =>
                  items.filter((item) => keys.some((k) => matches(fieldValue(item, k))))
                )
            }
          })
        }

/** search-case-sensitive: a field's text kept when it holds the term as it is. */
const caseSensitiveSearch = (search: string) => (text: string) => text.includes(search)

/** search-ascii-case-folding: a text with only A to Z lower-cased (`É` stays `É`). */
const asciiFolded = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** search-ascii-case-folding: a field's text kept when it holds the term, only A to Z folded. */
const asciiFoldedSearch = (search: string) => {
  const term = asciiFolded(search)
  return (text: string) => asciiFolded(text).includes(term)
}

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")

/** search-like-wildcards: a search term as the pattern of SQL's `LIKE '%term%'` (`%` any run, `_` any character, a backslash escapes the next). */
const likePattern = (term: string): RegExp => {
  let source = ""
  for (let i = 0; i < term.length; i++) {
    const ch = term[i]!
    if (ch === "\\" && i + 1 < term.length) source += escapeRegExp(term[++i]!)
    else source += ch === "%" ? "[\\s\\S]*" : ch === "_" ? "[\\s\\S]" : escapeRegExp(ch)
  }
  return new RegExp(source, "i")
}

/** search-like-wildcards: a field's text kept when it matches the term under the LIKE reading. */
const likeSearch = (search: string) => {
  const pattern = likePattern(search)
  return (text: string) => pattern.test(text)
}

/** A filter that is one condition. */
type Condition = Extract<Filter.Filter<string>, { readonly field: unknown }>

/**
 * A filter read with `condition` for each of its conditions: an empty filter matches every item,
 * a group is the `and` or `or` of its members, as every reading has them.
 */
const eachCondition = (
  condition: (filter: Condition, item: Json) => boolean
): ((filter: Filter.Filter<string>, item: Json) => boolean) => {
  const read = (filter: Filter.Filter<string>, item: Json): boolean => {
    if (Filter.isEmpty(filter)) return true
    if ("group" in filter && filter.group !== undefined) {
      const results = filter.group.filters.map((f) => read(f, item))
      return filter.group.operator === "and" ? results.every(Boolean) : results.some(Boolean)
    }
    return condition(filter, item)
  }
  return read
}

/** filter-regex: how each string operator anchors its value read as a regular expression. */
const ANCHORS: Partial<Record<Filter.Operator, readonly [string, string]>> = {
  equals: ["^(?:", ")$"],
  not_equals: ["^(?:", ")$"],
  contains: ["", ""],
  not_contains: ["", ""],
  starts_with: ["^(?:", ")"],
  ends_with: ["(?:", ")$"]
}

/** filter-regex: a filter whose string operators read their value as a regular expression (a value that is no valid one compares as text). */
const regexMatches = eachCondition((filter, item) => {
  const { key, operator } = filter.field
  const anchors = ANCHORS[operator]
  if (anchors === undefined || key.endsWith("_at")) return matches(filter, item)
  let pattern: RegExp
  try {
    pattern = new RegExp(`${anchors[0]}${filter.field.value?.value ?? ""}${anchors[1]}`, "s")
  } catch {
    return matches(filter, item)
  }
  const hit = pattern.test(fieldValue(item, key))
  return operator.startsWith("not_") ? !hit : hit
})

/**
 * empty-operators-null: `empty` and `equals ""` select only items whose field is absent (SQL's
 * `IS NULL`), `not_empty` and `not_equals ""` every item that holds the field: a field stored as
 * `""` counts as a value. The other conditions are read faithfully.
 */
const nullEmptyMatches = eachCondition((filter, item) => {
  const { key, operator } = filter.field
  const value = filter.field.value?.value ?? ""
  const raw = item[camelOf(key)]
  const absent = raw === undefined || raw === null
  if (operator === "empty" || (operator === "equals" && value === "")) return absent
  if (operator === "not_empty" || (operator === "not_equals" && value === "")) return !absent
  return matches(filter, item)
})

/** The handler hook of a List whose filter is read by `matches` instead of the faithful reading. */
const listsFilteredBy =
  (matches: Parameters<typeof filteringWith>[1]): RouteHook<Handler> =>
  (next, op) => {
    const c = collectionOf(op)
    return op.kind !== "list" || c === undefined ? next : filteringWith(c, matches)(next)
  }

/**
 * time-filter-value-precision: two times of a `*_at` key ordered at the precision the filter's
 * value (`b`) is written with: the item's time cut to as many fractional digits (whole seconds for
 * `:05Z`).
 */
const valuePrecisionOrder = (key: string, a: string, b: string): number | undefined => {
  if (!key.endsWith("_at")) return undefined
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b)
  if (typeof ta === "string" || typeof tb === "string") return undefined
  const unit = 10 ** (9 - (/\.(\d+)/.exec(b)?.[1]?.length ?? 0))
  const cut = new Timestamp.Timestamp({
    seconds: ta.seconds,
    nanos: ta.nanos - (ta.nanos % unit)
  })
  return Timestamp.Order(cut, tb)
}

/**
 * time-filter-offset-ignored: two times of a `*_at` key ordered with the filter's value (`b`) read
 * as UTC whatever its offset: its wall clock is taken for the instant.
 */
const offsetIgnoredOrder = (key: string, a: string, b: string): number | undefined => {
  if (!key.endsWith("_at")) return undefined
  const ta = Timestamp.parse(a)
  const tb = Timestamp.parse(b.replace(/[+-]\d{2}:\d{2}$/, "Z"))
  if (typeof ta === "string" || typeof tb === "string") return undefined
  return Timestamp.Order(ta, tb)
}

/**
 * time-filter-fraction-grouped: two times of a `*_at` key ordered with the filter's value (`b`)
 * read as milli-, micro- or nanoseconds by the length of its fraction rounded up to 3, 6 or 9
 * digits: `.5` is 5 ms, not 500 ms (right for `.500`, `.500000`, `.500000000`).
 */
const groupedFractionOrder = (key: string, a: string, b: string): number | undefined => {
  if (!key.endsWith("_at")) return undefined
  const fraction = /\.(\d+)/.exec(b)?.[1] ?? ""
  const ta = Timestamp.parse(a)
  const whole = Timestamp.parse(b.replace(`.${fraction}`, ""))
  if (typeof ta === "string" || typeof whole === "string") return undefined
  const unit = 10 ** (9 - Math.ceil(fraction.length / 3) * 3)
  const tb = new Timestamp.Timestamp({ seconds: whole.seconds, nanos: Number(fraction) * unit })
  return Timestamp.Order(ta, tb)
}

export const searchIgnored = violation({
  name: "search-ignored",
  rule: "search.match",
  description: "`search` is ignored.",
  hooks: { prepare: listIgnores("search") }
})

export const searchCaseSensitive = violation({
  name: "search-case-sensitive",
  rule: "search.case-insensitive",
  description: "`search` compares case-sensitively.",
  hooks: { handler: searchedBy(caseSensitiveSearch) }
})

export const searchFieldsIgnored = violation({
  name: "search-fields-ignored",
  rule: "search.fields",
  description: "`search` looks only in `name`, whatever `searchFields` says.",
  hooks: { prepare: listIgnores("searchFields") }
})

export const filterIgnored = violation({
  name: "filter-ignored",
  rule: "filter.match",
  description: "`filter` is ignored.",
  hooks: { prepare: listIgnores("filter") }
})

/** A hook on `prepare` of every list: a request's filter, when it has one, goes on rewritten. */
const filterRewritten = (rewrite: (filter: Filter.Filter<string>) => Filter.Filter<string>) =>
  preparing(
    (request) =>
      request.filter === undefined
        ? request
        : { ...request, filter: rewrite(request.filter as Filter.Filter<string>) },
    (op) => op.kind === "list"
  )

export const filterOrAsAnd = violation({
  name: "filter-or-as-and",
  rule: "filter.group-operator",
  description: "A filter group with `operator: or` is evaluated as `and`.",
  hooks: {
    prepare: filterRewritten(orAsAnd)
  }
})

/** nested-or-as-and: the groups inside a filter's top group read `or` as `and`; the top group keeps its operator. */
const orNestedAsAnd = (filter: Filter.Filter<string>): Filter.Filter<string> =>
  "group" in filter && filter.group !== undefined
    ? {
        group: {
          operator: filter.group.operator,
          filters: filter.group.filters.map(orAsAnd) as unknown as readonly [
            Filter.Filter<string>,
            ...Array<Filter.Filter<string>>
          ]
        }
      }
    : filter

export const nestedOrAsAnd = violation({
  name: "nested-or-as-and",
  rule: "filter.group-operator",
  description:
    "A filter group with `operator: or` nested inside another group is evaluated as `and` (the outermost group is read right).",
  hooks: {
    prepare: filterRewritten(orNestedAsAnd)
  }
})

/**
 * The hooks of a List whose filter compares `created_at` / `updated_at` values by `order` (each
 * time filter violation reads the instants one wrong way; none given: as texts).
 */
const timesComparedBy = (order?: Parameters<typeof Filter.evaluate>[2]) => ({
  handler: listsFilteredBy((filter, item) =>
    Filter.evaluate(filter, (key) => fieldValue(item, key), order)
  )
})

export const timeFilterAsText = violation({
  name: "time-filter-as-text",
  rule: "filter.time-instants",
  description:
    "`lower_than` / `greater_than` on `created_at` / `updated_at` compare the texts, not the instants they name.",
  hooks: timesComparedBy()
})

export const timeFilterValuePrecision = violation({
  name: "time-filter-value-precision",
  rule: "filter.time-instants",
  description:
    "`lower_than` / `greater_than` on `created_at` / `updated_at` compare at the precision the value is written with: the item's time is cut to as many fractional digits (to whole seconds for `...:05Z`).",
  hooks: timesComparedBy(valuePrecisionOrder)
})

export const timeFilterOffsetIgnored = violation({
  name: "time-filter-offset-ignored",
  rule: "filter.time-instants",
  description:
    "`lower_than` / `greater_than` on `created_at` / `updated_at` read a value written at an offset as UTC: `10:00:00+02:00` is taken for `10:00:00Z`.",
  hooks: timesComparedBy(offsetIgnoredOrder)
})

export const timeFilterFractionGrouped = violation({
  name: "time-filter-fraction-grouped",
  rule: "filter.time-instants",
  description:
    "`lower_than` / `greater_than` on `created_at` / `updated_at` read a value's fractional digits as milli-, micro- or nanoseconds by their count rounded up to 3, 6 or 9: `...:05.8Z` is taken for `...:05.008Z`.",
  hooks: timesComparedBy(groupedFractionOrder)
})

export const spaceFilterIgnored = violation({
  name: "space-filter-ignored",
  rule: "lists.space-scope",
  description: "ListSatellites ignores `spaceId`.",
  // The optional parent of a list (ListSatellites' `spaceId`).
  hooks: {
    prepare: (next, op, fields) =>
      op.parent === undefined || op.parent.required
        ? next
        : listIgnores(op.parent.field)(next, op, fields)
  }
})

export const parentScopeIgnored = violation({
  name: "parent-scope-ignored",
  rule: "lists.parent-scope",
  description: "ListNativeUsers ignores `resourceId`: every native user comes back.",
  // The required parent of a list (ListNativeUsers' `resourceId`).
  hooks: {
    prepare: (next, op, fields) =>
      op.parent === undefined || !op.parent.required
        ? next
        : listIgnores(op.parent.field)(next, op, fields)
  }
})

export const keyIdIgnored = violation({
  name: "key-id-ignored",
  rule: "keys.by-key-id",
  description: "GetEncryptionKeysByKeyId returns every key, whatever `keyId` says.",
  // A Get by another field than `id` (the operation's `lookupKey`) answers every object.
  hooks: {
    handler: (next, op) => {
      const c = collectionOf(op)
      const key = op.wrapperKey
      return op.lookupKey === undefined || c === undefined || key === undefined
        ? next
        : (_, ctx) => Effect.map(ctx.store.all(c), (all) => ({ [key]: all }))
    }
  }
})

/** A lookup by key (GetEncryptionKeysByKeyId) that answers the objects `found` pairs with the value sent. */
const lookedUpBy =
  (found: (object: Json, lookup: string, sent: unknown) => boolean): RouteHook<Handler> =>
  (next, op) => {
    const c = collectionOf(op)
    const key = op.wrapperKey
    const lookup = op.lookupKey
    return lookup === undefined || c === undefined || key === undefined
      ? next
      : (request, ctx) =>
          Effect.map(ctx.store.all(c), (all) => ({
            [key]: all.filter((o) => found(o, lookup, request[lookup]))
          }))
  }

export const keyIdAsObjectId = violation({
  name: "key-id-as-object-id",
  rule: "keys.known-key-id",
  description:
    "GetEncryptionKeysByKeyId looks keys up by their object `id`, not their provider-side `keyId`: a real keyId finds nothing.",
  hooks: { handler: lookedUpBy((o, _lookup, sent) => o.id === sent) }
})

export const searchLikeWildcards = violation({
  name: "search-like-wildcards",
  rule: "search.match",
  description:
    "`search` is read as SQL's `LIKE '%term%'` without escaping: `%` and `_` in a term are wildcards.",
  hooks: { handler: searchedBy(likeSearch) }
})

export const filterRegex = violation({
  name: "filter-regex",
  rule: "filter.match",
  description:
    "The string operators of a filter read their value as a regular expression (`.` any character, `^` and `$` anchors...); a value that is no valid one compares as text.",
  hooks: {
    handler: listsFilteredBy(regexMatches)
  }
})

export const emptyOperatorsNull = violation({
  name: "empty-operators-null",
  rule: "filter.match",
  description:
    '`empty` and `equals ""` select only items whose field is absent (SQL\'s `IS NULL`), `not_empty` and `not_equals ""` every item that holds it: a field stored as `""` (a satellite without a space) counts as a value.',
  hooks: {
    handler: listsFilteredBy(nullEmptyMatches)
  }
})

export const selectionFirstPageOnly = violation({
  name: "selection-first-page-only",
  rule: "filter.match",
  description:
    "A List request with a `cursor` ignores its `filter`, `search` and `spaceId`: the pages after the first hold the items that follow in the unselected order.",
  hooks: {
    prepare: (next, op) =>
      op.kind !== "list"
        ? next
        : (request, ex) => {
            if (typeof request.cursor !== "string" || request.cursor === "")
              return next(request, ex)
            const scope = op.parent !== undefined && !op.parent.required ? op.parent.field : ""
            return next(
              Object.fromEntries(
                Object.entries(request).filter(
                  ([k]) => k !== "filter" && k !== "search" && k !== scope
                )
              ),
              ex
            )
          }
  }
})

export const emptySearchFieldsNothing = violation({
  name: "empty-search-fields-nothing",
  rule: "search.match",
  description:
    "`searchFields: []` is read as no field to search, not as absent (proto3 JSON reads an empty list as absent, so the default `name` applies): a search with it matches nothing.",
  hooks: {
    prepare: (next, op) =>
      op.kind !== "list"
        ? next
        : (request, ex) =>
            Array.isArray(request.searchFields) &&
            request.searchFields.length === 0 &&
            typeof request.search === "string" &&
            request.search !== ""
              ? next({ ...request, search: "\u0000" }, ex)
              : next(request, ex)
  }
})

export const searchAsciiCaseFolding = violation({
  name: "search-ascii-case-folding",
  rule: "search.case-insensitive",
  description:
    "`search` folds the case of A to Z only: `été` does not find `Été` (SQL's `lower()` under an ASCII collation, a hand-written fold).",
  hooks: { handler: searchedBy(asciiFoldedSearch) }
})

/** key-ids-match-loosely: a text as a loose comparison reads it, surrounding spaces and the case of letters ignored. */
const looseText = (s: unknown): string => String(s).trim().toLowerCase()

export const keyIdsMatchLoosely = violation({
  name: "key-ids-match-loosely",
  rule: "keys.by-key-id",
  description:
    "GetEncryptionKeysByKeyId compares `keyId` without regard to case or surrounding spaces (a case-insensitive collation): a keyId one letter's case or a space away from a key's finds that key.",
  hooks: {
    handler: lookedUpBy((o, lookup, sent) => looseText(o[lookup]) === looseText(sent))
  }
})

/** search-term-trimmed: a field's text kept when it holds the term without its surrounding spaces, case folded. */
const trimmedSearch = (search: string) => {
  const term = search.trim().toLowerCase()
  return (text: string) => text.toLowerCase().includes(term)
}

export const searchTermTrimmed = violation({
  name: "search-term-trimmed",
  rule: "search.match",
  description:
    "`search` drops the spaces before and after its term: ` x ` finds every name that holds `x`.",
  hooks: { handler: searchedBy(trimmedSearch) }
})

/** filter-pads-spaces: `equals` and `not_equals` compare strings with trailing spaces ignored on both sides (SQL's PAD SPACE). */
const paddedMatches = eachCondition((filter, item) => {
  const { key, operator } = filter.field
  if (operator !== "equals" && operator !== "not_equals") return matches(filter, item)
  const value = (filter.field.value?.value ?? "").trimEnd()
  const same = fieldValue(item, key).trimEnd() === value
  return operator === "equals" ? same : !same
})

export const filterPadsSpaces = violation({
  name: "filter-pads-spaces",
  rule: "filter.match",
  description:
    '`equals` and `not_equals` compare strings with trailing spaces ignored on both sides (SQL\'s PAD SPACE): `name equals "x "` selects the item named `x`.',
  hooks: { handler: listsFilteredBy(paddedMatches) }
})
