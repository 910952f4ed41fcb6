/** Valid bodies sampled for an operation, the same in every run of a seed: for suites where only headers, methods or one field matter. */
import * as fc from "effect/FastCheck"
import { type Body, type Context, type Op, uniqueNames } from "../../context.js"
import * as Gen from "../../generate.js"
import type { Pools } from "../../pools.js"

/**
 * The bodies drawn so far per pools, operation and run (`undefined`: no valid request can be
 * made): a draw depends on nothing else, and the first `n` of a longer sample are the sample of
 * `n` (fast-check draws each value from the seed and its index), so the suites share one draw.
 */
const drawn = new WeakMap<
  Pools,
  Map<Op, { readonly runId: string; readonly bodies: ReadonlyArray<Body> | undefined }>
>()

/** The first `n` valid bodies of the seed, before their names are made unique. */
const draw = (op: Op, ctx: Context, n: number): ReadonlyArray<Body> => {
  let byOp = drawn.get(ctx.pools)
  if (byOp === undefined) drawn.set(ctx.pools, (byOp = new Map()))
  const known = byOp.get(op)
  if (known !== undefined && known.runId === ctx.runId) {
    if (known.bodies === undefined) return []
    if (known.bodies.length >= n) return known.bodies.slice(0, n)
  }
  const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  const bodies = g._tag === "Skip" ? undefined : fc.sample(g.arbitrary, { seed: 1, numRuns: n })
  byOp.set(op, { runId: ctx.runId, bodies })
  return bodies ?? []
}

/** `n` valid bodies, the same in every run of a seed (none when no valid request can be made: nothing to reference). */
export const sampleBodies = (op: Op, ctx: Context, n: number): ReadonlyArray<Body> =>
  draw(op, ctx, n).map((b) => uniqueNames(op, b) as Body)

/** A body for cases where only headers or methods matter: a valid request if one can be made (`valid`), else `{}`. */
export const sampleBody = (
  op: Op,
  ctx: Context
): { readonly body: Body; readonly valid: boolean } => {
  const body = sampleBodies(op, ctx, 1)[0]
  return body === undefined ? { body: {}, valid: false } : { body, valid: true }
}
