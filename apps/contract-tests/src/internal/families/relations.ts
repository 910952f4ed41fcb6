/**
 * Relations between operations, and the edge states of a list, that generated single requests
 * never reach. Each is a general rule over the operation table (kinds, objects, parents):
 *
 * - **created**: what a create makes is in the Lists of its kind (found by its id, the whole object
 *   equal to what the create returned, zero values and secret fields aside), found by a `search`
 *   and a `filter` on its name, and returned by the Get of its kind;
 * - **updated**: what an update changes shows in the Lists of its kind (the whole object, its new
 *   `updatedAt` included), and their `search`, `filter` and parent scope select the object by the
 *   new value, never by the old one;
 * - **edges**: walks that end on a full page, one short of a full page, one item a page, and on no
 *   items (a search or a filter that matches nothing, a parent with no items).
 *
 * Creates count against `--creates-per-operation` (`relationCreates`); `--read-only` skips the
 * suites that write. Updates put back what they changed.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { type ContractRules, Filter, Operations, Secrets } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  fullObject,
  objectOf,
  type Op,
  send,
  show,
  skipped,
  type Suite,
  uniqueNames
} from "../context.js"
import * as Gen from "../generate.js"
import { type Exchange, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { asRecord } from "../json.js"
import {
  cursorRules,
  nonMatching,
  orderFailure,
  orderObservable,
  outOfOrder,
  pageRules,
  selection,
  storedDifference
} from "../oracles.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { referenceOf, requestPropertyNames, valuesOf } from "../pools.js"
import {
  everything,
  findById,
  MAX_WALK_PAGES,
  missingReference,
  pagesFor,
  requiredRefs,
  type Walk,
  walk,
  walkFailure
} from "../walk.js"

const all = Operations.all as ReadonlyArray<Op>

/** The Lists that return the objects an operation makes or changes. */
const listReaders = (op: Op): ReadonlyArray<Op> =>
  all.filter((o) => o.kind === "list" && o.object === op.object)

/** The Gets by `id` that return the objects an operation makes. */
const getReaders = (op: Op): ReadonlyArray<Op> =>
  all.filter(
    (o) =>
      o.kind === "get" &&
      o.object === op.object &&
      o.lookupKey === undefined &&
      requestPropertyNames(o).includes("id")
  )

/**
 * How many objects a Create operation makes for its relations (out of `--creates-per-operation`;
 * the valid requests get the rest): none for an operation whose objects nothing reads back.
 */
export const relationCreates = (op: Op, ctx: Context): number =>
  op.kind !== "create" || listReaders(op).length + getReaders(op).length === 0
    ? 0
    : Math.min(2, Math.floor(ctx.createExamples / 4))

/** The object of a 200 answer, every default filled in. */
const objectIn = (op: Op, e: Exchange): Record<string, unknown> | undefined =>
  Option.getOrUndefined(
    Option.flatMap(e.response, (r) =>
      r.status === 200
        ? Option.map(r.json, (j) => fullObject(op.object, objectOf(op, j)))
        : Option.none()
    )
  ) ?? undefined

/** The value at a dotted path of `storedDifference`. */
const at = (o: Record<string, unknown>, path: string): unknown =>
  path
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== "")
    .reduce<unknown>((v, k) => (Array.isArray(v) ? v[Number(k)] : asRecord(v)?.[k]), o)

const lastOf = (w: Walk): Exchange | undefined => w.pages[w.pages.length - 1]?.exchange ?? w.error

const has = (w: Walk, id: string) => w.items.some((x) => x.id === id)

