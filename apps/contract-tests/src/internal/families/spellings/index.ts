/**
 * Spellings of one valid request that the standards make the same request, sent beside its
 * plainest spelling: the body's JSON with escapes (`\u0061` for `a`, `\/` for `/`, in every name and
 * string), with whitespace between all its tokens, with `Content-Type: application/json;
 * charset=utf-8`, and with each optional field it leaves out sent
 * as its zero value (`""`, `false`, `0`, `[]`; not in an update, whose absent fields stay as they
 * are, and not where proto3 or decisions.md section 10 lets the two differ: enums, ids, one-of
 * variants, secrets, formats, cursors). Each spelling is accepted when the plainest is, a read
 * answers it with the same object or items, and a create returns what it was sent.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ContractRules } from "@data-access/schema"
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
import { type Exchange, okJson, post } from "../../http.js"
import * as Inspect from "../../inspect.js"
import { firstDifference, sorted } from "../../json.js"
import { createEcho } from "../../oracles/create-echo.js"
import { fail, type Outcome, pass, type Verdict } from "../../outcome.js"
import { itemsOf } from "../../walk.js"
import { spellingsSent } from "../creates.js"
import { sampleBody } from "../shared/bodies.js"
import { type Spelling, spellingsOf } from "./spell.js"

/** What a read's answer says: a List's items (its cursor is opaque and may differ), a Get's whole body. */
const readOf = (op: Op, json: unknown): unknown =>
  op.kind === "list" ? itemsOf(op, json) : sorted(json)

/**
 * Whether the answer refuses the request itself: not a rate limit or an overload answered first,
 * not a 5xx (judged as such), not already_exists (a create of the same link twice, which no must
 * says a server accepts).
 */
const refused = (e: Exchange): boolean => {
  const status = Inspect.statusOf(e)
  return (
    status !== undefined &&
    status !== 200 &&
    status < 500 &&
    !Inspect.answeredFirst(e) &&
    Inspect.codeOf(e) !== "already_exists"
  )
}

const isFail = (v: Verdict): v is Outcome => "ok" in v && !v.ok

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
        const out: Array<Verdict> = [Inspect.noServerErrors(e)]
        const shape = Inspect.errorShape(e)
        if (shape !== undefined) out.push(shape)
        const problem = (cause: string, what: string, detail?: string): Outcome =>
          fail(
            s.rule,
            `${s.label}: ${cause}`,
            `the same request with ${s.label} ${what}; its plainest spelling was answered 200`,
            e,
            detail
          )
        if (refused(e))
          return [
            ...out,
            problem(
              "refused",
              `was refused with ${Inspect.summary(e)}`,
              Option.match(e.response, {
                onNone: () => undefined,
                onSome: (r) => Inspect.excerpt(r, 300)
              })
            )
          ]
        if (Inspect.statusOf(e) !== 200) return out
        if (op.kind === "get" || op.kind === "list") {
          const d = firstDifference(readOf(op, okJson(p)), readOf(op, okJson(e)))
          if (d !== undefined)
            return [
              ...out,
              problem(
                "answered differently",
                `was answered with another ${op.kind === "list" ? "page" : "object"} (first difference at ${d})`,
                `at ${d}`
              )
            ]
        }
        if (op.kind === "create") {
          // The create returns what it was sent, as it does in the plainest spelling.
          const echoed = createEcho(op, Gen.normalizeKeys(JSON.parse(text)) as Body, e).find(isFail)
          if (
            echoed !== undefined &&
            !createEcho(op, Gen.normalizeKeys(JSON.parse(p.request.body ?? "{}")) as Body, p).some(
              isFail
            )
          ) {
            return [
              ...out,
              problem(
                "made another object",
                `made an object other than it was sent (${echoed.message})`
              )
            ]
          }
        }
        return [...out, pass(ContractRules.get(s.rule).check, [s.rule])]
      })
  }
}

export const spellings: Family = {
  name: "spellings",
  checks: CHECKS,
  suites: (op, ctx) => [spellingSuite(op, ctx)]
}
