/**
 * Which suites a run runs, grouped by operation: the suites of every selected operation that
 * report on a selected check, the whole API's suites last. An Update operation touches a few
 * existing objects only, and puts each back once its suites are done.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Secrets } from "@data-access/schema"
import type * as Checks from "@data-access/schema/ContractChecks"
import type { Context, Op, Suite } from "../context.js"
import { globalSuites, suitesOf } from "../families/index.js"
import { post, type Target } from "../http.js"
import { identifierOf } from "../ast.js"
import { poolOfOperation, referenceOf, requestPropertyNames } from "../pools.js"
import { okJson } from "./discovery.js"
import { allOps } from "./options.js"
import { accepts, isEncoded } from "../schemas.js"

/** Existing objects an update operation may change (each put back afterwards). */
const UPDATE_TARGETS = 5

/** The suites of one operation (`_`: the whole API), run in order. */
export interface Group {
  readonly method: string
  /** Whether its requests create or change objects (such groups run first). */
  readonly writes: boolean
  /** Whether its suites change the same objects, and so run one after the other (an Update's). */
  readonly ordered: boolean
  readonly suites: ReadonlyArray<Suite>
  /** Ids of the objects an Update operation may change, put back afterwards. */
  readonly restore?: ReadonlyArray<string>
}

/**
 * The groups of a run: the selected operations in table order, then the whole API's suites when
 * no operation was named.
 */
export const plan = (
  ctx: Context,
  methods: ReadonlySet<string>,
  selected: ReadonlySet<Checks.CheckId>,
  allOperations: boolean
): Array<Group> => {
  const relevant = (s: Suite) => s.checks.some((c) => selected.has(c))
  const groups: Array<Group> = []
  for (const op of allOps) {
    if (!methods.has(op.method)) continue
    // Updates touch at most UPDATE_TARGETS existing objects, put back once the operation is done.
    const pool = op.kind === "update" ? poolOfOperation(op) : undefined
    const targets =
      pool === undefined ? undefined : (ctx.pools.ids[pool] ?? []).slice(0, UPDATE_TARGETS)
    const opCtx =
      pool === undefined || targets === undefined
        ? ctx
        : { ...ctx, pools: { ...ctx.pools, ids: { ...ctx.pools.ids, [pool]: targets } } }
    const suites = suitesOf(op, opCtx, selected).filter(relevant)
    if (suites.length > 0) {
      groups.push({
        method: op.method,
        writes: op.kind === "create" || op.kind === "update",
        ordered: op.kind === "update",
        suites,
        ...(targets && !ctx.readOnly ? { restore: targets } : {})
      })
    }
  }
  const global = globalSuites(ctx, selected).filter(relevant)
  if (global.length > 0 && allOperations)
    groups.push({ method: "_", writes: false, ordered: false, suites: global })
  return groups
}

/**
 * The kinds of object an operation's requests are about: its own objects', and those its `…Id`
 * fields name (a parent, a scope, a reference), by their names' stems (`spaceId` → `space`).
 */
const kindsRead = (op: Op): ReadonlySet<string> => {
  const own = identifierOf(op.object.ast) ?? op.method
  const kinds = new Set([own.charAt(0).toLowerCase() + own.slice(1)])
  for (const field of requestPropertyNames(op)) {
    const m = /^([a-z][A-Za-z]*)Id$/.exec(field)
    if (m !== null) kinds.add(m[1]!)
    if (referenceOf(op, field)?._tag === "User") kinds.add("user")
  }
  return kinds
}

/** Each operation's kinds, read once: every unit of a run asks which writes it waits for. */
const kindsByOp = new WeakMap<Op, ReadonlySet<string>>()
const kindsOf = (op: Op): ReadonlySet<string> => {
  let kinds = kindsByOp.get(op)
  if (kinds === undefined) kindsByOp.set(op, (kinds = kindsRead(op)))
  return kinds
}

/**
 * Whether what a write operation changes may show in a read group's answers: they share a kind
 * of object (the whole API's suites read every kind).
 */
const sees = (read: Group, write: Op): boolean => {
  const op = allOps.find((o) => o.method === read.method)
  if (op === undefined) return true
  const kinds = kindsOf(op)
  return [...kindsOf(write)].some((k) => kinds.has(k))
}

