/** Valid bodies sampled for an operation, the same in every run of a seed: for suites where only headers, methods or one field matter. */
import * as fc from "effect/FastCheck"
import { type Body, type Context, type Op, uniqueNames } from "../../context.js"
import * as Gen from "../../generate.js"

/** `n` valid bodies, the same in every run of a seed (none when no valid request can be made: nothing to reference). */
export const sampleBodies = (op: Op, ctx: Context, n: number): ReadonlyArray<Body> => {
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  return g._tag === "Skip"
    ? []
    : fc.sample(g.arbitrary, { seed: 1, numRuns: n }).map((b) => uniqueNames(op, b) as Body)
}

/** A body for cases where only headers or methods matter: a valid request if one can be made (`valid`), else `{}`. */
export const sampleBody = (
  op: Op,
  ctx: Context
): { readonly body: Body; readonly valid: boolean } => {
  const body = sampleBodies(op, ctx, 1)[0]
  return body === undefined ? { body: {}, valid: false } : { body, valid: true }
}
