/**
 * update-semantics: an update changes the fields it sends and no other, moves `updatedAt` forward,
 * and later reads show what it returned; its answer names, in the nested `<x>`, the object its
 * `<x>Id` names.
 */
import * as Option from "effect/Option"
import { type ContractRules, Secrets, Timestamp } from "@data-access/schema"
import type { Body, FieldPath, Op } from "../context.js"
import { fullObject, objectOf, objectPropertyNames, show, storedValue } from "../context.js"
import type { Exchange } from "../http.js"
import { asRecord, firstDifference, isZero, sameAsSent } from "../json.js"
import { fail, type Outcome, pass, passes } from "../outcome.js"
import { has, lastOf, type Walk } from "../listWalk.js"
import { at, storedDifference } from "../objectDifference.js"
import { sendsReference, staleNested } from "../nestedCopies.js"
import { answeredFirst, statusOf } from "../answerReading.js"
import { defined, type ExchangeOracle, onSuccess, successJson } from "../exchangeOracle.js"
import { storedExactly } from "../storedValues.js"

/** updates.references: an update's answer names, in the nested `<x>`, the object its `<x>Id` names. */
export const updateReferences = (op: Op, sent: Body, e: Exchange): Outcome | undefined => {
  const json = successJson(e)
  const obj = asRecord(objectOf(op, json))
  const props = objectPropertyNames(op)
  if (op.kind !== "update" || obj === undefined || !sendsReference(props, sent)) return undefined
  const stale = staleNested(props, sent, obj)
  return stale === undefined
    ? passes(["updates.references"])
    : fail(
        "updates.references",
        `${stale} not moved with ${stale}Id`,
        `the update returned ${stale}Id ${show(obj[`${stale}Id`])} with ${stale} ${show(obj[stale])}`,
        e,
        `${stale}.id = ${show(asRecord(obj[stale])?.id)}`
      )
}

/**
 * The precision of two equal `updatedAt` texts in milliseconds (the coarser of the two, trailing
 * zeros aside): 1000 for whole seconds, 1 for three digits.
 */
const tieUnitMillis = (a: unknown, b: unknown): number => {
  const digits = (t: unknown) => (/\.(\d+)/.exec(String(t))?.[1] ?? "").replace(/0+$/, "").length
  return 10 ** (3 - Math.min(digits(a), digits(b)))
}

/** Whether an object's `updatedAt` is after `t0` (an answer without an object or a stamp tells nothing: yes). */
const movedPast = (
  object: Record<string, unknown> | undefined,
  t0: Timestamp.Timestamp
): boolean => {
  const t = typeof object?.updatedAt === "string" ? Timestamp.parse(object.updatedAt) : undefined
  return !(t instanceof Timestamp.Timestamp) || Timestamp.isAfter(t, t0)
}

/** Fields that are the same in two states of an object, but `updatedAt` and those a sent field may change. */
const unchangedExcept = (
  props: ReadonlySet<string>,
  before: Body,
  after: Body,
  sent: ReadonlySet<string>
): string | undefined => {
  for (const k of props) {
    if (k === "updatedAt" || sent.has(k) || sent.has(`${k}Id`)) continue
    const d = firstDifference(before[k], after[k])
    if (d !== undefined && !(isZero(before[k]) && isZero(after[k]))) return k
  }
  return undefined
}

/** The object an update's (or a Get-like update's) answer holds, whole, or `undefined`. */
export const updatedObject = (op: Op, e: Exchange): Body | undefined =>
  fullObject(
    op.object,
    Option.getOrUndefined(
      Option.flatMap(e.response, (r) =>
        r.status === 200 ? Option.map(r.json, (j) => objectOf(op, j)) : Option.none()
      )
    )
  )

/** The fields an update sends that its answer shows: set (not `null`), not `id`, not a secret. */
export const sentFields = (op: Op, body: Body): ReadonlyArray<readonly [string, unknown]> => {
  const props = objectPropertyNames(op)
  return Object.entries(body).filter(
    ([k, v]) =>
      k !== "id" && v !== null && v !== undefined && props.has(k) && !Secrets.fieldNames.has(k)
  )
}

