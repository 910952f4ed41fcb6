/**
 * Reads: a Get returns the object its id names (GetEncryptionKeysByKeyId: the keys with that
 * `keyId`), the same twice, and as a List of its kind shows it.
 */
import * as Effect from "effect/Effect"
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
import { everything, requiredRefs } from "../listWalk.js"
import { listedAlike, readTwice } from "../oracles/stable-reads.js"
import { getReaders, listReaders } from "./shared/readers.js"

const CHECKS: ReadonlyArray<CheckId> = ["stable-reads", "search-filter"]

const stableSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "get") return undefined
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("stable", op.method, CHECKS, false, g.reason)
  return {
    family: "stable",
    method: op.method,
    checks: CHECKS,
    writes: false,
    skip: undefined,
    cases: {
      _tag: "Property",
      arbitrary: g.arbitrary,
      examples: Math.max(3, Math.ceil(ctx.examples / 10))
    },
    run: (body: Body) =>
      Effect.gen(function* () {
        const a = yield* send(ctx, post(op.path, body))
        const b = yield* send(ctx, post(op.path, body))
        return readTwice(op, Gen.normalizeKeys(body) as Body, a, b)
      })
  }
}

/** How many items of a List the agree suite reads again with a Get. */
const AGREE_READS = 4

/**
 * A Get by id whose kind a List also returns: the List walked once (its required references from
 * the pools), then each of its first items read with the Get, to compare the two.
 */
const agreeSuite = (op: Op, ctx: Context): Suite | undefined => {
  if (!getReaders(op).includes(op)) return undefined
  const list = listReaders(op)[0]
  if (list === undefined) return undefined
  const base = requiredRefs(list, ctx.pools, 0)
  if (base === undefined)
    return skipped("listed", op.method, ["stable-reads"], false, `no references for ${list.method}`)
  const walked = everything(ctx, list)
  return {
    family: "listed",
    method: op.method,
    checks: ["stable-reads"],
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: AGREE_READS, at: (i) => i },
    run: (i: number) =>
      Effect.gen(function* () {
        const w = yield* walked(base)
        const item = w.items[i]
        const listed = w.pages.find((p) => p.items.includes(item!))
        if (item === undefined || listed === undefined || typeof item.id !== "string") return []
        const got = yield* send(ctx, post(op.path, { id: item.id }))
        const verdict = listedAlike(op, got, list, item, listed.exchange)
        return verdict === undefined ? [] : [verdict]
      })
  }
}

export const reads: Family = {
  name: "reads",
  checks: CHECKS,
  suites: (op, ctx) =>
    [stableSuite(op, ctx), agreeSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