const condition = (key: string, value: string): Filter.Filter<string> => ({
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
 * from its request schema): a search in that field (or the default field, `name`), a filter
 * `equals` on it, its parent scope.
 */
const probesOf = (list: Op, base: Body, field: string, value: string): ReadonlyArray<Probe> => {
  const out: Array<Probe> = []
  const props = requestPropertyNames(list)
  if (props.includes("search")) {
    if (Gen.isValid(list, { ...base, limit: 1, search: value, searchFields: [field] }))
      out.push({
        label: `search in ${field}`,
        body: { search: value, searchFields: [field] },
        rule: "search.match"
      })
    else if (field === "name" && Gen.isValid(list, { ...base, limit: 1, search: value }))
      out.push({ label: "search", body: { search: value }, rule: "search.match" })
  }
  const filter = condition(snake(field), value)
  if (props.includes("filter") && Gen.isValid(list, { ...base, limit: 1, filter }))
    out.push({ label: `filter ${snake(field)} equals`, body: { filter }, rule: "filter.match" })
  if (list.parent !== undefined && list.parent.field === field && !list.parent.required)
    out.push({ label: field, body: { [field]: value }, rule: "lists.space-scope" })
  return out
}

/** A List's required references, its required parent taken from `object` when it names one. */
const baseFor = (list: Op, ctx: Context, object: Record<string, unknown>): Body | undefined => {
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

// ---------------------------------------------------------------------------------------------
// created
// ---------------------------------------------------------------------------------------------

const CREATED: ReadonlyArray<CheckId> = ["create-echo", "search-filter"]

const createdSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "create" || listReaders(op).length + getReaders(op).length === 0) return undefined
  if (ctx.readOnly) return skipped("created", op.method, CREATED, true, "read-only mode")
  const n = relationCreates(op, ctx)
  if (n === 0)
    return skipped(
      "created",
      op.method,
      CREATED,
      true,
      "--creates-per-operation leaves no create to read back"
    )
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("created", op.method, CREATED, true, g.reason)
  return {
    family: "created",
    method: op.method,
    checks: CREATED,
    writes: true,
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: n },
    run: (generated: Body) =>
      Effect.gen(function* () {
        const e = yield* send(ctx, post(op.path, uniqueNames(op, generated)))
        const created = objectIn(op, e)
        // A create refused is the valid family's to judge.
        if (created === undefined || typeof created.id !== "string" || created.id === "") return []
        const id = created.id
        const out: Array<Outcome> = []
        const judged = new Set<ContractRules.RuleId>()
        const differs = (
          reader: string,
          got: Record<string, unknown>,
          ex: Exchange | undefined
        ) => {
          const d = storedDifference(created, got)
          judged.add("echo.create-stored")
          if (d !== undefined) {
            out.push(
              fail(
                "echo.create-stored",
                `${reader} shows another object`,
                `${reader} shows the created object ${id} with ${d} ${show(at(got, d))}, the create returned ${show(at(created, d))}`,
                ex,
                `${d} = ${show(at(got, d))}`
              )
            )
          }
        }
        for (const get of getReaders(op)) {
          const eg = yield* send(ctx, post(get.path, { id }))
          const got = objectIn(get, eg)
          if (got !== undefined) differs(get.method, got, eg)
          else if (Inspect.codeOf(eg) === "not_found")
            out.push(
              fail(
                "echo.create-stored",
                `${get.method} does not find it`,
                `${get.method} of the created object ${id} answered not_found`,
                eg
              )
            )
        }
        for (const list of listReaders(op)) {
          const base = baseFor(list, ctx, created)
          if (base === undefined) continue
          const found = yield* findById(ctx, list, id, base)
          const listed = found.item === undefined ? undefined : fullObject(list.object, found.item)
          if (listed === undefined) {
            if (found.walk.ended)
              out.push(
                fail(
                  "echo.create-stored",
                  `${list.method} misses the created object`,
                  `${list.method} does not list the created object ${id}`,
                  lastOf(found.walk)
                )
              )
            continue
          }
          differs(list.method, listed, lastOf(found.walk))
          const name = created.name
          if (typeof name !== "string" || name === "") continue
          for (const probe of probesOf(list, base, "name", name)) {
            const body = { ...base, limit: 500, ...probe.body }
            const w = yield* walk(ctx, list, body, MAX_WALK_PAGES)
            if (w.error !== undefined || !w.ended) continue
            judged.add(probe.rule)
            if (!has(w, id))
              out.push(
                fail(
                  probe.rule,
                  `${probe.label} misses a created object`,
                  `${probe.label} ${JSON.stringify(name)} (the name of the object just created) does not return it (${id})`,
                  lastOf(w)
                )
              )
            const s = selection(list, body)
            const wrong =
              s === undefined ? undefined : nonMatching(list, s, w.items, lastOf(w), probe.label)
            if (wrong !== undefined) out.push(wrong)
          }
        }
        if (out.length > 0) return out
        const rules = [...judged]
        return [
          ...(rules.includes("echo.create-stored")
            ? [pass("create-echo", ["echo.create-stored"])]
            : []),
          ...(rules.some((r) => r !== "echo.create-stored")
            ? [
                pass(
                  "search-filter",
                  rules.filter((r) => r !== "echo.create-stored")
                )
              ]
            : [])
        ]
      })
  }
}