/** The two `updatedAt` stamps of an object before and after an update, parsed, when both are. */
const stamps = (
  before: Body,
  after: Body
): readonly [Timestamp.Timestamp, Timestamp.Timestamp] | undefined => {
  const t0 = typeof before.updatedAt === "string" ? Timestamp.parse(before.updatedAt) : undefined
  const t1 = typeof after.updatedAt === "string" ? Timestamp.parse(after.updatedAt) : undefined
  return t0 instanceof Timestamp.Timestamp && t1 instanceof Timestamp.Timestamp
    ? [t0, t1]
    : undefined
}

/**
 * When an update left `updatedAt` on the stamp it had, the precision of that stamp in milliseconds
 * (the family then sends the update again once a tick has passed, unless it is whole seconds).
 */
export const tieUnit = (op: Op, before: Body, after: Body): number | undefined => {
  const both = objectPropertyNames(op).has("updatedAt") ? stamps(before, after) : undefined
  return both !== undefined && Timestamp.Order(both[1], both[0]) === 0
    ? tieUnitMillis(before.updatedAt, after.updatedAt)
    : undefined
}

/**
 * The trace of an update and the reads after it: the object as it was (`first`, the update sent
 * with only its id, which changes nothing), the update (`update`, `body` as sent, some unsent
 * fields as `null`), the same update sent again after a tie of `updatedAt` (`retry`), the object
 * read again (`reread`) and found in each List that holds it (`listed`).
 */
export interface UpdateTrace {
  readonly op: Op
  readonly body: Body
  readonly first: Exchange
  readonly update: Exchange
  readonly retry: Exchange | undefined
  readonly reread: Exchange
  readonly listed: ReadonlyArray<{
    readonly reader: Op
    readonly item: Record<string, unknown> | undefined
    readonly walk: Walk
  }>
}

/**
 * An update and the reads after it: the fields sent applied (updates.apply, a `false` too:
 * updates.false-applied), the others as they were (updates.partial, `null` ones:
 * updates.null-unchanged), `updatedAt` moved forward (updates.updated-at) and the later reads
 * showing what it returned (updates.stored); the nested objects of the answer (updates.references).
 * Live traffic: the proxy does not know the object's state before an update nor that nothing else
 * wrote between it and a later read, so it judges only the answer's nested objects (`updateEcho`).
 */
