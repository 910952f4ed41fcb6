/** The latitude probes of an operation, built once per run, and the objects those that create may make. */
import type { Context, Op } from "../../context.js"
import { sampleBody } from "../shared/sampleBodies.js"
import { relationCreates } from "../shared/readers.js"
import { bodyProbes } from "./writeBodies.js"
import { formatProbes } from "./formats.js"
import { getProbes } from "./forms.js"
import { cursorProbes, filterProbes, parentProbes } from "./lists.js"
import type { Probe } from "./probe.js"
import { emptyReferenceProbes, identityProbes } from "./references.js"
import { sizeProbes } from "./sizes.js"

/**
 * The probes of an operation, built once per run. The probes that send a create a server may serve
 * (string limits, enums left out, a taken name, formats, identity kinds) make objects: they count
 * against `--creates-per-operation` with the relations' creates, leaving at least one valid
 * example (`latitudeCreates`); those that do not fit are left out.
 */
export const probesOf = (
  op: Op,
  ctx: Context
): { readonly probes: ReadonlyArray<Probe>; readonly creates: number } => {
  let byOp = built.get(ctx)
  if (byOp === undefined) built.set(ctx, (byOp = new Map()))
  const known = byOp.get(op)
  if (known !== undefined) return known
  const { body, valid } = sampleBody(op, ctx)
  let result: { readonly probes: ReadonlyArray<Probe>; readonly creates: number }
  if (!valid) {
    // Without a valid body (nothing to reference), only the GET that no reading serves.
    result = {
      probes: [
        ...getProbes(ctx, op, body).slice(0, 1),
        ...parentProbes(ctx, op),
        ...cursorProbes(ctx, op),
        ...sizeProbes(ctx, op)
      ],
      creates: 0
    }
  } else {
    const creating = [
      ...bodyProbes(ctx, op, body),
      ...formatProbes(ctx, op, body),
      ...identityProbes(ctx, op, body)
    ]
    const allowance =
      op.kind === "create"
        ? Math.max(0, ctx.createExamples - relationCreates(op, ctx) - 1)
        : Number.POSITIVE_INFINITY
    let creates = 0
    const kept = creating.filter((p) => {
      const n = op.kind === "create" ? (p.creates ?? 1) : 0
      if (creates + n > allowance) return false
      creates += n
      return true
    })
    result = {
      probes: [
        ...kept,
        ...filterProbes(ctx, op, body),
        ...emptyReferenceProbes(ctx, op, body),
        ...parentProbes(ctx, op),
        ...cursorProbes(ctx, op),
        ...getProbes(ctx, op, body),
        ...sizeProbes(ctx, op)
      ],
      creates
    }
  }
  byOp.set(op, result)
  return result
}

const built = new WeakMap<
  Context,
  Map<Op, { readonly probes: ReadonlyArray<Probe>; readonly creates: number }>
>()

/** The objects the latitude probes of a Create operation may make (out of `--creates-per-operation`). */
export const latitudeCreates = (op: Op, ctx: Context): number =>
  op.kind !== "create" || ctx.readOnly ? 0 : probesOf(op, ctx).creates
