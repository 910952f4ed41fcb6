/**
 * Valid requests: accepted with 200 (also with unknown fields, snake_case names and `null` for
 * unset fields), every response checked on its own, and creates returning what they were sent.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import { Deadline, SchemaWalk } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  isWrite,
  type Op,
  send,
  show,
  skipped,
  type Suite,
  uniqueNames
} from "../context.js"
import * as Gen from "../generate.js"
import { createEcho } from "../oracles/create-echo.js"
import { acceptanceRule, plainAcceptance } from "../oracles/valid-accepted.js"
import { type Exchange, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { fail, type Outcome, pass, type Verdict } from "../outcome.js"
import { referenceOf } from "../pools.js"
import * as TextLength from "../textLength.js"
import { validExamples } from "./creates.js"
import { objectIn } from "./shared/objects.js"

/** The deadline some valid calls set: a minute. */
const DEADLINE_MS = 60_000

const statusText = (e: Exchange) => Inspect.codeOf(e) ?? `HTTP ${Inspect.statusOf(e) ?? "none"}`
const rejectedBy = (e: Exchange) => {
  const status = Inspect.statusOf(e)
  // A rate limit or an overload may answer any request first: no refusal of the request.
  return status !== undefined && status !== 200 && status < 500 && !Inspect.answeredFirst(e)
}

/**
 * Which must a rejected valid request breaks: the same request in its plain form (lowerCamelCase,
 * no unknown field, no `null`) is sent to tell a spelling fault from a fault of the request itself.
 */
const diagnose = (ctx: Context, op: Op, sent: Body) =>
  Effect.gen(function* () {
    const plain = Gen.plainForm(op, sent)
    if (Gen.sameBody(plain, sent)) return plainAcceptance(plain)
    const e = yield* send(ctx, post(op.path, uniqueNames(op, plain)))
    if (rejectedBy(e)) return plainAcceptance(plain)
    // Unknown fields beside another spelling: the request without them tells which one is refused.
    const known = Gen.withoutUnknownFields(op, sent)
    if (!Gen.hasUnknownFields(op, sent) || Gen.sameBody(known, plain))
      return acceptanceRule(op, sent)
    const e2 = yield* send(ctx, post(op.path, uniqueNames(op, known)))
    return rejectedBy(e2) ? acceptanceRule(op, known) : acceptanceRule(op, sent)
  })

/** The minimal form of a create's request (Gen.minimal) of one fixed draw, with no deadline. */
const minimalCreate = (
  op: Op,
  arbitrary: fc.Arbitrary<Body>
): ReadonlyArray<readonly [Body, undefined]> => {
  const [drawn] = fc.sample(arbitrary, { seed: 1, numRuns: 1 })
  const body = drawn === undefined ? undefined : Gen.minimal(op, Gen.plainForm(op, drawn))
  return body === undefined ? [] : [[body, undefined]]
}

/**
 * A write's request of one fixed draw with its `name` exactly as long as every server accepts
 * (255 ASCII characters, one length under every count: decisions.md section 10 lets a server refuse
 * only longer ones), when the schema takes such a name (not a name with a pattern or a shorter
 * limit), with a deadline: every such write sends one however few examples its allowance leaves.
 */
const longestName = (
  op: Op,
  arbitrary: fc.Arbitrary<Body>,
  prefix: string
): ReadonlyArray<readonly [Body, number]> => {
  // Only where `name` is a request field: elsewhere it is an unknown field of a create that may be
  // refused as taken (Inspect.takenCreate reads a create with a `name` as one made fresh).
  if (!isWrite(op) || !SchemaWalk.requestFields(op).has("name")) return []
  const [drawn] = fc.sample(arbitrary, { seed: 1, numRuns: 1 })
  if (drawn === undefined) return []
  const body = {
    ...Gen.plainForm(op, drawn),
    name: prefix.padEnd(TextLength.SAFE_STRING_LENGTH, "n")
  }
  return Gen.isValid(op, body) ? [[body, DEADLINE_MS]] : []
}

/**
 * The user a user operation's request names (CreateHumanUserPassword's `email`, `username` or
 * `id`), looked up in the known users: the answer's `username` is theirs.
 */
