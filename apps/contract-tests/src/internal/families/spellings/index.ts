/**
 * Spellings of one valid request that the standards make the same request, sent beside its
 * plainest spelling: the body's JSON with escapes (`\u0061` for `a`, `\/` for `/`, in every name and
 * string at every depth: a List's request gets a filter condition to escape), with whitespace
 * between all its tokens, with `Content-Type: application/json; charset=utf-8`, with each optional
 * field its nested objects leave out sent as `null`, and with each optional field it leaves out sent
 * as its zero value (`""`, `false`, `0`, `[]`; not in an update, whose absent fields stay as they
 * are, and not where proto3 or decisions.md section 10 lets the two differ: enums, ids, one-of
 * variants, secrets, formats, cursors). Each spelling is accepted when the plainest is, a read
 * answers it with the same object or items, and a create returns what it was sent.
 */
import * as Effect from "effect/Effect"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  isWrite,
  type Op,
  send,
  skipped,
  type Suite,
  uniqueNames
} from "../../context.js"
import * as Dimensions from "../../dimensions.js"
import * as Gen from "../../generate.js"
import { type Exchange, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { createEcho } from "../../oracles/create-echo.js"
import { spelledAlike } from "../../oracles/valid-accepted.js"
import { spellingsSent } from "../creates.js"
import { sampleBody } from "../shared/sampleBodies.js"
import { type Spelling, spellingsOf } from "./spell.js"

const CHECKS: ReadonlyArray<CheckId> = [
  "valid-accepted",
  "protocol",
  "no-server-errors",
  "error-shape"
]

const spellingSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op))
    return skipped("spellings", op.method, CHECKS, true, "read-only mode")
  const { body, valid } = sampleBody(op, ctx)
  if (!valid)
    return skipped(
      "spellings",
      op.method,
      CHECKS,
      isWrite(op),
      "no valid request can be made (nothing to reference)"
    )
  const spellings = spellingsSent(op, ctx, spellingsOf(op, body))
  // The plainest spelling's answer, sent once for each plain body (a create makes one object for every spelling).
  const plains = new Map<Body, Exchange>()
  return {
    family: "spellings",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: spellings.length, at: (i) => spellings[i] },
    run: (s: Spelling) =>
      Effect.gen(function* () {
        let p = plains.get(s.plain)
        if (p === undefined)
          plains.set(s.plain, (p = yield* send(ctx, post(op.path, uniqueNames(op, s.plain)))))
        // Only a spelling of a request served in its plainest spelling is judged.
        if (Inspect.statusOf(p) !== 200) return []
        const sent = uniqueNames(op, s.plain) as Body
        const text = s.text(sent)
        const e = yield* send(ctx, {
          ...post(
            op.path,
            undefined,
            s.contentType === undefined ? {} : { contentType: s.contentType }
          ),
          body: text
        })
        Dimensions.sent(ctx.dimensions, op.method, s.tags)
        const shape = Inspect.errorShape(e)
        // A create's objects, the spelled one's and the plainest one's, each judged by create-echo.
        const echoes =
          op.kind === "create"
            ? {
                spelled: createEcho(op, Gen.normalizeKeys(JSON.parse(text)) as Body, e),
                plain: createEcho(
                  op,
                  Gen.normalizeKeys(JSON.parse(p.request.body ?? "{}")) as Body,
                  p
                )
              }
            : undefined
        const verdict = spelledAlike({
          op,
          rule: s.rule,
          label: s.label,
          plain: p,
          spelled: e,
          echoes
        })
        return [
          Inspect.noServerErrors(e),
          ...(shape === undefined ? [] : [shape]),
          ...(verdict === undefined ? [] : [verdict])
        ]
      })
  }
}

export const spellings: Family = {
  name: "spellings",
  checks: CHECKS,
  suites: (op, ctx) => [spellingSuite(op, ctx)]
}
