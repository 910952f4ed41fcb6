/**
 * The probes of a List's latitude: filters a server may refuse, a cursor used with another request
 * than the one that produced it, and a parent id that names nothing (a Get by `keyId` too).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ContractRules } from "@data-access/schema"
import { type Body, type Context, type Op, send, show } from "../../context.js"
import { type Exchange, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { asRecord } from "../../json.js"
import { type Row, rowOf, textOf } from "../../filterReadings.js"
import { unknownReferenceRefused } from "../../oracles/error-shape.js"
import { defined } from "../../exchangeOracle.js"
import { pageOf, pageRules } from "../../oracles/paging.js"
import { parentNamesNothing } from "../../oracles/search-filter.js"
import { requestPropertyNames } from "../../pools.js"
import { everything, requiredRefs } from "../../listWalk.js"
import {
  answered,
  decodesFor,
  type Probe,
  servedOrInvalidRead,
  single,
  stringValue
} from "./probe.js"

/** The probes of filters a server may refuse: empty, a time key with text, a string operator on a boolean key. */
export const filterProbes = (ctx: Context, op: Op, body: Body): ReadonlyArray<Probe> => {
  if (op.kind !== "list") return []
  const decodes = decodesFor(op)
  const filters: ReadonlyArray<readonly [ContractRules.LatitudeName, string, unknown]> = [
    ["reject-empty-filter", "an empty filter", {}],
    [
      "strict-time-filter",
      "created_at compared with text that is not a timestamp",
      { field: { key: "created_at", operator: "lower_than", value: stringValue("not-a-time") } }
    ],
    [
      "strict-filter-types",
      "a string operator on a boolean key",
      { field: { key: "termination_protection", operator: "contains", value: stringValue("tru") } }
    ]
  ]
  return filters.flatMap(([latitude, what, filter]): ReadonlyArray<Probe> => {
    const sent = { ...body, limit: 10, filter }
    return decodes(sent)
      ? [
          single(
            ctx,
            what,
            latitude,
            post(op.path, sent),
            servedOrInvalidRead(op, what, ctx.skewMillis)
          )
        ]
      : []
  })
}

/** The first page's `nextCursor`, when the answer is a 200 that has one. */
const nextCursorOf = (e: Exchange): string | undefined => {
  const json = Option.getOrUndefined(
    Option.flatMap(
      Option.filter(e.response, (r) => r.status === 200),
      (r) => r.json
    )
  )
  const cursor = asRecord(asRecord(json)?.listMetadata)?.nextCursor
  return typeof cursor === "string" && cursor !== "" ? cursor : undefined
}

/** A letter or digit in the names of the most items (case aside), when at least two have one: a search that keeps several items. */
const commonTerm = (rows: ReadonlyArray<Row>): string | undefined => {
  const names = rows.map((r) => textOf(r, "name").toLowerCase())
  let best: string | undefined
  let most = 1
  for (const c of "abcdefghijklmnopqrstuvwxyz0123456789") {
    const n = names.filter((name) => name.includes(c)).length
    if (n > most) [best, most] = [c, n]
  }
  return best
}

/** The space of the most items, when at least two share one. */
const commonSpace = (rows: ReadonlyArray<Row>): string | undefined => {
  const counts = new Map<string, number>()
  for (const r of rows) {
    const space = textOf(r, "space_id")
    if (space !== "") counts.set(space, (counts.get(space) ?? 0) + 1)
  }
  const [space, n] = [...counts].reduce<readonly [string | undefined, number]>(
    (best, entry) => (entry[1] > best[1] ? entry : best),
    [undefined, 1]
  )
  return n > 1 ? space : undefined
}

/** The walk parameters a cursor may be bound to (decisions.md section 10), each with a value that keeps several items of a list. */
const WALK_PARAMETERS: ReadonlyArray<readonly [string, (rows: ReadonlyArray<Row>) => unknown]> = [
  ["order", () => "desc"],
  ["search", commonTerm],
  // Every item has an id: a filter that keeps everything under every reading.
  ["filter", () => ({ field: { key: "id", operator: "not_empty" } })],
  ["spaceId", commonSpace]
]

/**
 * Sends `first`, then `later` with the cursor `first`'s answer gave: the later page is served (any
 * well-formed page of `limit` 1) or the cursor refused with invalid_argument (decisions.md section
 * 10, cursor-bound).
 */
