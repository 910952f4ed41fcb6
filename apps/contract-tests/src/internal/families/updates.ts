/**
 * Partial updates: the fields sent change, the others (absent or `null`) stay, `updatedAt` moves
 * forward, and later reads show what the update returned.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { Operations } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  type Op,
  send,
  skipped,
  type Suite
} from "../context.js"
import * as Gen from "../generate.js"
import { post } from "../http.js"
import { requestPropertyNames } from "../pools.js"
import { findById, requiredRefs } from "../listWalk.js"
import {
  sentFields,
  tieUnit,
  updatedObject,
  updatedThenRead,
  type UpdateTrace
} from "../oracles/update-semantics.js"
import { storedTextEdges } from "./shared/storedText.js"

/** The list operations that return the same object schema (the later read of an update). */
const readersOf = (op: Op): ReadonlyArray<Op> =>
  (Operations.all as ReadonlyArray<Op>).filter((o) => o.kind === "list" && o.object === op.object)

const CHECKS: ReadonlyArray<CheckId> = ["update-semantics"]

/**
 * The least wait before an update sent again after a tie: a clock may be coarser than the digits
 * it writes (a 15.6 ms system timer, SQL Server's 1/300 s written with three digits).
 */
const TIE_WAIT_MILLIS = 50

const updateSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "update") return undefined
  if (ctx.readOnly) return skipped("update", op.method, CHECKS, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("update", op.method, CHECKS, true, g.reason)
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
      examples: Math.max(3, Math.ceil(ctx.examples / 10)),
      // Each free-text field first, as a server must store it: spaces at its ends, 255 characters;
      // the other fields sent as `null`, so that these cases also judge what `null` leaves.
      first: storedTextEdges(op, g.arbitrary, ctx.runId).map((make) => ({
        body: make(),
        nulls: true
      }))
    },
    run: ({ body: generated, nulls }: { body: Body; nulls: boolean }) =>
      Effect.gen(function* () {
        const id = generated.id as string
        const body: Body = { ...generated }
        if (nulls) for (const k of fields) if (!(k in body)) body[k] = null
        // The state before: an update that sends only the id changes nothing.
        const first = yield* send(ctx, post(op.path, { id }))
        const before = updatedObject(op, first)
        if (before === undefined) return []
        const update = yield* send(ctx, post(op.path, body))
        const after = updatedObject(op, update)
        if (after === undefined) return []
        const unit = tieUnit(op, before, after)
        // A tie within a tick finer than a second: the same update again once that tick has passed.
        const retry =
          unit !== undefined && unit < 1000
            ? yield* Effect.zipRight(
                Effect.sleep(Math.max(Math.ceil(unit) + 1, TIE_WAIT_MILLIS)),
                send(ctx, post(op.path, body))
              )
            : undefined
        const reread = yield* send(ctx, post(op.path, { id }))
        const listed: Array<UpdateTrace["listed"][number]> = []
        for (const reader of readers) {
          const base = requiredRefs(reader, ctx.pools, 0)
          if (base === undefined) continue
          const { item, walk } = yield* findById(ctx, reader, id, base)
          listed.push({ reader, item, walk })
        }
        const verdicts = updatedThenRead({ op, body, first, update, retry, reread, listed })
        // Put back what was changed.
        const restore: Body = { id }
        for (const [k] of sentFields(op, body)) restore[k] = before[k] ?? null
        for (const k of Object.keys(restore))
          if (k !== "id" && !Gen.isValid(op, { id, [k]: restore[k] })) delete restore[k]
        if (Object.keys(restore).length > 1) yield* send(ctx, post(op.path, restore))
        return verdicts
      })
  }
}

export const updates: Family = {
  name: "updates",
  checks: CHECKS,
  suites: (op, ctx) => [updateSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
