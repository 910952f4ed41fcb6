/**
 * The operations that read back what another makes or changes (the Lists of its kind, the Gets by
 * `id`), and how many objects the relations family makes to read back.
 */
import { Operations } from "@data-access/schema"
import { type Context, objectPropertyNames, type Op } from "../../context.js"
import { requestPropertyNames } from "../../pools.js"

const all = Operations.all as ReadonlyArray<Op>

/** The Lists that return the objects an operation makes or changes. */
export const listReaders = (op: Op): ReadonlyArray<Op> =>
  all.filter((o) => o.kind === "list" && o.object === op.object)

/** The Gets by `id` that return the objects an operation makes. */
export const getReaders = (op: Op): ReadonlyArray<Op> =>
  all.filter(
    (o) =>
      o.kind === "get" &&
      o.object === op.object &&
      o.lookupKey === undefined &&
      requestPropertyNames(o).includes("id")
  )

/**
 * How many objects a Create operation makes for its relations (out of `--creates-per-operation`;
 * the valid requests get the rest): none for an operation whose objects nothing reads back.
 */
export const relationCreates = (op: Op, ctx: Context): number =>
  op.kind !== "create" || listReaders(op).length + getReaders(op).length === 0
    ? 0
    : Math.min(2, Math.floor(ctx.createExamples / 4))

/** Whether the objects an operation makes have ids (a human user password has none to tell apart). */
export const hasIds = (op: Op): boolean => objectPropertyNames(op).has("id")