export const updatedThenRead = (t: UpdateTrace): ReadonlyArray<Outcome> => {
  const { op, body } = t
  const before = updatedObject(op, t.first)
  const after = updatedObject(op, t.update)
  if (before === undefined || after === undefined) return []
  const e1 = t.update
  const props = objectPropertyNames(op)
  const out: Array<Outcome> = []
  const sent = sentFields(op, body)
  const sentKeys = new Set(sent.map(([k]) => k))
  const sentBody = Object.fromEntries(sent)
  const nulled = new Set(
    Object.entries(body)
      .filter(([, v]) => v === null)
      .map(([k]) => k)
  )
  for (const [k, v] of sent) {
    // `spaceId: ""` may take the object out of its space or count as not set (decisions.md section 10).
    if (k === "spaceId" && v === "") continue
    if (!sameAsSent(v, after[k]))
      out.push(
        fail(
          v === false ? "updates.false-applied" : "updates.apply",
          `sent ${k} not applied`,
          `sent ${k} ${show(v)}, the update returned ${show(after[k])}`,
          e1,
          `${k} = ${show(after[k])}`
        )
      )
  }
  const references = updateReferences(op, sentBody, e1)
  if (references !== undefined) out.push(references)
  const changed = unchangedExcept(props, before, after, sentKeys)
  if (changed !== undefined) {
    const rule = nulled.has(changed) ? "updates.null-unchanged" : "updates.partial"
    out.push(
      fail(
        rule,
        `${nulled.has(changed) ? "null" : "unsent"} ${changed} changed`,
        `${changed} was ${nulled.has(changed) ? "sent as null" : "not sent"} but changed: before ${show(before[changed])}, after ${show(after[changed])}`,
        e1
      )
    )
  }
  if (props.has("updatedAt")) {
    const both = stamps(before, after)
    if (both !== undefined) {
      const [t0, t1] = both
      const unit = tieUnit(op, before, after)
      // Whole seconds cannot show a move within a second. Two updates within one tick of the
      // server's clock may share a stamp: the same update sent again once that tick has passed
      // must move it past the first.
      const tied =
        unit !== undefined &&
        (unit >= 1000 || (t.retry !== undefined && movedPast(updatedObject(op, t.retry), t0)))
      if (!Timestamp.isAfter(t1, t0) && !tied)
        out.push(
          fail(
            "updates.updated-at",
            "updatedAt did not move forward",
            `updatedAt went from ${before.updatedAt} to ${after.updatedAt}`,
            e1,
            `updatedAt = ${JSON.stringify(after.updatedAt)}`
          )
        )
    } else if (
      typeof after.updatedAt !== "string" ||
      Timestamp.parse(after.updatedAt) === undefined
    ) {
      out.push(
        fail("updates.updated-at", "updatedAt missing", "the updated object has no updatedAt", e1)
      )
    }
  }
  // Later reads show what the update returned: the object read again, and the lists that hold it.
  const again = updatedObject(op, t.reread)
  if (again !== undefined) {
    const differs =
      unchangedExcept(props, after, again, new Set()) ?? staleNested(props, sentBody, again)
    if (differs !== undefined)
      out.push(
        fail(
          "updates.stored",
          `read again: ${differs} differs`,
          `after the update, reading the object again shows ${differs} ${show(again[differs])}, the update returned ${show(after[differs])}`,
          t.reread
        )
      )
  }
  const id = body.id as string
  for (const { item, reader, walk: w } of t.listed) {
    const full = fullObject(reader.object, item)
    const last = w.pages[w.pages.length - 1]?.exchange
    if (full === undefined) {
      if (w.ended)
        out.push(
          fail(
            "updates.stored",
            `${reader.method} misses the object`,
            `${reader.method} does not list the updated object ${id}`,
            last
          )
        )
      continue
    }
    const staleListed = staleNested(props, sentBody, full)
    if (staleListed !== undefined)
      out.push(
        fail(
          "updates.stored",
          `${reader.method} shows old ${staleListed}`,
          `after the update, ${reader.method} shows ${staleListed}Id ${show(full[`${staleListed}Id`])} with ${staleListed} ${show(full[staleListed])}`,
          last
        )
      )
    for (const [k, v] of sent) {
      if (k === "spaceId" && v === "") continue
      if (!sameAsSent(v, full[k]))
        out.push(
          fail(
            v === false ? "updates.false-applied" : "updates.stored",
            `${reader.method} shows old ${k}`,
            `after the update, ${reader.method} shows ${k} ${show(full[k])}, sent ${show(v)}`,
            last
          )
        )
    }
  }
  const judged: Array<ContractRules.RuleId> = ["updates.partial", "updates.stored"]
  if (sent.length > 0) judged.push("updates.apply")
  if (sent.some(([, v]) => v === false)) judged.push("updates.false-applied")
  if (nulled.size > 0) judged.push("updates.null-unchanged")
  if (props.has("updatedAt")) judged.push("updates.updated-at")
  return out.length === 0 ? [pass("update-semantics", judged)] : out
}

/**
 * The trace of an update of one field (`field` from `old` to `value`, answered `after`) and, in each
 * List of its kind, the object found by its id (`found`), the walks of the reads that select it by
 * the new value (`byNew`) and by the old one (`byOld`, only where the old value no longer selects it).
 */
export interface ListedTrace {
  readonly id: string
  readonly field: string
  readonly value: string
  readonly old: string
  readonly after: Record<string, unknown>
  readonly lists: ReadonlyArray<{
    readonly list: Op
    readonly found: { readonly item: Record<string, unknown> | undefined; readonly walk: Walk }
    readonly byNew: ReadonlyArray<{ readonly label: string; readonly walk: Walk }>
    readonly byOld: ReadonlyArray<{ readonly label: string; readonly walk: Walk }>
  }>
}

/**
 * updates.listed: after an update, the Lists of its kind show the object as the update returned
 * it, their reads by the new value return it and those by the old value no longer do. Walks that failed or did not end tell
 * nothing. Live traffic: the proxy does not know which reads follow which update, so it does not
 * judge this.
 */
