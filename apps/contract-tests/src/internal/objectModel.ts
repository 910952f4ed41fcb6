/**
 * A model of the objects a run (or the traffic a proxy relays) created or wrote: each object's
 * state as the last answer with no other write in flight showed it, and the times of its writes.
 * Every later answer that shows such an object (a create's or an update's answer, a Get, each List
 * item) is handed to the update-semantics oracle's `modelVerdict` with that state; an answer that
 * another write to the object overlaps in time may show either state, so it is not judged and the
 * state is read again from the next answer. One Map lookup per object an answer shows.
 *
 * It also follows the walks of a List (a first page, then each page asked with the `nextCursor`
 * of the one before and the same request): a walk that reaches its last page is judged against
 * the objects the run created of the List's kind (search-filter's `knownSelected`, create-echo's
 * `createdListed` for a walk that selects every item), once per walk.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import { Timestamp } from "@data-access/core"
import * as Decoder from "@data-access/core/Decoder"
import { ContractRules, Operations } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import type { Body, Op } from "./context.js"
import { objectOf, objectPropertyNames } from "./context.js"
import type { Exchange, RawRequest, Target } from "./http.js"
import { asRecord } from "./json.js"
import { compiledDecoder } from "./schemas.js"
import { operationOf } from "./answerReading.js"
import { itemsOf } from "./listWalk.js"
import { nestedOf } from "./nestedCopies.js"
import { createdListed } from "./oracles/create-echo.js"
import { knownSelected, selects } from "./oracles/search-filter.js"
import { unreadSuccess } from "./oracles/success-shape.js"
import { modelVerdict } from "./oracles/update-semantics.js"
import { isNote, type Outcome, type Verdict } from "./outcome.js"
import { requestPropertyNames } from "./pools.js"
import * as Shape from "./requestShape.js"

/** One write to an object: when it was sent and answered (`Infinity` while in flight). */
interface Write {
  readonly start: number
  end: number
}

/** What the model knows of one object. */
interface Entry {
  readonly schema: Op["object"]
  /** The object as the last answer judged alone showed it; `undefined` when a write left it unknown. */
  state: Record<string, unknown> | undefined
  /** The exchange that showed `state`, as a finding names it. */
  source: string
  /** The latest writes, the ones in flight among them. */
  writes: Array<Write>
  /** Whether the run (or the proxy's traffic) created it: no other client knows of it from the start. */
  readonly created: boolean
  /** When its create was answered (`Infinity` for an object the run did not create). */
  readonly since: number
  /** Whether another client was seen writing to it: its state is no ground for what a List must hold. */
  foreign: boolean
}

/** The objects of one kind the run created, and the creates of that kind (the ones in flight among them). */
interface Collection {
  /** The key of the kind, as a held failure of a walk and a create's write name it (`observe`). */
  readonly key: string
  readonly created: Map<string, Entry>
  readonly creates: Array<Write>
}

/** A walk of a List so far: its request without the cursor, when its first page was asked, the ids of its pages. */
interface Walking {
  readonly request: string
  readonly start: number
  readonly ids: ReadonlyArray<ReadonlyArray<string>>
}

/** The walks kept waiting for their next page: enough for the walks of concurrent cases. */
const MAX_WALKS = 64

/** The writes kept per object: enough to see every one that can still overlap an answer. */
const MAX_WRITES = 16

/** The model of one run or one proxy: `tracksWrites` also follows objects that were only written (not created) through it. */
export interface ObjectModel {
  readonly objects: Map<string, Entry>
  readonly tracksWrites: boolean
  /**
   * Whether another client was seen writing to the target (a read showed a later `updatedAt` with
   * no write of this run between): from then on only the objects the run created are judged, since
   * another client's write to an object the run only updated can fall between two of its answers.
   */
  othersWrite: boolean
  /** The run's name prefix (`ct-<runid>-`): a value written with another run's prefix is another client's write. */
  readonly ownPrefix: string | undefined
  /** The objects the run created, by kind. */
  readonly collections: Map<Op["object"], Collection>
  /** The walks waiting for their next page, by path and the cursor that asks for it. */
  readonly walks: Map<string, Walking>
}

export const make = (tracksWrites: boolean, ownPrefix?: string): ObjectModel => ({
  objects: new Map(),
  tracksWrites,
  othersWrite: false,
  ownPrefix,
  collections: new Map(),
  walks: new Map()
})

/** A name another contract-test run wrote: `ct-<runid>-` with a run id of six letters or digits. */
const RUN_PREFIX = /^ct-[a-z0-9]{6}-/