// ---------------------------------------------------------------------------------------------
// updated
// ---------------------------------------------------------------------------------------------

const UPDATED: ReadonlyArray<CheckId> = ["update-semantics"]

const nonce = { n: 0 }

const updatedSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "update") return undefined
  const lists = listReaders(op)
  if (lists.length === 0) return undefined
  // The string fields some List selects by (a search, a filter key, a parent).
  const fields = requestPropertyNames(op).filter(
    (f) =>
      f !== "id" &&
      !Secrets.fieldNames.has(f) &&
      lists.some((l) => probesOf(l, requiredRefs(l, ctx.pools, 0) ?? {}, f, "x").length > 0)
  )
  if (fields.length === 0) return undefined
  if (ctx.readOnly) return skipped("updated", op.method, UPDATED, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("updated", op.method, UPDATED, true, g.reason)
  return {
    family: "updated",
    method: op.method,
    checks: UPDATED,
    writes: true,
    skip: undefined,
    cases: {
      _tag: "Property",
      arbitrary: fc.record({ body: g.arbitrary, field: fc.nat(), pick: fc.nat() }),
      examples: Math.max(2, Math.ceil(ctx.examples / 10))
    },
    run: ({ body: generated, field: f, pick }: { body: Body; field: number; pick: number }) =>
      Effect.gen(function* () {
        const id = generated.id
        if (typeof id !== "string") return []
        const before = objectIn(op, yield* send(ctx, post(op.path, { id })))
        if (before === undefined) return []
        // A new value for each field: another existing object for a reference, fresh text otherwise.
        const newValue = (field: string): string | undefined => {
          const old = before[field]
          if (typeof old !== "string" && old !== undefined) return undefined
          const ref = referenceOf(op, field)
          if (ref !== undefined) {
            // Putting back an empty reference is a choice of decisions.md section 10 (`spaceId: ""`): only objects that have one.
            if (old === undefined || old === "") return undefined
            const others = valuesOf(ctx.pools, ref).filter((v) => v !== old)
            return others.length === 0 ? undefined : others[pick % others.length]
          }
          const text = `${Gen.namePrefix(ctx.runId)}u${(++nonce.n).toString(36)}`
          return Gen.isValid(op, { id, [field]: text }) ? text : undefined
        }
        const choices = fields.flatMap((field) => {
          const value = newValue(field)
          return value === undefined ? [] : [{ field, value }]
        })
        if (choices.length === 0) return []
        const { field, value } = choices[f % choices.length]!
        const old = typeof before[field] === "string" ? (before[field] as string) : ""
        const e1 = yield* send(ctx, post(op.path, { id, [field]: value }))
        const after = objectIn(op, e1)
        // An update refused or not applied is the updates family's to judge.
        if (after === undefined || after[field] !== value) return []
        const out: Array<Outcome> = []
        for (const list of lists) {
          const base = baseFor(list, ctx, after)
          if (base === undefined) continue
          const found = yield* findById(ctx, list, id, base)
          const listed = found.item === undefined ? undefined : fullObject(list.object, found.item)
          if (listed !== undefined) {
            const d = storedDifference(after, listed)
            if (d !== undefined) {
              out.push(
                fail(
                  "updates.listed",
                  `${list.method} shows another ${d.replace(/\[\d+\]/g, "[]")}`,
                  `after the update of ${field}, ${list.method} shows ${d} ${show(at(listed, d))}, the update returned ${show(at(after, d))}`,
                  lastOf(found.walk),
                  `${d} = ${show(at(listed, d))}`
                )
              )
            }
          }
          for (const probe of probesOf(list, base, field, value)) {
            const body = { ...base, limit: 500, ...probe.body }
            const w = yield* walk(ctx, list, body, MAX_WALK_PAGES)
            if (w.error !== undefined || !w.ended) continue
            if (!has(w, id))
              out.push(
                fail(
                  "updates.listed",
                  `${probe.label} by the new value misses it`,
                  `after ${id}'s ${field} became ${show(value)}, ${list.method} with ${probe.label} ${show(value)} does not return it`,
                  lastOf(w)
                )
              )
            const s = selection(list, body)
            const wrong =
              s === undefined ? undefined : nonMatching(list, s, w.items, lastOf(w), probe.label)
            if (wrong !== undefined) out.push(wrong)
          }
          if (old === "") continue
          for (const probe of probesOf(list, base, field, old)) {
            // The old value still selects the object when the new one contains it (search) or equals it in another case (filter).
            if (
              probe.rule === "search.match"
                ? value.toLowerCase().includes(old.toLowerCase())
                : value.toLowerCase() === old.toLowerCase()
            )
              continue
            const w = yield* walk(ctx, list, { ...base, limit: 500, ...probe.body }, MAX_WALK_PAGES)
            if (w.error !== undefined || !w.ended) continue
            if (has(w, id))
              out.push(
                fail(
                  "updates.listed",
                  `${probe.label} by the old value finds it`,
                  `after ${id}'s ${field} changed from ${show(old)} to ${show(value)}, ${list.method} with ${probe.label} ${show(old)} still returns it`,
                  lastOf(w)
                )
              )
          }
        }
        // Put back what was changed.
        if (Gen.isValid(op, { id, [field]: old }))
          yield* send(ctx, post(op.path, { id, [field]: old }))
        return out.length === 0 ? [pass("update-semantics", ["updates.listed"])] : out
      })
  }
}

