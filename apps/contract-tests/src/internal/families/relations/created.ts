/**
 * Created: what a create makes is in the Lists of its kind (the whole object as the create
 * returned it), found by a `search` and a `filter` on its name, and returned by the Get of its kind.
 */
import * as Effect from "effect/Effect"
import type { ContractRules } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  fullObject,
  type Op,
  send,
  show,
  skipped,
  type Suite,
  uniqueNames
} from "../../context.js"
import * as Gen from "../../generate.js"
import { type Exchange, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { nonMatching, selection } from "../../oracles/search-filter.js"
import { storedDifference } from "../../objectDifference.js"
import { fail, type Outcome, pass } from "../../outcome.js"
import { findById, MAX_WALK_PAGES, walk } from "../../walk.js"
import { objectIn } from "../shared/objects.js"
import { getReaders, listReaders, relationCreates } from "../shared/readers.js"
import { at, baseFor, has, lastOf, probesOf } from "./select.js"

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