/**
 * Whether an object shows, in a field where it differs from the state the model holds, a value
 * another contract-test run wrote (its `ct-<runid>-` prefix, not this run's): a run against the
 * same target at the same time.
 */
const otherRunWrote = (
  model: ObjectModel,
  known: Record<string, unknown>,
  shown: Record<string, unknown>
): boolean => {
  if (model.ownPrefix === undefined) return false
  for (const [k, v] of Object.entries(shown))
    if (
      typeof v === "string" &&
      v !== known[k] &&
      RUN_PREFIX.test(v) &&
      !v.startsWith(model.ownPrefix)
    )
      return true
  return false
}

const collectionOf = (model: ObjectModel, schema: Op["object"]): Collection => {
  let c = model.collections.get(schema)
  if (c === undefined) {
    c = { key: `\u0000kind ${model.collections.size}`, created: new Map(), creates: [] }
    model.collections.set(schema, c)
  }
  return c
}

/** Notes a write in a list of the latest ones, dropping the oldest that ended when it is full. */
const noted = (writes: Array<Write>, write: Write): Write => {
  writes.push(write)
  if (writes.length > MAX_WRITES) {
    const ended = writes.findIndex((w) => w.end !== Infinity)
    writes.splice(ended === -1 ? 0 : ended, 1)
  }
  return write
}

const freeFields = new WeakMap<Op["object"], ReadonlySet<string>>()

/**
 * The fields of an object that no create or update request sets (directly, or as the nested copy
 * a sent `<x>Id` names): state a server keeps on its own (`tlsCertificateStatus`), whose
 * transitions the documents do not show, so it may change between any two answers.
 */
const freeOf = (op: Op): ReadonlySet<string> => {
  let free = freeFields.get(op.object)
  if (free !== undefined) return free
  const settable = new Set(["id", "createdAt", "updatedAt"])
  for (const w of Operations.all as ReadonlyArray<Op>)
    if (w.object === op.object && (w.kind === "create" || w.kind === "update"))
      for (const k of requestPropertyNames(w)) {
        settable.add(k)
        const nested = nestedOf(k)
        if (nested !== undefined) settable.add(nested)
      }
  free = new Set([...objectPropertyNames(op)].filter((k) => !settable.has(k)))
  freeFields.set(op.object, free)
  return free
}

/** What a write may change: the fields it sets (not `null`), the nested copies their ids name, and `updatedAt`. */
const changesOf = (sent: Body): ReadonlySet<string> => {
  const out = new Set(["updatedAt"])
  for (const [k, v] of Object.entries(sent)) {
    if (v === null || v === undefined) continue
    out.add(k)
    const nested = nestedOf(k)
    if (nested !== undefined) out.add(nested)
  }
  return out
}

/** A request's JSON body with its keys in lowerCamelCase, or `undefined` when it is not a JSON object. */
const bodyOf = (request: RawRequest): Body | undefined => {
  if (request.body === undefined) return undefined
  try {
    return asRecord(Shape.normalizeKeys(JSON.parse(request.body)))
  } catch {
    return undefined
  }
}

/** A request on its way: its operation, body, the object it writes and its write's interval (a create's: its kind's). */
export interface Sending {
  readonly op: Op
  readonly start: number
  readonly sent: Body | undefined
  readonly id: string | undefined
  readonly write: Write | undefined
}

/** A request of an operation that neither writes nor is followed by the model. */
const plain = (op: Op, start: number): Sending => ({
  op,
  start,
  sent: undefined,
  id: undefined,
  write: undefined
})

/**
 * Whether another write to the object than `own` overlapped the interval from `start` to `end`
 * (one that ends or starts at the same instant counts: a HAR's times are milliseconds).
 */
const overlapped = (entry: Entry, own: Write | undefined, start: number, end: number) => {
  for (const w of entry.writes) if (w !== own && w.start <= end && w.end >= start) return true
  return false
}

