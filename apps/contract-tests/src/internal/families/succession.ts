/**
 * Objects created in quick succession: several creates of one operation sent back to back, then
 * several at once. Each gets its own id, and each is found afterwards (by the Get of its kind, or in
 * the Lists of its kind) as its create returned it: a server that makes ids from the clock, or keeps
 * one object per instant, loses all but one of them.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  fullObject,
  objectIn,
  type Op,
  send,
  skipped,
  type Suite,
  uniqueNames
} from "../context.js"
import * as Gen from "../generate.js"
import { post } from "../http.js"
import * as Inspect from "../inspect.js"
import { createdInSuccession, type Found, madeObjects } from "../oracles/create-echo.js"
import { MAX_WALK_PAGES, requiredRefs, walk } from "../listWalk.js"
import { type Burst, burstsOf } from "./creates.js"
import { getReaders, hasIds, listReaders } from "./shared/readers.js"

const CHECKS: ReadonlyArray<CheckId> = ["create-echo"]

const successionSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "create" || !hasIds(op)) return undefined
  if (ctx.readOnly) return skipped("succession", op.method, CHECKS, true, "read-only mode")
  const { bursts, size: n } = burstsOf(op, ctx)
  // Too few creates left (a small --creates-per-operation): the valid examples have them.
  if (bursts.length === 0) return undefined
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("succession", op.method, CHECKS, true, g.reason)
  const arbitrary = g.arbitrary
  return {
    family: "succession",
    method: op.method,
    checks: CHECKS,
    writes: true,
    skip: undefined,
    cases: { _tag: "Enumerated", count: bursts.length, at: (i) => bursts[i] },
    run: (burst: Burst) =>
      Effect.gen(function* () {
        const bodies = fc
          .sample(arbitrary, { seed: ctx.seed + bursts.indexOf(burst), numRuns: n })
          .map((b) => uniqueNames(op, b) as Body)
        const requests = bodies.map((b) => send(ctx, post(op.path, b)))
        const answers =
          burst === "back to back"
            ? yield* Effect.all(requests)
            : yield* Effect.all(requests, { concurrency: "unbounded" })
        const made = madeObjects(op, bodies, answers)
        if (made.length < 2) return []
        const reads = yield* readBack(
          ctx,
          op,
          made.map((m) => m.object)
        )
        return createdInSuccession(op, burst, bodies, answers, made, reads)
      })
  }
}

/**
 * The created objects as read back, by id: by the first Get of their kind, else by the first List
 * of their kind that needs no parent they lack (walked once); none when nothing reads them.
 */
const readBack = (ctx: Context, op: Op, objects: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function* () {
    const out = new Map<string, Found>()
    const get = getReaders(op)[0]
    if (get !== undefined) {
      for (const o of objects) {
        const id = o.id as string
        const e = yield* send(ctx, post(get.path, { id }))
        const object = objectIn(get, e)
        if (object !== undefined) out.set(id, { reader: get.method, object, exchange: e })
        else if (Inspect.codeOf(e) === "not_found")
          out.set(id, { reader: get.method, object: undefined, exchange: e })
      }
      return out
    }
    for (const list of listReaders(op)) {
      const base = requiredRefs(list, ctx.pools, 0)
      // A List scoped to a parent reads the objects of one parent only.
      if (base === undefined || (list.parent?.required ?? false)) continue
      const w = yield* walk(ctx, list, { ...base, limit: 500 }, MAX_WALK_PAGES)
      if (w.error !== undefined || !w.ended) continue
      const last = w.pages[w.pages.length - 1]?.exchange
      for (const o of objects) {
        const item = w.items.find((x) => x.id === o.id)
        out.set(o.id as string, {
          reader: list.method,
          object: item === undefined ? undefined : fullObject(list.object, item),
          exchange: last
        })
      }
      return out
    }
    return out
  })

export const succession: Family = {
  name: "succession",
  checks: CHECKS,
  suites: (op, ctx) => [successionSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
