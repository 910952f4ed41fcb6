/**
 * Updated: what an update changes shows in the Lists of its kind, and their `search`, `filter` and
 * parent scope select the object by the new value, never by the old one; the update is put back.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { Secrets } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  objectIn,
  type Op,
  send,
  skipped,
  type Suite
} from "../../context.js"
import * as Gen from "../../generate.js"
import { post } from "../../http.js"
import { selectsOnly } from "../../oracles/search-filter.js"
import { type ListedTrace, updateListed } from "../../oracles/update-semantics.js"
import type { Outcome } from "../../outcome.js"
import { referenceOf, requestPropertyNames, valuesOf } from "../../pools.js"
import { findById, MAX_WALK_PAGES, requiredRefs, walk } from "../../listWalk.js"
import { listReaders } from "../shared/readers.js"
import { baseFor, probesOf } from "./select.js"

const UPDATED: ReadonlyArray<CheckId> = ["update-semantics"]

const nonce = { n: 0 }

export const updatedSuite = (op: Op, ctx: Context): Suite | undefined => {
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
        const traced: Array<ListedTrace["lists"][number]> = []
        // What the reads by the new value return, judged by search-filter.
        const selected: Array<Outcome> = []
        for (const list of lists) {
          const base = baseFor(list, ctx, after)
          if (base === undefined) continue
          const found = yield* findById(ctx, list, id, base)
          const byNew: Array<ListedTrace["lists"][number]["byNew"][number]> = []
          for (const probe of probesOf(list, base, field, value)) {
            const body = { ...base, limit: 500, ...probe.body }
            const w = yield* walk(ctx, list, body, MAX_WALK_PAGES)
            byNew.push({ label: probe.label, walk: w })
            const wrong = selectsOnly(list, body, w, probe.label)
            if (wrong !== undefined) selected.push(wrong)
          }
          const byOld: Array<ListedTrace["lists"][number]["byOld"][number]> = []
          if (old !== "")
            for (const probe of probesOf(list, base, field, old)) {
              // The old value still selects the object when the new one contains it (search) or equals it in another case (filter).
              if (
                "search" in probe.body
                  ? value.toLowerCase().includes(old.toLowerCase())
                  : value.toLowerCase() === old.toLowerCase()
              )
                continue
              const body = { ...base, limit: 500, ...probe.body }
              byOld.push({ label: probe.label, walk: yield* walk(ctx, list, body, MAX_WALK_PAGES) })
            }
          traced.push({ list, found, byNew, byOld })
        }
        const verdicts = updateListed({ id, field, value, old, after, lists: traced })
        // Put back what was changed.
        if (Gen.isValid(op, { id, [field]: old }))
          yield* send(ctx, post(op.path, { id, [field]: old }))
        return [...verdicts, ...selected]
      })
  }
}