/** Notes a request as it is sent: an update's write is in flight from now. */
export const sending = (
  model: ObjectModel,
  request: RawRequest,
  now: number
): Sending | undefined => {
  const op = operationOf(request.path)
  if (op === undefined) return undefined
  if (op.kind === "create") {
    const write = noted(collectionOf(model, op.object).creates, { start: now, end: Infinity })
    return { op, start: now, sent: undefined, id: undefined, write }
  }
  if (op.kind === "list") {
    // Only a List of a kind the run created objects of has walks to follow.
    const followed = (model.collections.get(op.object)?.created.size ?? 0) > 0
    return { ...plain(op, now), sent: followed ? bodyOf(request) : undefined }
  }
  if (op.kind !== "update") return plain(op, now)
  const sent = bodyOf(request)
  const id = typeof sent?.id === "string" ? sent.id : undefined
  // An update whose object cannot be read (another codec) may have changed any of its kind: the
  // model forgets them.
  if (id === undefined && request.body !== undefined && sent === undefined)
    for (const [k, other] of model.objects) if (other.schema === op.object) model.objects.delete(k)
  let entry = id === undefined ? undefined : model.objects.get(id)
  if (entry === undefined && id !== undefined && model.tracksWrites) {
    entry = {
      schema: op.object,
      state: undefined,
      source: "",
      writes: [],
      created: false,
      since: Infinity,
      foreign: false
    }
    model.objects.set(id, entry)
  }
  if (entry === undefined) return { op, start: now, sent, id, write: undefined }
  const write: Write = { start: now, end: Infinity }
  entry.writes.push(write)
  if (entry.writes.length > MAX_WRITES) entry.writes.shift()
  return { op, start: now, sent, id, write }
}

/** A request that was never answered by the target (not sent, or interrupted): its write is over, its effect unknown. */
export const abandoned = (model: ObjectModel, s: Sending | undefined, now: number): void => {
  if (s?.write === undefined) return
  s.write.end = now
  if (s.id === undefined) return
  const entry = model.objects.get(s.id)
  if (entry !== undefined) entry.state = undefined
}

/** An answer a write's object is certainly not changed by: the request refused (4xx but a timeout or a cancel). */
const refused = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 499

const instantOf = (u: unknown): Timestamp.Parts | undefined => {
  if (typeof u !== "string") return undefined
  const t = Timestamp.parse(u, (seconds, nanos) => ({ seconds, nanos }))
  return typeof t === "string" ? undefined : t
}

/** Whether an object shows a later `updatedAt` than the state the model holds of it. */
const movedOn = (state: Record<string, unknown>, shown: Record<string, unknown>): boolean => {
  const before = instantOf(state.updatedAt)
  const after = instantOf(shown.updatedAt)
  return before !== undefined && after !== undefined && Timestamp.compare(after, before) > 0
}

/** One object an answer shows, judged against what the model knows and then known by it. */
const seen = (
  model: ObjectModel,
  s: Sending,
  shown: Record<string, unknown>,
  now: number,
  e: Exchange,
  out: Array<Judged>
): void => {
  const id = shown.id
  if (typeof id !== "string") return
  const entry = model.objects.get(id)
  if (entry === undefined || entry.schema !== s.op.object) return
  const write = s.write
  if (overlapped(entry, write, s.start, now)) {
    // Another write may have come before or after this answer: a write leaves the state unknown.
    if (write !== undefined) entry.state = undefined
    return
  }
  if (write === undefined && entry.state !== undefined && movedOn(entry.state, shown)) {
    // A read of a later version than the model holds, with no write of its own between: another
    // client wrote it (an update moves `updatedAt` forward, decisions.md section 4).
    model.othersWrite = true
    entry.foreign = true
    entry.state = shown
    entry.source = `the ${s.op.method} answer before it`
    return
  }
  const changes = write === undefined ? new Set<string>() : changesOf(s.sent ?? {})
  if (entry.state !== undefined && (entry.created || !model.othersWrite)) {
    const outcome = modelVerdict(s.op, entry.state, shown, freeOf(s.op), changes, e, entry.source)
    if (!outcome.ok && otherRunWrote(model, entry.state, shown)) model.othersWrite = true
    out.push({
      id,
      outcome: entry.created && !outcome.ok ? { ...outcome, ownObject: true } : outcome
    })
  }
  if (write !== undefined || entry.state === undefined) {
    entry.state = shown
    entry.source = `the ${s.op.method} answer before it`
  }
}

/** An outcome of the model on one object an answer shows. */
export interface Judged {
  readonly id: string
  readonly outcome: Outcome
}

/** Judges an answer against the model and updates the model with what it shows. */
export const answered = (
  model: ObjectModel,
  s: Sending | undefined,
  e: Exchange,
  now: number
): ReadonlyArray<Outcome> => {
  const judged = judgedAnswer(model, s, e, now)
  if (judged.length === 0) return []
  // One pass per rule judged for an answer whose objects all agree, its failures otherwise.
  const failed = judged.filter((j) => !j.outcome.ok).map((j) => j.outcome)
  if (failed.length > 0) return failed
  const passed = new Map<string, Outcome>()
  for (const { outcome } of judged) passed.set(String(outcome.rules), outcome)
  return [...passed.values()]
}