export const updateListed = (t: ListedTrace): ReadonlyArray<Outcome> => {
  const { after, field, id, old, value } = t
  const out: Array<Outcome> = []
  for (const { byNew, byOld, found, list } of t.lists) {
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
    for (const probe of byNew) {
      const w = probe.walk
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
    }
    for (const probe of byOld) {
      const w = probe.walk
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
  return out.length === 0 ? [pass("update-semantics", ["updates.listed"])] : out
}

const updateEcho = onSuccess("update-echo", ["updates.references"], (op, sent, e) =>
  defined(updateReferences(op, sent, e))
)

/**
 * updates.apply: an update that sent a value a server may refuse (`what`, at `path`: a string at a
 * limit, a value outside a format) and was served stores exactly that value. Live traffic: the
 * proxy does not know the object before the update, so it judges only its nested objects (`updateEcho`).
 */
export const updatedExactly = (
  op: Op,
  e: Exchange,
  path: FieldPath,
  value: unknown,
  what: string
): Outcome | undefined => storedExactly("updates.apply", op, e, path, value, what)

/**
 * updates.apply: an update's reference sent as `""` (`what`) and served leaves the field `""` (the
 * object taken out of it) or as it was (`had`, the field treated as not set); any other value is
 * wrong under both readings (decisions.md section 10). Live traffic: as `updatedExactly`.
 */
export const emptyReferenceApplied = (
  op: Op,
  e: Exchange,
  field: string,
  had: unknown,
  what: string
): Outcome | undefined => {
  if (statusOf(e) !== 200 || answeredFirst(e)) return undefined
  const now = storedValue(op, e, field)
  return now === "" || now === had
    ? pass("update-semantics", ["updates.apply"])
    : fail(
        "updates.apply",
        `${what}: set to another value`,
        `${what} left ${field} ${show(now)}, neither "" (out of it) nor ${show(had)} (not set)`,
        e,
        `${field} = ${show(now)}`
      )
}

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [updateEcho]

/** The id of a nested copy of another object (`""` when it is left out or has none). */
const nestedId = (v: unknown): unknown => {
  const r = asRecord(v)
  return r === undefined ? "" : (r.id ?? "")
}

/**
 * The first field where an answer's object (`shown`) differs from the state the run's writes and
 * reads left it in (`known`), read as `storedDifference` reads two stored objects, but a nested copy
 * of another object (`space`) compared by its presence and id: left out, it says the object has
 * none. Left aside: `id`, the fields a server may change on its own (`free`), and those the
 * exchange itself may change (`changes`: a write's sent fields, the nested copies their ids name,
 * and `updatedAt`).
 */
export const modelDifference = (
  known: Record<string, unknown>,
  shown: Record<string, unknown>,
  free: ReadonlySet<string>,
  changes: ReadonlySet<string>
): string | undefined => {
  for (const k of new Set([...Object.keys(known), ...Object.keys(shown)])) {
    if (k === "id" || free.has(k) || changes.has(k)) continue
    const a = known[k]
    const b = shown[k]
    if (asRecord(a)?.id !== undefined || asRecord(b)?.id !== undefined) {
      const [ia, ib] = [nestedId(a), nestedId(b)]
      if (ia !== ib) return ia === "" || ib === "" ? k : `${k}.id`
      continue
    }
    const d = storedDifference(a, b, k, k)
    if (d !== undefined) return d
  }
  return undefined
}

/**
 * updates.model: an answer that shows an object the run created or wrote shows it as the run's
 * writes left it (`known`, with `source` the exchange that showed that state; `changes` what this
 * exchange may change, empty for a read). The model (`objectModel.ts`) hands over only exchanges
 * with no other write to the object in flight. Live traffic: the proxy and the HAR judge keep the
 * same model of the objects created through them.
 */
export const modelVerdict = (
  op: Op,
  known: Record<string, unknown>,
  shown: Record<string, unknown>,
  free: ReadonlySet<string>,
  changes: ReadonlySet<string>,
  e: Exchange,
  source: string
): Outcome => {
  const d = modelDifference(known, shown, free, changes)
  if (d === undefined) return passes(["updates.model"])
  const field = d.replace(/\[\d+\]/g, "[]")
  const write = op.kind === "update" || op.kind === "create"
  return fail(
    "updates.model",
    `${op.method} ${write ? "changed an unsent" : "shows another"} ${field}`,
    `${op.method} shows object ${show(shown.id)} with ${d} ${show(at(shown, d))}, but ${source} showed ${show(at(known, d))}${write ? " and this request did not send it" : " and no write came between"}`,
    e,
    `${d} = ${show(at(shown, d))}`
  )
}
