/**
 * Ids that name nothing: a Get or Update of an unknown id, and a Create (or UpdateSatellite)
 * referencing an unknown object or user, are not_found.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
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
import * as Gen from "../generate.js"
import { type Exchange, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { alwaysSentEnums } from "../requestShape.js"
import { type NamesNothingRule, namesNothing } from "../oracles/error-shape.js"
import type { Outcome } from "../outcome.js"
import { referenceOf, requestPropertyNames, valuesOf } from "../pools.js"
import { namedRead } from "../oracles/stable-reads.js"
import * as Dimensions from "../dimensions.js"
import * as UnicodeText from "../unicodeText.js"
import { sampleBodies } from "./shared/sampleBodies.js"

const CHECKS: ReadonlyArray<CheckId> = ["no-server-errors", "error-shape"]

/** The trace of one request naming nothing, judged: the answer on its own, then the rule. */
const notFound = (e: Exchange, rule: NamesNothingRule, what: string): ReadonlyArray<Outcome> => [
  Inspect.noServerErrors(e),
  ...namesNothing(e, rule, what)
]

const missingId = (runId: string) => Gen.idSuffix.map((suffix) => `ct-missing-${runId}-${suffix}`)

const unknownIdSuite = (op: Op, ctx: Context): Suite | undefined => {
  if ((op.kind !== "get" && op.kind !== "update") || !requestPropertyNames(op).includes("id"))
    return undefined
  if (ctx.readOnly && isWrite(op))
    return skipped("unknown_id", op.method, CHECKS, true, "read-only mode")
  const g = Gen.unknownId(op, ctx.pools, ctx.runId)
  if (g._tag === "Skip") return skipped("unknown_id", op.method, CHECKS, isWrite(op), g.reason)
  return {
    family: "unknown_id",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: {
      _tag: "Property",
      arbitrary: g.arbitrary,
      examples: Math.max(3, Math.ceil(ctx.examples / 20))
    },
    run: (body: Body) =>
      Effect.map(send(ctx, post(op.path, body)), (e) =>
        notFound(e, "errors.unknown-id", "an id that names nothing")
      )
  }
}

/**
 * A Get or Update whose key (`id`, or a lookup key such as `keyId`) is an existing one changed
 * only in the case of its letters or by a space before or after it: ids and keys are opaque
 * strings (decisions.md section 5), compared exactly, so it names nothing. An `id` is not_found;
 * a lookup key finds only objects whose key is the one sent (none, or not_found: section 10). A
 * server that compares keys loosely (a case-insensitive collation, a trimmed input) reads or
 * writes the object the key is near to.
 */
const nearKeySuite = (op: Op, ctx: Context): Suite | undefined => {
  if (op.kind !== "get" && op.kind !== "update") return undefined
  const field = op.lookupKey ?? "id"
  const ref = referenceOf(op, field)
  if (ref === undefined || !requestPropertyNames(op).includes(field)) return undefined
  const checks: ReadonlyArray<CheckId> =
    field === "id" ? CHECKS : ["no-server-errors", "search-filter"]
  if (ctx.readOnly && isWrite(op))
    return skipped("near_key", op.method, checks, true, "read-only mode")
  const known = new Set(valuesOf(ctx.pools, ref))
  const [body] = sampleBodies(op, ctx, 1)
  const key = body?.[field]
  if (body === undefined || typeof key !== "string")
    return skipped("near_key", op.method, checks, isWrite(op), `no known ${field} to send`)
  const cases = UnicodeText.nearTexts(key)
    .filter((near) => !known.has(near.text))
    // The key alone: an update of a server that matches it loosely changes nothing of the object.
    .map((near) => ({ ...near, body: { [field]: near.text } }))
    .filter((c) => Gen.isValid(op, c.body))
  return {
    family: "near_key",
    method: op.method,
    checks,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i: number) => cases[i] },
    run: (c: (typeof cases)[number]) =>
      Effect.map(send(ctx, post(op.path, c.body)), (e) => {
        Dimensions.sent(ctx.dimensions, op.method, Dimensions.refused(field, c.how))
        const what = `${field} ${JSON.stringify(c.text)}, ${c.how === "case" ? "an existing one in another case" : "an existing one with a space"}`
        return field === "id"
          ? notFound(e, "errors.unknown-id", what)
          : [
              Inspect.noServerErrors(e),
              ...[namedRead(op, c.body, e)].filter((o) => o !== undefined)
            ]
      })
  }
}

