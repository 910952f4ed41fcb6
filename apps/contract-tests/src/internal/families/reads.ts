/**
 * Reads: a Get returns the object its id names (GetEncryptionKeysByKeyId: the keys with that
 * `keyId`), and the same twice.
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
import { readTwice } from "../oracles/stable-reads.js"

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

export const reads: Family = {
  name: "reads",
  checks: CHECKS,
  suites: (op, ctx) => [stableSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
