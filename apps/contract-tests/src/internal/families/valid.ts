/**
 * Valid requests: accepted with 200 (also with unknown fields, snake_case names and `null` for
 * unset fields), every response checked on its own, and creates returning what they were sent.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { Deadline, SchemaWalk } from "@data-access/schema"
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
} from "../context.js"
import * as Dimensions from "../dimensions.js"
import * as Gen from "../generate.js"
import { createEcho, passwordUser } from "../oracles/create-echo.js"
import { accepted, acceptanceRule, plainAcceptance, rejectedBy } from "../oracles/valid-accepted.js"
import { post } from "../http.js"
import * as Inspect from "../inspect.js"
import type { Outcome, Verdict } from "../outcome.js"
import * as TextLength from "../textLength.js"
import { jsonSchemaOf } from "../ast.js"
import { requestPropertyNames } from "../pools.js"
import { validExamples } from "./creates.js"
import { storedTextEdges } from "./shared/storedText.js"

/** The deadline some valid calls set: a minute. */
const DEADLINE_MS = 60_000

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
 * The same fixed draw's minimal create with every request field it leaves out sent as `null`,
 * which proto3 JSON reads as unset: the object made holds their zero values, as the minimal
 * create's does.
 */
const nullCreate = (
  op: Op,
  arbitrary: fc.Arbitrary<Body>
): ReadonlyArray<readonly [Body, undefined]> =>
  minimalCreate(op, arbitrary).flatMap(([body]) => {
    const nulls = requestPropertyNames(op).filter((k) => !(k in body))
    return nulls.length === 0
      ? []
      : [[{ ...body, ...Object.fromEntries(nulls.map((k) => [k, null])) }, undefined] as const]
  })

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
 * Bodies at the edges of a pattern (`patternEdges`) and how each is sent: with a part unique to the
 * run and the send inside its value, not `uniqueNames`' suffix, which would move the edge.
 */
const edgeBodies = new WeakMap<Body, () => Body>()

const edgeNonce = { n: 0 }

/** A pattern of one character class repeated (`^[0-9a-z-]{3,63}$`): its class's members, its longest length. */
const classPattern = (pattern: string) => {
  const m = /^\^\[([^\]\\^]+)\](?:\{(\d+),(\d+)\}|\+)\$$/.exec(pattern)
  if (m === null) return undefined
  // Each range by its first and last character, each single character as itself.
  const members = [...m[1]!.matchAll(/(.)-(.)|(.)/gu)].flatMap((r) =>
    r[3] !== undefined ? [r[3]] : [r[1]!, r[2]!]
  )
  return { members, max: m[3] === undefined ? undefined : Number(m[3]) }
}

/**
 * A write's valid values at the edges of a string field's pattern (one character class repeated):
 * each class's first and last member at the first and at the last position, and the longest
 * length, around a part unique to the run and the send (the run's prefix moves inside the value).
 */
const patternEdges = (
  op: Op,
  arbitrary: fc.Arbitrary<Body>,
  runId: string
): ReadonlyArray<readonly [Body, undefined]> => {
  if (!isWrite(op)) return []
  const [drawn] = fc.sample(arbitrary, { seed: 2, numRuns: 1 })
  if (drawn === undefined) return []
  const plain = Gen.plainForm(op, drawn)
  const out: Array<readonly [Body, undefined]> = []
  for (const [name, field] of SchemaWalk.requestFields(op)) {
    const shape = SchemaWalk.nonNullish(field.shape)
    const edges = shape.refinements.flatMap((r) => {
      const pattern = jsonSchemaOf(r).pattern
      const p = typeof pattern === "string" ? classPattern(pattern) : undefined
      return p === undefined ? [] : [p]
    })[0]
    if (edges === undefined) continue
    const max = edges.max
    const shapes: ReadonlyArray<(unique: string) => string> = [
      ...edges.members.flatMap((c) => [(u: string) => c + u, (u: string) => u + c]),
      ...(max === undefined ? [] : [(u: string) => u.padEnd(max, edges.members[0])])
    ]
    for (const edge of shapes) {
      const make = () => ({ ...plain, [name]: edge(`ct${runId}${(++edgeNonce.n).toString(36)}`) })
      const body = make()
      if (!Gen.isValid(op, body)) continue
      edgeBodies.set(body, make)
      out.push([body, undefined])
    }
  }
  return out
}

/** A write's requests with a free-text field kept as sent (`storedTextEdges`), each sent as its own make does. */
const storedTextBodies = (
  op: Op,
  arbitrary: fc.Arbitrary<Body>,
  runId: string
): ReadonlyArray<readonly [Body, undefined]> =>
  storedTextEdges(op, arbitrary, runId).map((make) => {
    const body = make()
    edgeBodies.set(body, make)
    return [body, undefined] as const
  })

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
  // The model of the run's objects judges what a valid update's answer shows (update-semantics).
  if (op.kind === "update") checks.push("update-semantics")
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
      // --creates-per-operation), every field left out is still judged once as its zero value (and
      // once more sent as `null`, after the other fixed examples). A write's next one names its object with the longest name every server accepts, with a
      // deadline.
      first: [
        ...(op.kind === "create" ? minimalCreate(op, g.arbitrary) : []),
        ...longestName(op, g.arbitrary, Gen.namePrefix(ctx.runId)),
        ...patternEdges(op, g.arbitrary, ctx.runId),
        ...storedTextBodies(op, g.arbitrary, ctx.runId),
        ...(op.kind === "create" ? nullCreate(op, g.arbitrary) : [])
      ]
    },
    run: ([generated, deadline]: readonly [Body, number | undefined]) =>
      Effect.gen(function* () {
        const body = edgeBodies.get(generated)?.() ?? (uniqueNames(op, generated) as Body)
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
        Dimensions.sent(ctx.dimensions, op.method, Dimensions.validTags(op, body))
        const out: Array<Verdict> = [...Inspect.basic(op, e, ctx.skewMillis)]
        // A refusal is put down to a spelling or to the request itself by sending its plain form.
        const diagnosed =
          rejectedBy(e) && !Inspect.takenCreate(op, e) ? yield* diagnose(ctx, op, body) : undefined
        out.push(...accepted(op, body, e, diagnosed))
        const sent = Gen.normalizeKeys(body) as Body
        if (op.kind === "create") out.push(...createEcho(op, sent, e))
        out.push(...passwordUser(op, sent, e, ctx.pools.users))
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
    "create-echo",
    "update-semantics"
  ],
  suites: (op, ctx) => [validSuite(op, ctx)]
}

export type { Outcome }