// ---------------------------------------------------------------------------------------------
// edges of a list
// ---------------------------------------------------------------------------------------------

const EDGES: ReadonlyArray<CheckId> = ["paging", "search-filter"]

/** At most this many pages in an edge walk (one item a page walks at most this many items). */
const EDGE_PAGES = 12

type Edge = "full" | "short" | "one" | "no-match-search" | "no-match-filter" | "no-items-parent"

/** A limit with which the walk ends on a full page (`total` a multiple of it), in at most EDGE_PAGES pages. */
const fullLimit = (total: number): number | undefined => {
  for (let l = Math.max(1, Math.ceil(total / EDGE_PAGES)); l <= Math.min(total, 500); l++)
    if (total % l === 0) return l
  return undefined
}

/** A limit with which the last page holds one item less than it (at least 2). */
const shortLimit = (total: number): number | undefined => {
  for (let l = Math.max(2, Math.ceil((total + 1) / EDGE_PAGES)); l <= 500; l++)
    if ((total + 1) % l === 0) return l
  return undefined
}

const edgesSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "list") return undefined
  if (requiredRefs(op, ctx.pools, 0) === undefined)
    return skipped(
      "edges",
      op.method,
      EDGES,
      false,
      missingReference(op, ctx.pools) ?? "missing references"
    )
  const props = requestPropertyNames(op)
  const base0 = requiredRefs(op, ctx.pools, 0)!
  const nothing = `ct-none-${ctx.runId}-qz`
  const edges: ReadonlyArray<Edge> = [
    "full",
    "short",
    "one",
    ...(props.includes("search") ? (["no-match-search"] as const) : []),
    ...(props.includes("filter") &&
    Gen.isValid(op, { ...base0, limit: 1, filter: condition("name", nothing) })
      ? (["no-match-filter"] as const)
      : []),
    ...(op.parent?.required === true ? (["no-items-parent"] as const) : [])
  ]
  const reference = everything(ctx, op)
  return {
    family: "edges",
    method: op.method,
    checks: EDGES,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Enumerated",
      count: edges.length * 2,
      at: (i: number) => ({ edge: edges[Math.floor(i / 2)]!, order: i % 2 === 0 ? "asc" : "desc" })
    },
    run: ({ edge, order }: { edge: Edge; order: "asc" | "desc" }) =>
      Effect.gen(function* () {
        let base = base0
        if (edge === "no-items-parent") {
          // A parent with no items, among the first few known (none may be known).
          const parent = op.parent!
          let empty: Body | undefined
          for (let n = 0; n < 6 && empty === undefined; n++) {
            const b = requiredRefs(op, ctx.pools, n)!
            if (n > 0 && b[parent.field] === base0[parent.field]) break
            const w = yield* reference(b)
            if (w.error === undefined && w.ended && w.items.length === 0) empty = b
          }
          if (empty === undefined) return []
          base = empty
        }
        const listed = yield* reference(base)
        if (listed.error !== undefined) return walkFailure(listed)
        if (!listed.ended) return []
        const total = listed.items.length
        const empty =
          edge === "no-match-search" || edge === "no-match-filter" || edge === "no-items-parent"
        const limit =
          edge === "full"
            ? fullLimit(total)
            : edge === "short"
              ? shortLimit(total)
              : edge === "one"
                ? 1
                : 5
        if (limit === undefined) return []
        const body: Body = { ...base, limit, order }
        if (edge === "no-match-search") {
          if (
            listed.items.some(
              (x) => typeof x.name === "string" && x.name.toLowerCase().includes(nothing)
            )
          )
            return []
          body.search = nothing
        } else if (edge === "no-match-filter") {
          if (listed.items.some((x) => x.name === nothing)) return []
          body.filter = condition("name", nothing)
        }
        // Room for an empty page after a full last one; one item a page walks at most EDGE_PAGES items to their end.
        const maxPages = empty ? 3 : pagesFor(edge === "one" ? Math.min(total, EDGE_PAGES) : total)
        const w = yield* walk(ctx, op, body, maxPages)
        if (w.error !== undefined) return walkFailure(w)
        const out: Array<Outcome> = []
        for (const p of w.pages) out.push(...pageRules(limit, p, p.exchange))
        out.push(...cursorRules(limit, w.pages))
        const last = lastOf(w)
        const seen = new Set<string>()
        const twice = w.items
          .map((x) => String(x.id))
          .find((id) => (seen.has(id) ? true : (seen.add(id), false)))
        if (twice !== undefined)
          out.push(
            fail(
              "lists.walk-once",
              "item returned twice",
              `item ${twice} came back twice in one walk (limit ${limit}, ${order})`,
              last
            )
          )
        const pair = outOfOrder(op, w.items, order)
        if (pair !== undefined)
          out.push(
            orderFailure(pair, order, w.pages.find((p) => p.items.includes(pair[1]))?.exchange)
          )
        const judged: Array<ContractRules.RuleId> = [
          "lists.count",
          "lists.limit-respected",
          "lists.after-before",
          "lists.next-cursor",
          "lists.walk-once",
          ...(orderObservable(op) ? (["lists.order"] as const) : [])
        ]
        if (empty) {
          // Nothing matches: the oracle of the selection judges any item returned.
          const s = selection(op, body)
          const wrong = s === undefined ? undefined : nonMatching(op, s, w.items, last, edge)
          if (wrong !== undefined) out.push(wrong)
          if (out.length > 0) return out
          return [
            pass("paging", [...judged, "lists.empty-page"]),
            ...(s === undefined ? [] : [pass("search-filter", [s.rule])])
          ]
        }
        const complete = edge !== "one" || total <= EDGE_PAGES
        if (!w.ended) {
          if (complete)
            out.push(
              fail(
                "lists.walk-once",
                "walk does not end",
                `walking ${total} items with limit ${limit} (${order}) did not end after ${w.pages.length} pages`,
                last
              )
            )
        } else {
          const got = new Set(w.items.map((x) => String(x.id)))
          let missing = listed.items.map((x) => String(x.id)).filter((id) => !got.has(id))
          if (missing.length > 0) {
            // Someone else may have created objects meanwhile (a shared environment): only items in two reads of everything count.
            const again = yield* walk(ctx, op, { ...base, limit: 500 }, MAX_WALK_PAGES)
            if (again.error === undefined && again.ended)
              missing = missing.filter((id) => again.items.some((x) => x.id === id))
          }
          if (missing.length > 0) {
            const lastPage = w.pages[w.pages.length - 1]
            const stoppedFull = lastPage !== undefined && lastPage.items.length === limit
            out.push(
              stoppedFull
                ? fail(
                    "lists.next-cursor",
                    "no nextCursor while more items follow",
                    `a full page (limit ${limit}, ${order}) has no nextCursor, but ${missing.length} of ${total} items follow (e.g. ${missing[0]})`,
                    last
                  )
                : fail(
                    "lists.walk-complete",
                    "walk misses items",
                    `walking the pages (limit ${limit}, ${order}) missed ${missing.length} of ${total} items (e.g. ${missing[0]})`,
                    last
                  )
            )
          }
          judged.push("lists.walk-complete")
        }
        return out.length === 0 ? [pass("paging", judged)] : out
      })
  }
}

