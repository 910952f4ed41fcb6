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
import { createEcho } from "../oracles/create-echo.js"
import { storedDifference } from "../oracles/stable-reads.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { MAX_WALK_PAGES, requiredRefs, walk } from "../walk.js"
import { type Burst, burstsOf } from "./creates.js"
import { objectIn } from "./shared/objects.js"
import { getReaders, hasIds, listReaders } from "./shared/readers.js"

/**
 * Whether two create requests make two objects whatever a server keeps unique: their names differ
 * (names are made unique at send time), or the objects they reference do (two links between other
 * objects); requests that differ only in other values (a flag) might be read as one object.
 */
const differentObjects = (op: Op, a: Body, b: Body): boolean =>
  (typeof a.name === "string" && typeof b.name === "string" && a.name !== b.name) ||
  op.references.some((k) => typeof a[k] === "string" && typeof b[k] === "string" && a[k] !== b[k])

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
        // A create refused is the valid family's to judge.
        const made = answers.flatMap((e, i) => {
          const object = objectIn(op, e)
          return object !== undefined && typeof object.id === "string" && object.id !== ""
            ? [{ object, id: object.id, sent: Gen.normalizeKeys(bodies[i]) as Body, e }]
            : []
        })
        if (made.length < 2) return []
        // Each returns what it was sent, not another's object (a create answered from shared state).
        const out: Array<Outcome> = answers
          .flatMap((e, i) => createEcho(op, Gen.normalizeKeys(bodies[i]) as Body, e))
          .filter((v): v is Outcome => "ok" in v && !v.ok)
          .slice(0, 1)
        // Each its own id: two creates of different objects answered with one id name one object, not two.
        for (let i = 1; i < made.length; i++) {
          const twin = made
            .slice(0, i)
            .find((m) => m.id === made[i]!.id && differentObjects(op, m.sent, made[i]!.sent))
          if (twin !== undefined) {
            out.push(
              fail(
                "echo.create-stored",
                `creates ${burst} share an id`,
                `${made.length} creates of ${op.method} sent ${burst} were answered with the same id ${JSON.stringify(twin.id)} for two different objects`,
                made[i]!.e,
                `id = ${JSON.stringify(twin.id)}`
              )
            )
            break
          }
        }
        // Each found afterwards as its create returned it.
        const reads = yield* readBack(
          ctx,
          op,
          made.map((m) => m.object)
        )
        for (const m of made) {
          const found = reads.get(m.id)
          if (found === undefined) continue
          if (found.object === undefined) {
            out.push(
              fail(
                "echo.create-stored",
                `created ${burst}, ${found.reader} does not find it`,
                `${found.reader} does not find ${m.id}, one of ${made.length} objects created ${burst}`,
                found.exchange
              )
            )
            break
          }
          const d = storedDifference(m.object, found.object)
          if (d !== undefined) {
            out.push(
              fail(
                "echo.create-stored",
                `created ${burst}, ${found.reader} shows another object`,
                `${found.reader} shows ${m.id}, one of ${made.length} objects created ${burst}, with ${d} ${show(pathValue(found.object, d))}; its create returned ${show(pathValue(m.object, d))}`,
                found.exchange,
                `${d} = ${show(pathValue(found.object, d))}`
              )
            )
            break
          }
        }
        return out.length > 0 ? out : [pass("create-echo", ["echo.create-stored"])]
      })
  }
}

/** The value at a dotted path of `storedDifference`. */
const pathValue = (o: Record<string, unknown>, path: string): unknown =>
  path
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== "")
    .reduce<unknown>(
      (v, k) => (Array.isArray(v) ? v[Number(k)] : (v as Record<string, unknown> | undefined)?.[k]),
      o
    )

interface Found {
  readonly reader: string
  /** The object as read, `undefined` when the reader does not find it. */
  readonly object: Record<string, unknown> | undefined
  readonly exchange: Exchange | undefined
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