const judgedAnswer = (
  model: ObjectModel,
  s: Sending | undefined,
  e: Exchange,
  now: number
): ReadonlyArray<Judged> => {
  if (s === undefined) return []
  if (s.write !== undefined) s.write.end = now
  const r = Option.getOrUndefined(e.response)
  const json = r?.status === 200 ? Option.getOrUndefined(r.json) : undefined
  if (json === undefined) {
    if (s.write === undefined || s.id === undefined) return []
    if (r === undefined || !refused(r.status)) abandoned(model, s, now)
    else {
      // A refused update of an object the model had not seen yet (an id that names nothing, most
      // often) leaves nothing to keep.
      const entry = model.objects.get(s.id)
      if (entry?.state === undefined && entry?.writes.length === 1) model.objects.delete(s.id)
    }
    return []
  }
  const out: Array<Judged> = []
  const { op } = s
  if (op.kind === "create") {
    const created = asRecord(objectOf(op, json))
    // A create answered with an id the model holds made a new object under it: its state now.
    if (typeof created?.id === "string") {
      const entry: Entry = {
        schema: op.object,
        state: created,
        source: `the ${op.method} answer`,
        writes: [{ start: s.start, end: now }],
        created: true,
        since: now,
        foreign: false
      }
      model.objects.set(created.id, entry)
      collectionOf(model, op.object).created.set(created.id, entry)
    }
    return out
  }
  if (op.kind === "list") {
    const items = itemsOf(op, json)
    for (const item of items) seen(model, s, item, now, e, out)
    const walked = followed(model, s, items, json, now, e)
    if (walked !== undefined) out.push(walked)
    return out
  }
  const shown = objectOf(op, json)
  if (Array.isArray(shown)) {
    for (const item of shown) {
      const o = asRecord(item)
      if (o !== undefined) seen(model, s, o, now, e, out)
    }
  } else {
    const o = asRecord(shown)
    if (o !== undefined) seen(model, s, o, now, e, out)
    else if (s.write !== undefined) abandoned(model, s, now)
  }
  return out
}

/** The request of a walk's page without its cursor, as the pages of one walk share it. */
const walkRequest = (sent: Body): string => {
  const { cursor: _, ...rest } = sent
  return JSON.stringify(rest)
}

/** A request decoded by its operation's schema (`undefined` when it does not decode). */
const decoded = (op: Op, sent: Body): Body | undefined => {
  const value = compiledDecoder(op.request)(sent)
  return value === Decoder.FAIL ? undefined : asRecord(value)
}

/**
 * A page of a List answered: the walk it continues (its cursor the `nextCursor` of the walk's last
 * page, the same request otherwise) or starts (no cursor) goes on, or, on its last page (no
 * `nextCursor`), is judged against the objects the run created of its kind: those created before
 * its first request and not written while it ran, when no create of that kind ran meanwhile
 * (decisions.md section 3: "when nothing is created meanwhile"), and no other client wrote them.
 */
const followed = (
  model: ObjectModel,
  s: Sending,
  items: ReadonlyArray<Record<string, unknown>>,
  json: unknown,
  now: number,
  e: Exchange
): Judged | undefined => {
  const sent = s.sent
  if (sent === undefined) return undefined
  const request = walkRequest(sent)
  const cursor = typeof sent.cursor === "string" ? sent.cursor : ""
  let before: Walking | undefined
  if (cursor !== "") {
    before = model.walks.get(`${s.op.path}\u0000${cursor}`)
    if (before === undefined || before.request !== request) return undefined
  }
  const walking: Walking = {
    request,
    start: before?.start ?? s.start,
    ids: [...(before?.ids ?? []), items.map((x) => String(x.id))]
  }
  const meta = asRecord(asRecord(json)?.listMetadata)
  const next = meta?.nextCursor
  if (typeof next === "string" && next !== "") {
    const key = `${s.op.path}\u0000${next}`
    model.walks.delete(key)
    model.walks.set(key, walking)
    if (model.walks.size > MAX_WALKS) model.walks.delete(model.walks.keys().next().value!)
    return undefined
  }
  // A page without `listMetadata` (written under another name) does not say it is the last.
  const c = meta === undefined ? undefined : model.collections.get(s.op.object)
  if (c === undefined) return undefined
  const { start } = walking
  if (c.creates.some((w) => w.start <= now && w.end >= start)) return undefined
  const known: Array<Record<string, unknown>> = []
  for (const entry of c.created.values())
    if (
      entry.state !== undefined &&
      !entry.foreign &&
      entry.since < start &&
      !overlapped(entry, undefined, start, now)
    )
      known.push(entry.state)
  if (known.length === 0) return undefined
  const body = decoded(s.op, sent)
  if (body === undefined) return undefined
  const returned = new Set(walking.ids.flat())
  const outcome = selects(s.op, body)
    ? knownSelected(s.op, body, returned, known, freeOf(s.op), e)
    : createdListed(s.op, returned, known, e)
  return outcome === undefined ? undefined : { id: c.key, outcome }
}

