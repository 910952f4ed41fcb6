/** A List suite that cannot run because the operation's required references cannot be filled. */
import type { CheckId } from "@data-access/schema/ContractChecks"
import { type Context, type Op, skipped, type Suite } from "../../context.js"
import { missingReference, requiredRefs } from "../../listWalk.js"

/** The family's suite skipped with the reason, when no required reference can be filled; undefined otherwise. */
export const skippedWithoutReferences = (
  family: string,
  op: Op,
  ctx: Context,
  checks: ReadonlyArray<CheckId>
): Suite | undefined =>
  requiredRefs(op, ctx.pools, 0) === undefined
    ? skipped(
        family,
        op.method,
        checks,
        false,
        missingReference(op, ctx.pools) ?? "missing references"
      )
    : undefined
