/**
 * What the target holds before the suites run: whether it answers at all (the probe), whether it
 * speaks Connect JSON, and the ids of the objects that exist (the fixtures, plus what every List
 * operation returns), gathered into the pools the generators draw from.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { KnownIds } from "@data-access/schema"
import type { Op } from "../context.js"
import { type Exchange, okJson, post, type Target } from "../http.js"
import * as Inspect from "../inspect.js"
import {
  fromKnownIds,
  type Pools,
  poolOfIdentifier,
  poolOfOperation,
  requestPropertyNames
} from "../pools.js"
import { allOps } from "./options.js"
import { isEncoded } from "../schemas.js"

/** The plan reads answers with the same reader. */
export { okJson }

/** The first List operation that needs nothing but `limit`: the probe of reachability and auth. */
export const probeOperation = allOps.find(
  (o) => o.kind === "list" && isEncoded(o.request.ast)({ limit: 1 })
)!

/** Whether an answer is Connect JSON: a JSON object body with a JSON content type. */
export const speaksConnect = (e: Exchange): boolean =>
  Option.match(e.response, {
    onNone: () => true,
    onSome: (r) =>
      Inspect.contentTypeIsJson(r) &&
      Option.isSome(r.json) &&
      typeof r.json.value === "object" &&
      r.json.value !== null &&
      !Array.isArray(r.json.value)
  })

/** Every item of a List operation, page after page (at most `readPages` pages of 500). */
const listAll = (target: Target, op: Op, body: Record<string, unknown>, readPages: number) =>
  Effect.gen(function* () {
    const items: Array<Record<string, unknown>> = []
    let cursor: string | undefined
    for (let page = 0; page < readPages; page++) {
      const sent = yield* Effect.either(
        target.send(
          post(
            op.path,
            cursor === undefined ? { ...body, limit: 500 } : { ...body, limit: 500, cursor }
          )
        )
      )
      if (sent._tag === "Left") break
      const json = okJson(sent.right) as Record<string, unknown> | undefined
      const page_ = json?.[op.itemField ?? ""]
      if (!Array.isArray(page_)) break
      items.push(...page_.filter((x) => x !== null && typeof x === "object"))
      const next = (json?.listMetadata as Record<string, unknown> | undefined)?.nextCursor
      if (typeof next !== "string" || next === "") break
      cursor = next
    }
    return items
  })

/** The request field a List operation cannot do without (`resourceId` of ListNativeUsers), if any. */
const requiredReference = (op: Op): string | undefined =>
  requestPropertyNames(op).find(
    (p) => p !== "limit" && /Id$/.test(p) && isEncoded(op.request.ast)({ limit: 1 }) === false
  )

/** Ids by pool, growing without duplicates. */
const idCollector = (initial: Readonly<Record<string, ReadonlyArray<string>>>) => {
  const ids: Record<string, Array<string>> = Object.fromEntries(
    Object.entries(initial).map(([k, v]) => [k, [...v]])
  )
  const add = (pool: string | undefined, id: unknown) => {
    if (pool === undefined || typeof id !== "string" || id === "") return
    const list = (ids[pool] ??= [])
    if (!list.includes(id)) list.push(id)
  }
  return { ids, add }
}

/** Discovery: every List operation adds the ids it returns to the pools. */
export const discover = (
  target: Target,
  fixtures: KnownIds.KnownIds | undefined,
  readPages: number,
  concurrency: number
) =>
  Effect.gen(function* () {
    const base = fromKnownIds(fixtures ?? ({} as KnownIds.KnownIds))
    const { add, ids } = idCollector(base.ids)
    const byResource = new Map<string, Array<string>>()
    // Lists without required references first, then ListNativeUsers-like lists per reference;
    // the lists of each step are read up to `concurrency` at once, their ids added in the table's order.
    const lists = allOps.filter((o) => o.kind === "list")
    const unscoped = lists.filter((op) => requiredReference(op) === undefined)
    const pages = yield* Effect.forEach(unscoped, (op) => listAll(target, op, {}, readPages), {
      concurrency
    })
    unscoped.forEach((op, i) => {
      const pool = poolOfOperation(op)
      for (const it of pages[i]!) {
        add(pool, it.id)
        add("spaces", it.spaceId)
      }
    })
    for (const op of lists) {
      const refField = requiredReference(op)
      if (refField === undefined) continue
      const pool = poolOfOperation(op)
      const refPool = poolOfIdentifier(refField.charAt(0).toUpperCase() + refField.slice(1, -2))
      const refIds = (refPool ? ids[refPool] : undefined)?.slice(0, 25) ?? []
      const scoped = yield* Effect.forEach(
        refIds,
        (refId) => listAll(target, op, { [refField]: refId }, readPages),
        { concurrency }
      )
      refIds.forEach((refId, i) => {
        for (const it of scoped[i]!) {
          add(pool, it.id)
          if (refField === "resourceId" && typeof it.id === "string")
            byResource.set(refId, [...(byResource.get(refId) ?? []), it.id])
        }
      })
    }
    const counts = Object.entries(ids)
      .filter(([, v]) => v.length > 0)
      .map(([k, v]) => `${k} ${v.length}`)
    const notes = [`known ids: ${counts.join(", ") || "none"}; users ${base.users.length}`]
    const pools: Pools = { ids, users: base.users, nativeUsersByResource: byResource }
    return { pools, notes }
  })