const passwordUser = (op: Op, ctx: Context, sent: Body, e: Exchange): Outcome | undefined => {
  if (op.oneOf === undefined) return undefined
  const variant = op.oneOf.find((f) => typeof sent[f] === "string" && sent[f] !== "")
  const ref = variant === undefined ? undefined : referenceOf(op, variant)
  if (variant === undefined || ref?._tag !== "User") return undefined
  const user = ctx.pools.users.find((u) => u[ref.field] === sent[variant])
  const got = objectIn(op, e)
  if (user === undefined || got === undefined || !("username" in got)) return undefined
  return got.username === user.username
    ? pass("create-echo", ["echo.password-user"])
    : fail(
        "echo.password-user",
        "another user's password",
        `a password for the user with ${variant} ${show(sent[variant])} came back for the username ${show(got.username)}; that user's username is ${show(user.username)}`,
        e,
        `username = ${show(got.username)}`
      )
}

const validSuite = (op: Op, ctx: Context): Suite => {
  const checks: Array<CheckId> = [
    "no-server-errors",
    "success-shape",
    "error-shape",
    "response-schema",
    "timestamps",
    "valid-accepted"
  ]
  if (op.kind === "create") checks.push("create-echo")
  if (ctx.readOnly && isWrite(op))
    return skipped("valid", op.method, checks, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: true })
  if (g._tag === "Skip") return skipped("valid", op.method, checks, isWrite(op), g.reason)
  return {
    family: "valid",
    method: op.method,
    checks,
    writes: isWrite(op),
    skip: undefined,
    // A quarter of the calls set a deadline as a client does (decisions.md section 1), far longer than any call takes.
    cases: {
      _tag: "Property",
      arbitrary: fc.tuple(
        g.arbitrary,
        fc.option(fc.constant(DEADLINE_MS), { freq: 3, nil: undefined })
      ),
      // A create's share of --creates-per-operation, less what the other suites create (creates.ts).
      examples: validExamples(op, ctx),
      // A create's first example leaves out every field it can: with few examples (a small
      // --creates-per-operation), every field left out is still judged once as its zero value. A
      // write's next one names its object with the longest name every server accepts, with a
      // deadline.
      first: [
        ...(op.kind === "create" ? minimalCreate(op, g.arbitrary) : []),
        ...longestName(op, g.arbitrary, Gen.namePrefix(ctx.runId))
      ]
    },
    run: ([generated, deadline]: readonly [Body, number | undefined]) =>
      Effect.gen(function* () {
        const body = uniqueNames(op, generated) as Body
        const e = yield* send(
          ctx,
          post(
            op.path,
            body,
            deadline === undefined
              ? {}
              : { headers: { [Deadline.TIMEOUT_HEADER]: Deadline.formatTimeout(deadline) } }
          )
        )
        const out: Array<Verdict> = [...Inspect.basic(op, e, ctx.skewMillis)]
        const status = Inspect.statusOf(e)
        if (status === 200) out.push(pass("valid-accepted", [acceptanceRule(op, body).rule]))
        else if (rejectedBy(e) && !Inspect.takenCreate(op, e)) {
          const { label, rule } = yield* diagnose(ctx, op, body)
          out.push(
            fail(
              rule,
              `${label}: rejected with ${statusText(e)}`,
              `a valid request (${label}) was rejected with ${statusText(e)}`,
              e,
              Option.match(e.response, {
                onNone: () => undefined,
                onSome: (r) => Inspect.excerpt(r, 300)
              })
            )
          )
        }
        if (op.kind === "create") out.push(...createEcho(op, Gen.normalizeKeys(body) as Body, e))
        const user = passwordUser(op, ctx, Gen.normalizeKeys(body) as Body, e)
        if (user !== undefined) out.push(user)
        return out
      })
  }
}

export const valid: Family = {
  name: "valid",
  checks: [
    "no-server-errors",
    "success-shape",
    "error-shape",
    "response-schema",
    "timestamps",
    "valid-accepted",
    "create-echo"
  ],
  suites: (op, ctx) => [validSuite(op, ctx)]
}

export type { Outcome }