// ---------------------------------------------------------------------------------------------
// reads by another key, and the user a password is for
// ---------------------------------------------------------------------------------------------

const KEYED: ReadonlyArray<CheckId> = ["search-filter"]

/** A Get by another field than `id` (GetEncryptionKeysByKeyId's `keyId`): each known value finds its objects. */
const keyedSuite = (op: Op, ctx: Context): Suite | undefined => {
  const lookup = op.lookupKey
  if (op.kind !== "get" || lookup === undefined) return undefined
  const ref = referenceOf(op, lookup)
  const values = (ref === undefined ? [] : valuesOf(ctx.pools, ref)).slice(0, 3)
  if (values.length === 0)
    return skipped("keyed", op.method, KEYED, false, `no known ${lookup} in the fixtures`)
  return {
    family: "keyed",
    method: op.method,
    checks: KEYED,
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: values.length, at: (i: number) => values[i] },
    run: (value: string) =>
      Effect.map(send(ctx, post(op.path, { [lookup]: value })), (e) => {
        const status = Inspect.statusOf(e)
        if (status !== 200 && Inspect.codeOf(e) !== "not_found") return []
        const found = Option.getOrUndefined(Option.flatMap(e.response, (r) => r.json))
        const items = status === 200 ? objectOf(op, found) : undefined
        const hit = Array.isArray(items) && items.some((x) => asRecord(x)?.[lookup] === value)
        return hit
          ? [pass("search-filter", ["keys.known-key-id"])]
          : [
              fail(
                "keys.known-key-id",
                "a known key not found",
                `${op.method} with the ${lookup} ${JSON.stringify(value)} of an existing object answered ${status === 200 ? "no object with it" : "not_found"}`,
                e
              )
            ]
      })
  }
}

