/**
 * The violations of the `stable-reads` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import * as Effect from "effect/Effect"
import { stamp } from "../clock.js"
import { onTarget } from "../violationHooks.js"
import { collectionOf } from "../operationCollections.js"
import { violation } from "../violationRecord.js"

export const getWrongObject = violation({
  name: "get-wrong-object",
  rule: "reads.named-object",
  description:
    "A Get of an existing id returns another object of the same collection (the first one that is not it).",
  hooks: {
    handler: (next, op) => {
      const c = collectionOf(op)
      const key = op.wrapperKey
      if (op.kind !== "get" || c === undefined || key === undefined) return next
      return (request, ctx) =>
        Effect.flatMap(next(request, ctx), (body) =>
          Effect.map(ctx.store.all(c), (all) => {
            const other = all.find((o) => o.id !== request.id)
            return other === undefined || typeof request.id !== "string" ? body : { [key]: other }
          })
        )
    }
  }
})

export const unstableRead = violation({
  name: "unstable-read",
  rule: "reads.stable",
  description: "Each Get returns a fresh `updatedAt`, so two reads differ.",
  hooks: {
    respond: onTarget(
      (target) => {
        if (typeof target.updatedAt === "string") target.updatedAt = stamp()
      },
      (op) => op.kind === "get"
    )
  }
})