/** The write groups of `groups` whose changes a read group may see: its reads wait for them. */
export const writesSeenBy = (read: Group, groups: ReadonlyArray<Group>): Array<Group> =>
  groups.filter(
    (g) =>
      g.writes &&
      sees(
        read,
        allOps.find((o) => o.method === g.method)!
      )
  )

/**
 * Whether any write operation of the API may change what a read group reads: the group waits for
 * the writes of every thread of a run in workers, whichever thread runs them.
 */
export const seesWrites = (read: Group): boolean =>
  allOps.some((o) => (o.kind === "create" || o.kind === "update") && sees(read, o))

/** One of `total` shares of a run (`index` from 1): its suites, the same on every machine. */
export interface Shard {
  readonly index: number
  readonly total: number
}

/**
 * The groups with only the suites of `shard`: the plan's units, in plan order, dealt out in turn to
 * the shares, so that every machine keeps the same ones and the shares are even. A unit is a suite,
 * or a whole ordered group (an Update operation's suites change the same few objects: one share
 * runs them all, in order). A group left with no suite is dropped.
 */
export const shareOf = (groups: ReadonlyArray<Group>, shard: Shard | undefined): Array<Group> => {
  if (shard === undefined) return [...groups]
  let next = 0
  const mine = () => next++ % shard.total === shard.index - 1
  return groups.flatMap((g) => {
    const suites = g.ordered ? (mine() ? g.suites : []) : g.suites.filter(mine)
    return suites.length === 0 ? [] : [{ ...g, suites }]
  })
}

/**
 * The objects of `group.restore` a case changes: those its value names (an update's `id`), or all
 * of them when it names none.
 */
export const objectsOfCase = (
  group: Group
): ((a: unknown) => ReadonlyArray<string>) | undefined => {
  if (group.restore === undefined || group.restore.length === 0) return undefined
  const all = group.restore
  const ids = new Set(all)
  return (a) => {
    const found = new Set<string>()
    const visit = (v: unknown): void => {
      if (typeof v === "string") {
        if (ids.has(v)) found.add(v)
      } else if (Array.isArray(v)) v.forEach(visit)
      else if (typeof v === "object" && v !== null) Object.values(v).forEach(visit)
    }
    visit(a)
    return found.size === 0 ? all : [...found]
  }
}

/**
 * The update that puts an object back: its current values of the fields the update request can
 * set (secrets left out: they cannot be read back). An update with only the id reads it.
 */
const snapshot = (target: Target, op: Op, id: string) =>
  Effect.gen(function* () {
    const e = yield* target.send(post(op.path, { id }))
    const json = okJson(e)
    const raw =
      op.wrapperKey === undefined
        ? json
        : (json as Record<string, unknown> | undefined)?.[op.wrapperKey]
    const full = Option.getOrUndefined(
      Option.flatMap(Schema.decodeUnknownOption(op.object)(raw), (a) =>
        Schema.encodeOption(op.object)(a)
      )
    ) as Record<string, unknown> | undefined
    if (full === undefined) return undefined
    const body: Record<string, unknown> = { id }
    const valid = isEncoded(op.request.ast)
    const decodes = accepts(op.request)
    for (const k of requestPropertyNames(op)) {
      if (k === "id" || !(k in full) || Secrets.fieldNames.has(k)) continue
      const v = full[k]
      if (typeof v === "object" && v !== null) continue
      if (valid({ id, [k]: v }) && decodes({ id, [k]: v })) body[k] = v
    }
    return body
  })

/** Runs `suites` with the objects of `group.restore` read before and put back after. */
export const withRestore = <E, R>(
  target: Target,
  group: Group,
  suites: Effect.Effect<void, E, R>
): Effect.Effect<void, E, R> => {
  if (group.restore === undefined || group.restore.length === 0) return suites
  const restore = group.restore
  return Effect.gen(function* () {
    const op = allOps.find((o) => o.method === group.method)!
    const saved = yield* Effect.forEach(restore, (id) =>
      Effect.orElseSucceed(snapshot(target, op, id), () => undefined)
    )
    const putBack = Effect.forEach(
      saved,
      (body) =>
        body === undefined ? Effect.void : Effect.ignore(target.send(post(op.path, body))),
      { discard: true }
    )
    yield* suites.pipe(Effect.ensuring(putBack))
  })
}