/**
 * The user a user operation's request names (CreateHumanUserPassword's `email`, `username` or
 * `id`), looked up in the known users: the answer's `username` is theirs.
 */
export const passwordUser = (
  op: Op,
  ctx: Context,
  sent: Body,
  e: Exchange
): Outcome | undefined => {
  if (op.oneOf === undefined) return undefined
  const variant = op.oneOf.find((f) => typeof sent[f] === "string" && sent[f] !== "")
  const ref = variant === undefined ? undefined : referenceOf(op, variant)
  if (variant === undefined || ref?._tag !== "User") return undefined
  const user = ctx.pools.users.find((u) => u[ref.field] === sent[variant])
  const got = objectIn(op, e)
  if (user === undefined || got === undefined || !("username" in got)) return undefined
  return got.username === user.username
    ? pass("create-echo", ["echo.password-user"])
    : fail(
        "echo.password-user",
        "another user's password",
        `a password for the user with ${variant} ${show(sent[variant])} came back for the username ${show(got.username)}; that user's username is ${show(user.username)}`,
        e,
        `username = ${show(got.username)}`
      )
}

export const relations: Family = {
  name: "relations",
  checks: ["create-echo", "search-filter", "update-semantics", "paging"],
  suites: (op, ctx) =>
    [createdSuite(op, ctx), updatedSuite(op, ctx), edgesSuite(op, ctx), keyedSuite(op, ctx)].filter(
      (s): s is Suite => s !== undefined
    )
}