/** A write seen in live traffic: what it may change (an object's id, its kind's key) and when it was in flight. */
export interface Written {
  readonly ids: ReadonlyArray<string>
  readonly start: number
  readonly end: number
}

/**
 * Live traffic (the proxy, the HAR judge): one finished exchange, sent at `start` and answered at
 * `end`, judged and fed at once, in the order exchanges finish. A write that was still in flight
 * when this answer came is seen only later, so a failure is not final until then: the caller holds
 * it and drops it when `written` of a later exchange overlaps it (`overlaps`): an update of its
 * object, or a create or update of the kind a walk's failure names.
 */
export const observe = (
  model: ObjectModel,
  e: Exchange,
  start: number,
  end: number
): { readonly judged: ReadonlyArray<Judged>; readonly written: Written | undefined } => {
  const s = sending(model, e.request, start)
  const judged = judgedAnswer(model, s, e, end)
  if (s?.write === undefined) return { judged, written: undefined }
  const kind = collectionOf(model, s.op.object).key
  return { judged, written: { ids: s.id === undefined ? [kind] : [s.id, kind], start, end } }
}

/** Whether a write (`written`) may have come before or after an answer about `id` (an object or a kind), in flight from `start` to `end`. */
export const overlaps = (written: Written, id: string, start: number, end: number): boolean =>
  written.ids.includes(id) && written.start < end && written.end > start

/** The model's outcomes on the exchanges of the case running in this fiber, when it is judged. */
const caseOutcomes = FiberRef.unsafeMake<Array<Outcome> | undefined>(undefined)

/** The outcomes of an exchange handed to the case running in this fiber, when it is judged. */
const toCase = (out: ReadonlyArray<Outcome>) =>
  out.length === 0
    ? Effect.void
    : FiberRef.getWith(caseOutcomes, (log) => Effect.sync(() => log?.push(...out)))

/**
 * The target with every exchange judged by the model (its outcomes go to the running case) and fed
 * to it, timed by the monotonic clock from when the request is sent to its answer. A create or an
 * update is noted as it is sent: its write is in flight from then on.
 */
export const modelled = (target: Target, model: ObjectModel): Target => ({
  ...target,
  send: (request) => {
    if (operationOf(request.path) === undefined) return target.send(request)
    return Effect.suspend(() => {
      const s = sending(model, request, performance.now())
      return Effect.onExit(target.send(request), (exit) => {
        if (Exit.isSuccess(exit)) {
          const out = answered(model, s, exit.value, performance.now())
          const unread = unreadSuccess(exit.value)
          return toCase(unread === undefined ? out : [...out, unread])
        }
        abandoned(model, s, performance.now())
        return Effect.void
      })
    })
  }
})

/**
 * The checks the model judges: updates.model's, and those of the rules a walk that misses a
 * created object breaks (`createdListed`'s echo.create-stored, `knownSelected`'s search-filter rules);
 * and success-shape's, whose failure on any exchange of a case (`unreadSuccess`) goes with the model's.
 */
export const modelChecks: ReadonlySet<CheckId> = new Set(
  (["updates.model", "echo.create-stored", "search.match", "wire.success"] as const).map(
    (r) => ContractRules.get(r).check
  )
)

/**
 * A case's verdicts with the model's outcomes on the exchanges it made added; a failure of a rule
 * the case's own verdicts already fail is left out (one verdict per rule on the same reads).
 */
export const judgedByModel = <E>(
  self: Effect.Effect<ReadonlyArray<Verdict>, E>
): Effect.Effect<ReadonlyArray<Verdict>, E> =>
  Effect.suspend(() => {
    const log: Array<Outcome> = []
    return Effect.map(Effect.locally(self, caseOutcomes, log), (verdicts) => {
      if (log.length === 0) return verdicts
      const failed = new Set(verdicts.flatMap((v) => (isNote(v) || v.ok ? [] : [v.rule])))
      return [...verdicts, ...log.filter((o) => o.ok || !failed.has(o.rule))]
    })
  })
