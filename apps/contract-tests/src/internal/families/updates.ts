/**
 * Partial updates: the fields sent change, the others (absent or `null`) stay, `updatedAt` moves
 * forward, and later reads show what the update returned.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { type ContractRules, Operations, Secrets, Timestamp } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  fullObject,
  objectOf,
  objectPropertyNames,
  type Op,
  send,
  show,
  skipped,
  type Suite
} from "../context.js"
import * as Gen from "../generate.js"
import { type Exchange, post } from "../http.js"
import { firstDifference, isZero, sameAsSent } from "../json.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { requestPropertyNames } from "../pools.js"
import { findById, requiredRefs } from "../walk.js"
import { staleNested } from "../oracles/nested.js"
import { updateReferences } from "../oracles/update-semantics.js"

/** The list operations that return the same object schema (the later read of an update). */
const readersOf = (op: Op): ReadonlyArray<Op> =>
  (Operations.all as ReadonlyArray<Op>).filter((o) => o.kind === "list" && o.object === op.object)

const CHECKS: ReadonlyArray<CheckId> = ["update-semantics"]

/**
 * The precision of two equal `updatedAt` texts in milliseconds (the coarser of the two, trailing
 * zeros aside): 1000 for whole seconds, 1 for three digits.
 */
const tieUnitMillis = (a: unknown, b: unknown): number => {
  const digits = (t: unknown) => (/\.(\d+)/.exec(String(t))?.[1] ?? "").replace(/0+$/, "").length
  return 10 ** (3 - Math.min(digits(a), digits(b)))
}

/**
 * The least wait before an update sent again after a tie: a clock may be coarser than the digits
 * it writes (a 15.6 ms system timer, SQL Server's 1/300 s written with three digits).
 */
const TIE_WAIT_MILLIS = 50

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

const updateSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "update") return undefined
  if (ctx.readOnly) return skipped("update", op.method, CHECKS, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("update", op.method, CHECKS, true, g.reason)
  const props = objectPropertyNames(op)
  const fields = requestPropertyNames(op).filter((k) => k !== "id")
  const readers = readersOf(op)
  return {
    family: "update",
    method: op.method,
    checks: CHECKS,
    writes: true,
    skip: undefined,
    // Some fields not sent are sent as `null`, which leaves them as they are too.
    cases: {
      _tag: "Property",
      arbitrary: fc.record({ body: g.arbitrary, nulls: fc.boolean() }),
      examples: Math.max(3, Math.ceil(ctx.examples / 10))
    },
    run: ({ body: generated, nulls }: { body: Body; nulls: boolean }) =>
      Effect.gen(function* () {
        const id = generated.id as string
        const body: Body = { ...generated }
        if (nulls) for (const k of fields) if (!(k in body)) body[k] = null
        const unwrap = (e: Exchange) =>
          Option.getOrUndefined(
            Option.flatMap(e.response, (r) =>
              r.status === 200 ? Option.map(r.json, (j) => objectOf(op, j)) : Option.none()
            )
          )
        // The state before: an update that sends only the id changes nothing.
        const e0 = yield* send(ctx, post(op.path, { id }))
        const before = fullObject(op.object, unwrap(e0))
        if (before === undefined) return []
        const e1 = yield* send(ctx, post(op.path, body))
        const after = fullObject(op.object, unwrap(e1))
        if (after === undefined) return []
        const out: Array<Outcome> = []
        const sent = Object.entries(body).filter(
          ([k, v]) =>
            k !== "id" &&
            v !== null &&
            v !== undefined &&
            props.has(k) &&
            !Secrets.fieldNames.has(k)
        )
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
          const t0 =
            typeof before.updatedAt === "string" ? Timestamp.parse(before.updatedAt) : undefined
          const t1 =
            typeof after.updatedAt === "string" ? Timestamp.parse(after.updatedAt) : undefined
          if (t0 instanceof Timestamp.Timestamp && t1 instanceof Timestamp.Timestamp) {
            const unit =
              Timestamp.Order(t1, t0) === 0
                ? tieUnitMillis(before.updatedAt, after.updatedAt)
                : undefined
            // Whole seconds cannot show a move within a second. Two updates within one tick of the
            // server's clock may share a stamp: the same update sent again once that tick has passed
            // must move it past the first.
            const tied =
              unit !== undefined &&
              (unit >= 1000 ||
                (yield* Effect.zipRight(
                  Effect.sleep(Math.max(Math.ceil(unit) + 1, TIE_WAIT_MILLIS)),
                  Effect.map(send(ctx, post(op.path, body)), (e3) =>
                    movedPast(fullObject(op.object, unwrap(e3)), t0)
                  )
                )))
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
          } else if (t1 === undefined) {
            out.push(
              fail(
                "updates.updated-at",
                "updatedAt missing",
                "the updated object has no updatedAt",
                e1
              )
            )
          }
        }
        // Later reads show what the update returned: the object read again, and the lists that hold it.
        const e2 = yield* send(ctx, post(op.path, { id }))
        const again = fullObject(op.object, unwrap(e2))
        if (again !== undefined) {
          const differs =
            unchangedExcept(props, after, again, new Set()) ?? staleNested(props, sentBody, again)
          if (differs !== undefined)
            out.push(
              fail(
                "updates.stored",
                `read again: ${differs} differs`,
                `after the update, reading the object again shows ${differs} ${show(again[differs])}, the update returned ${show(after[differs])}`,
                e2
              )
            )
        }
        for (const reader of readers) {
          const base = requiredRefs(reader, ctx.pools, 0)
          if (base === undefined) continue
          const { item, walk: w } = yield* findById(ctx, reader, id, base)
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
        // Put back what was changed.
        const restore: Body = { id }
        for (const k of sentKeys) restore[k] = before[k] ?? null
        for (const k of Object.keys(restore))
          if (k !== "id" && !Gen.isValid(op, { id, [k]: restore[k] })) delete restore[k]
        if (Object.keys(restore).length > 1) yield* send(ctx, post(op.path, restore))
        const judged: Array<ContractRules.RuleId> = ["updates.partial", "updates.stored"]
        if (sent.length > 0) judged.push("updates.apply")
        if (sent.some(([, v]) => v === false)) judged.push("updates.false-applied")
        if (nulled.size > 0) judged.push("updates.null-unchanged")
        if (props.has("updatedAt")) judged.push("updates.updated-at")
        return out.length === 0 ? [pass("update-semantics", judged)] : out
      })
  }
}

export const updates: Family = {
  name: "updates",
  checks: CHECKS,
  suites: (op, ctx) => [updateSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
