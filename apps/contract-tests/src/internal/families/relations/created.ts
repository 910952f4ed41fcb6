/**
 * Created: what a create makes is in the Lists of its kind (the whole object as the create
 * returned it), found by a `search` and a `filter` on its name, and returned by the Get of its kind.
 * A name that a List searches holds letters beyond ASCII in both cases, so that the search with
 * their case swapped tells a case folding of A to Z only from a full one.
 */
import * as Effect from "effect/Effect"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  fullObject,
  objectIn,
  type Op,
  send,
  skipped,
  type Suite,
  uniqueNames
} from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import * as Gen from "../../generate.js"
import { post } from "../../http.js"
import { type CreatedTrace, createdThenRead } from "../../oracles/create-echo.js"
import { selectsCreated } from "../../oracles/search-filter.js"
import type { Outcome } from "../../outcome.js"
import { findById, MAX_WALK_PAGES, walk } from "../../listWalk.js"
import { requestPropertyNames } from "../../pools.js"
import { getReaders, listReaders, relationCreates } from "../shared/readers.js"
import { baseFor, probesOf } from "./select.js"

const CREATED: ReadonlyArray<CheckId> = ["create-echo", "search-filter"]

export const createdSuite = (op: Op, ctx: Context): Suite | undefined => {
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
  const searched = listReaders(op).some((l) => requestPropertyNames(l).includes("search"))
  return {
    family: "created",
    method: op.method,
    checks: CREATED,
    writes: true,
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: n },
    run: (generated: Body) =>
      Effect.gen(function* () {
        // A name a List searches holds letters beyond ASCII in both cases (`probesOf` swaps them).
        const named = searched ? Gen.withCasedName(op, generated, ctx.runId) : generated
        const e = yield* send(ctx, post(op.path, uniqueNames(op, named)))
        const created = objectIn(op, e)
        // A create refused is the valid family's to judge.
        if (created === undefined || typeof created.id !== "string" || created.id === "") return []
        const id = created.id
        const gets: Array<CreatedTrace["gets"][number]> = []
        for (const get of getReaders(op))
          gets.push({ get, exchange: yield* send(ctx, post(get.path, { id })) })
        const lists: Array<CreatedTrace["lists"][number]> = []
        // The reads that select it by its name, judged by search-filter.
        const selected: Array<Outcome> = []
        for (const list of listReaders(op)) {
          const base = baseFor(list, ctx, created)
          if (base === undefined) continue
          const found = yield* findById(ctx, list, id, base)
          lists.push({ list, found })
          const name = created.name
          // Read by its name only where it was listed as a whole object (else nothing is judged by them).
          if (
            found.item !== undefined &&
            fullObject(list.object, found.item) !== undefined &&
            typeof name === "string" &&
            name !== ""
          )
            for (const probe of probesOf(list, base, "name", name)) {
              const body = { ...base, limit: 500, ...probe.body }
              if (probe.rule === "search.case-insensitive")
                Dimensions.sent(ctx.dimensions, list.method, Dimensions.valid("search", "case"))
              const w = yield* walk(ctx, list, body, MAX_WALK_PAGES)
              selected.push(...selectsCreated({ ...probe, list, body, name, id, walk: w }))
            }
        }
        return [...createdThenRead({ id, created, gets, lists }), ...selected]
      })
  }
}