/** The fields of a write that reference an existing object or user (not the object's own `id`). */
const referenceFields = (op: Op): ReadonlyArray<string> =>
  requestPropertyNames(op).filter((f) => {
    if (op.kind === "update" && f === "id") return false
    const ref = referenceOf(op, f)
    return ref !== undefined
  })

const unknownReferenceSuite = (op: Op, ctx: Context): Suite | undefined => {
  // decisions.md section 2 names referenced ids on Create; an Update's references are not named.
  if (op.kind !== "create") return undefined
  const fields = referenceFields(op)
  if (fields.length === 0) return undefined
  if (ctx.readOnly) return skipped("unknown_ref", op.method, CHECKS, true, "read-only mode")
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  if (g._tag === "Skip") return skipped("unknown_ref", op.method, CHECKS, true, g.reason)
  // Every reference field, and a kinded one (an identity link's identityId) under every kind its
  // kind field names, in turn: case i breaks field i of the list, with a body drawn for it.
  const kinded = op.kindedReference
  const kinds = kinded === undefined ? [] : (alwaysSentEnums(op).get(kinded.kindField) ?? [])
  const targets: ReadonlyArray<{ readonly field: string; readonly kind: string | undefined }> =
    fields.flatMap(
      (field): ReadonlyArray<{ readonly field: string; readonly kind: string | undefined }> =>
        kinded !== undefined && field === kinded.field && kinds.length > 0
          ? kinds.map((kind) => ({ field, kind }))
          : [{ field, kind: undefined }]
    )
  const arbitrary = fc
    .tuple(g.arbitrary, fc.nat(), missingId(ctx.runId))
    .map(([b, n, missing]) => {
      const present = targets.filter((t) => typeof b[t.field] === "string" && b[t.field] !== "")
      const { field, kind } =
        present.length > 0 ? present[n % present.length]! : targets[n % targets.length]!
      const body = {
        ...b,
        [field]: field === "email" ? `${missing}@example.com` : missing,
        ...(kind === undefined ? {} : { [kinded!.kindField]: kind })
      }
      return { field, body }
    })
    .filter(({ body }) => Gen.isValid(op, body))
  const examples = Math.max(3, Math.ceil(ctx.examples / 20), targets.length)
  const drawn = fc.sample(g.arbitrary, { seed: ctx.seed, numRuns: examples })
  const cases = drawn.flatMap((b, i) => {
    const { field, kind } = targets[i % targets.length]!
    const body = {
      ...b,
      [field]:
        field === "email"
          ? `ct-missing-${ctx.runId}-${i}@example.com`
          : `ct-missing-${ctx.runId}-${i}`,
      ...(kind === undefined ? {} : { [kinded!.kindField]: kind })
    }
    return Gen.isValid(op, body) ? [{ field, body }] : []
  })
  return {
    family: "unknown_ref",
    method: op.method,
    checks: CHECKS,
    writes: true,
    skip: undefined,
    cases:
      cases.length >= targets.length
        ? { _tag: "Enumerated", count: cases.length, at: (i: number) => cases[i] }
        : { _tag: "Property", arbitrary, examples },
    run: ({ field, body }: { field: string; body: Body }) =>
      Effect.map(send(ctx, post(op.path, uniqueNames(op, body))), (e) =>
        notFound(e, "errors.unknown-reference", `${field} naming nothing`)
      )
  }
}

export const references: Family = {
  name: "references",
  checks: [...CHECKS, "search-filter"],
  suites: (op, ctx) =>
    [unknownIdSuite(op, ctx), nearKeySuite(op, ctx), unknownReferenceSuite(op, ctx)].filter(
      (s): s is Suite => s !== undefined
    )
}