const carried = (ctx: Context, op: Op, what: string, first: Body, later: Body) =>
  Effect.gen(function* () {
    const cursor = nextCursorOf(yield* send(ctx, post(op.path, first)))
    if (cursor === undefined) return []
    const e = yield* send(ctx, post(op.path, { ...later, cursor }))
    const json = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
    const page =
      Inspect.statusOf(e) === 200 && json !== undefined ? pageRules(1, pageOf(op, json), e) : []
    return [
      ...answered("cursor-bound", e),
      ...servedOrInvalidRead(op, what, ctx.skewMillis)(e),
      ...page
    ]
  })

/**
 * The probes of a cursor used with another request than the one that produced it: the first
 * page of a walk with one walk parameter set, then its `nextCursor` sent without that parameter.
 * A server continues the walk (any well-formed page) or refuses the cursor with invalid_argument.
 * The parameter is left out rather than changed, so that no reading of the later page (the old
 * walk or the new request) is a search or filter the answer must match.
 */
export const cursorProbes = (ctx: Context, op: Op): ReadonlyArray<Probe> => {
  if (op.kind !== "list") return []
  const base = requiredRefs(op, ctx.pools, 0)
  if (base === undefined) return []
  const props = requestPropertyNames(op)
  const decodes = decodesFor(op)
  const reference = everything(ctx, op)
  const params = WALK_PARAMETERS.filter(([param]) => props.includes(param))
  // The other way: the cursor of a walk's next-to-last item, sent with a parameter added that keeps
  // only the first item (a filter) or some items: the later walk may have nothing after the cursor.
  const added = [
    ...params.map((p) => [...p, "asc"] as const),
    ...params.filter(([param]) => param === "filter").map((p) => [...p, "desc"] as const)
  ].map(([param, valueFor, order]): Probe => {
    const what = `the cursor near the end of a walk (${order}), sent with ${param} added`
    return {
      name: what,
      latitude: "cursor-bound",
      run: Effect.gen(function* () {
        const all = yield* reference(base)
        if (all.error !== undefined || !all.ended || all.items.length < 3) return []
        const rows = all.items.map((x) => rowOf(op, x))
        // The filter keeps the item the walk shows first, which the cursor is past.
        const first = order === "asc" ? all.items[0]! : all.items[all.items.length - 1]!
        const value =
          param === "filter"
            ? { field: { key: "id", operator: "equals", value: stringValue(String(first.id)) } }
            : valueFor(rows)
        const ordered = order === "asc" ? {} : { order }
        const later = { ...base, limit: 1, ...ordered, [param]: value }
        if (value === undefined || !decodes(later)) return []
        return yield* carried(
          ctx,
          op,
          `${what} (${show(value)})`,
          { ...base, ...ordered, limit: all.items.length - 1 },
          later
        )
      })
    }
  })
  return [
    ...added,
    ...params.map(([param, valueFor]): Probe => {
      const what = `the cursor of a walk with ${param} set, sent without it`
      return {
        name: what,
        latitude: "cursor-bound",
        run: Effect.gen(function* () {
          const all = yield* reference(base)
          const value =
            all.error === undefined ? valueFor(all.items.map((x) => rowOf(op, x))) : undefined
          const first = { ...base, limit: 1, [param]: value }
          if (value === undefined || !decodes(first)) return []
          return yield* carried(ctx, op, `${what} (${show(first[param])})`, first, {
            ...base,
            limit: 1
          })
        })
      }
    })
  ]
}

/**
 * The probe of a read whose parent id names nothing (ListNativeUsers' `resourceId`,
 * GetEncryptionKeysByKeyId's `keyId`): a server answers not_found, or an empty page or array
 * (decisions.md section 10), a well-formed one; never items, never another refusal.
 */
export const parentProbes = (ctx: Context, op: Op): ReadonlyArray<Probe> => {
  const field =
    op.kind === "list" && op.parent?.required === true
      ? op.parent.field
      : op.kind === "get" && requestPropertyNames(op).includes("keyId")
        ? "keyId"
        : undefined
  if (field === undefined) return []
  const what = `${field} naming nothing`
  const sent: Body = {
    ...(op.kind === "list" ? { limit: 10 } : {}),
    [field]: `ct-missing-${ctx.runId}`
  }
  const rule: ContractRules.RuleId = op.kind === "list" ? "lists.parent-scope" : "keys.by-key-id"
  return [
    single(ctx, what, "parent-not-found", post(op.path, sent), (e) => {
      if (Inspect.statusOf(e) !== 200)
        return defined(
          unknownReferenceRefused(e, what, "a server answers not_found or an empty answer")
        )
      const verdict = parentNamesNothing(op, e, what, rule)
      return verdict === undefined
        ? []
        : [...Inspect.basic(op, e, ctx.skewMillis).filter((o) => !o.ok), verdict]
    })
  ]
}
