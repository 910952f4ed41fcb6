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
import { okJson, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { firstDifference, sorted } from "../json.js"
import { namedRead } from "../oracles/stable-reads.js"
import { fail, type Outcome, pass } from "../outcome.js"

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
        const ja = okJson(a)
        const jb = okJson(b)
        if (ja === undefined || jb === undefined) {
          if (Inspect.statusOf(a) !== Inspect.statusOf(b))
            return [
              fail(
                "reads.stable",
                "status differs",
                `the same Get answered ${Inspect.summary(a)} then ${Inspect.summary(b)}`,
                b
              )
            ]
          return []
        }
        const out: Array<Outcome> = []
        const n = namedRead(op, Gen.normalizeKeys(body) as Body, a)
        if (n !== undefined) out.push(n)
        const diff = firstDifference(sorted(ja), sorted(jb))
        out.push(
          diff === undefined
            ? pass("stable-reads", ["reads.stable"])
            : fail(
                "reads.stable",
                `differs at ${diff.replace(/\[\d+\]/g, "[]")}`,
                `the same Get twice gave different objects (first difference at ${diff})`,
                b,
                `at ${diff}`
              )
        )
        return out
      })
  }
}

export const reads: Family = {
  name: "reads",
  checks: CHECKS,
  suites: (op, ctx) => [stableSuite(op, ctx)].filter((s): s is Suite => s !== undefined)
}
