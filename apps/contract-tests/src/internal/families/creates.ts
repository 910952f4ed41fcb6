/**
 * The create budget of a Create operation: `--creates-per-operation` shared out in a fixed order, so
 * that a run never makes more objects than it was allowed. The relations' read-backs come first,
 * then the latitude probes that create, the bursts in quick succession and the spellings, each out
 * of what those before it leave once one valid example is kept; the valid examples get the rest.
 * Like `index.ts`, this module knows the families whose suites create: each reads its share here,
 * and no family imports another.
 */
import type { Context, Op } from "../context.js"
import { latitudeCreates } from "./latitude/probes.js"
import { sampleBody } from "./shared/sampleBodies.js"
import { hasIds, relationCreates } from "./shared/readers.js"
import { type Spelling, spellingsOf, spellingsWithin } from "./spellings/spell.js"

/** How a burst of creates is sent: one after the other, or all at once. */
export type Burst = "back to back" | "at once"

/**
 * The bursts of a Create operation and the creates each sends, out of `--creates-per-operation`
 * once the relations' and the latitude family's creates and one valid example are taken: two
 * bursts of three, or of two, or one burst of two sent at once; none when fewer are left.
 */
export const burstsOf = (
  op: Op,
  ctx: Context
): { readonly bursts: ReadonlyArray<Burst>; readonly size: number } => {
  const none = { bursts: [], size: 0 }
  if (op.kind !== "create" || ctx.readOnly || !hasIds(op)) return none
  const left = ctx.createExamples - relationCreates(op, ctx) - latitudeCreates(op, ctx) - 1
  if (left >= 20) return { bursts: ["back to back", "at once"], size: 3 }
  if (left >= 4) return { bursts: ["back to back", "at once"], size: 2 }
  return left >= 2 ? { bursts: ["at once"], size: 2 } : none
}

/** How many objects a Create operation makes in quick succession. */
const successionCreates = (op: Op, ctx: Context): number => {
  const { bursts, size } = burstsOf(op, ctx)
  return bursts.length * size
}

/**
 * The spellings a suite sends: every one to a read; to a Create, those whose objects fit in
 * `--creates-per-operation` once the relations', the latitude family's and the quick-succession
 * creates and one valid example are taken.
 */
export const spellingsSent = (
  op: Op,
  ctx: Context,
  all: ReadonlyArray<Spelling>
): ReadonlyArray<Spelling> =>
  op.kind !== "create"
    ? all
    : spellingsWithin(
        all,
        ctx.createExamples -
          relationCreates(op, ctx) -
          latitudeCreates(op, ctx) -
          successionCreates(op, ctx) -
          1
      )

const sentCounts = new WeakMap<Context, Map<Op, number>>()

/** How many objects the spellings suite of a Create makes (0 for another operation or in read-only mode). */
const spellingCreates = (op: Op, ctx: Context): number => {
  if (op.kind !== "create" || ctx.readOnly) return 0
  let counts = sentCounts.get(ctx)
  if (counts === undefined) sentCounts.set(ctx, (counts = new Map()))
  let n = counts.get(op)
  if (n === undefined) {
    const { body, valid } = sampleBody(op, ctx)
    const sent = valid ? spellingsSent(op, ctx, spellingsOf(op, body)) : []
    n = sent.length + new Set(sent.map((s) => s.plain)).size
    counts.set(op, n)
  }
  return n
}

/** How many valid examples an operation sends: a Create's share of `--creates-per-operation` is what the others leave. */
export const validExamples = (op: Op, ctx: Context): number =>
  op.kind === "create"
    ? Math.min(
        ctx.examples,
        ctx.createExamples -
          relationCreates(op, ctx) -
          latitudeCreates(op, ctx) -
          successionCreates(op, ctx) -
          spellingCreates(op, ctx)
      )
    : ctx.examples
