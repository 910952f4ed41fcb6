/**
 * Valid requests: accepted with 200 (also with unknown fields, snake_case names and `null` for
 * unset fields), every response checked on its own, and creates returning what they were sent.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ContractRules } from "@data-access/schema"
import type { CheckId } from "../../Checks.js"
import { secretFieldNames } from "../ast.js"
import { type Body, type Context, type Family, fullObject, isWrite, objectOf, objectPropertyNames, type Op, send, show, skipped, type Suite, uniqueNames } from "../context.js"
import * as Gen from "../generate.js"
import { type Exchange, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { asRecord, sameAsSent } from "../json.js"
import { fail, note, type Outcome, pass, type Verdict } from "../outcome.js"
import { requestPropertyNames } from "../pools.js"

const statusText = (e: Exchange) => Inspect.codeOf(e) ?? `HTTP ${Inspect.statusOf(e) ?? "none"}`
const rejectedBy = (e: Exchange) => {
  const status = Inspect.statusOf(e)
  return status !== undefined && status !== 200 && status < 500
}

/**
 * Which must a rejected valid request breaks: the same request in its plain form (lowerCamelCase,
 * no unknown field, no `null`) is sent to tell a spelling fault from a fault of the request itself.
 */
const diagnose = (ctx: Context, op: Op, sent: Body) =>
  Effect.gen(function* () {
    const plain = Gen.plainForm(op, sent)
    const limit500 = plain.limit === 500
    if (Gen.sameBody(plain, sent)) return limit500 ? ("lists.limit-accepted" as const) : ("fields.valid-accepted" as const)
    const e = yield* send(ctx, post(op.path, uniqueNames(op, plain)))
    if (rejectedBy(e)) return limit500 ? ("lists.limit-accepted" as const) : ("fields.valid-accepted" as const)
    if (Gen.hasUnknownFields(op, sent)) return "wire.unknown-fields-ignored" as const
    if (Gen.hasSnakeCase(sent)) return "wire.snake-case" as const
    return "wire.null-is-unset" as const
  })

const labels: Partial<Record<ContractRules.RuleId, string>> = {
  "lists.limit-accepted": "limit 500",
  "wire.unknown-fields-ignored": "unknown field",
  "wire.snake-case": "snake_case names",
  "wire.null-is-unset": "null for unset fields"
}

/** create-echo: sent fields read back unchanged, the linked group named; a secret returned is a note. */
export const createEcho = (op: Op, sent: Body, e: Exchange): ReadonlyArray<Verdict> => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || r.status !== 200 || Option.isNone(r.json)) return []
  const raw = objectOf(op, r.json.value)
  const full = fullObject(op.object, raw)
  if (full === undefined) return []
  const props = objectPropertyNames(op)
  const known = new Set(requestPropertyNames(op))
  const rawObj = asRecord(raw) ?? {}
  const out: Array<Verdict> = []
  // Secrets: returning one is a server's choice (decisions.md section 10), reported as a note.
  const echoed: Array<string> = []
  const findEchoes = (s: unknown, got: unknown, path: string): void => {
    const so = asRecord(s)
    const go = asRecord(got)
    if (so === undefined || go === undefined) return
    for (const [k, v] of Object.entries(so)) {
      const at = path ? `${path}.${k}` : k
      if (secretFieldNames.has(k) && typeof v === "string" && v !== "" && go[k] === v) echoed.push(at)
      else findEchoes(v, go[k], at)
    }
  }
  findEchoes(sent, rawObj, "")
  if (echoed.length > 0) out.push(note("secret-returned", `the response returns the secret sent in ${echoed.join(", ")} (value not shown)`, e))
  for (const [k, v] of Object.entries(sent)) {
    if (!known.has(k) || v === null || v === undefined || secretFieldNames.has(k)) continue
    if (props.has(k)) {
      if (!sameAsSent(v, full[k], (key) => secretFieldNames.has(key))) {
        return [...out, fail("echo.create", `${k} differs`, `sent ${k} ${show(v)}, the created object has ${show(full[k])}`, e, `${k} = ${show(full[k])}`)]
      }
      continue
    }
    const m = /^(.+)Id$/.exec(k)
    if (m !== null && props.has(m[1]!) && asRecord(rawObj[m[1]!]) !== undefined) {
      const got = asRecord(rawObj[m[1]!])!.id
      if (got !== v) {
        return [...out, fail("echo.create", `${k} differs`, `sent ${k} ${show(v)}, the created object's ${m[1]}.id is ${JSON.stringify(got)}`, e, `${m[1]}.id = ${JSON.stringify(got)}`)]
      }
    }
  }
  // The linked identity: a `group` link names its group (decisions.md section 6).
  if (sent.identityType === "group" && typeof sent.identityId === "string" && props.has("group")) {
    const group = asRecord(rawObj.group)
    if (group?.id !== sent.identityId) {
      return [...out, fail("echo.identity-group", "linked group not returned", `a link to group ${JSON.stringify(sent.identityId)} came back with group ${show(rawObj.group)}`, e, `group = ${show(rawObj.group)}`)]
    }
  }
  return [...out, pass("create-echo")]
}

const validSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = ["no-server-errors", "success-shape", "error-shape", "response-schema", "timestamps", "valid-accepted"]
  if (op.kind === "create") checks.push("create-echo")
  if (ctx.readOnly && isWrite(op)) return skipped("valid", op.method, checks, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: true })
  if (g._tag === "Skip") return skipped("valid", op.method, checks, isWrite(op), g.reason)
  return {
    family: "valid",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Property", arbitrary: g.arbitrary, examples: op.kind === "create" ? Math.min(ctx.examples, ctx.createExamples) : ctx.examples },
    run: (generated: Body) =>
      Effect.gen(function* () {
        const body = uniqueNames(op, generated) as Body
        const e = yield* send(ctx, post(op.path, body))
        const out: Array<Verdict> = [...Inspect.basic(op, e, ctx.skewMillis)]
        const status = Inspect.statusOf(e)
        if (status === 200) out.push(pass("valid-accepted"))
        else if (rejectedBy(e)) {
          const rule = yield* diagnose(ctx, op, body)
          const label = labels[rule] ?? "valid request"
          out.push(fail(rule, `${label}: rejected with ${statusText(e)}`, `a valid request (${label}) was rejected with ${statusText(e)}`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 300) })))
        }
        if (op.kind === "create") out.push(...createEcho(op, Gen.normalizeKeys(body) as Body, e))
        return out
      })
  }
}

export const valid: Family = {
  name: "valid",
  checks: ["no-server-errors", "success-shape", "error-shape", "response-schema", "timestamps", "valid-accepted", "create-echo"],
  suites: (op, ctx) => [validSuite(op, ctx)]
}

export type { Outcome }
