/**
 * The violations of the `stable-reads` check: the records whose rule `ContractRules` gives to that
 * check, and the helpers only they use.
 *
 * @internal
 */
import { Operations } from "@data-access/schema"
import * as Effect from "effect/Effect"
import { stamp } from "../clock.js"
import type { Op } from "../pipeline-types.js"
import { onTarget, responding } from "../violationHooks.js"
import { isObject } from "../jsonBodies.js"
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

/** Whether a Get also returns the objects of a List. */
const gotToo = (op: Op) =>
  op.kind === "list" &&
  (Operations.all as ReadonlyArray<Op>).some((o) => o.kind === "get" && o.object === op.object)

export const listedFlagsInverted = violation({
  name: "listed-flags-inverted",
  rule: "reads.list-agrees",
  description:
    "A List of objects a Get also returns (policy stage configurations) shows every boolean field its items carry inverted; the Get shows them as stored.",
  hooks: {
    respond: responding((body, _request, op) => {
      const items = op.itemField === undefined ? undefined : body[op.itemField]
      for (const item of Array.isArray(items) ? items : [])
        if (isObject(item))
          for (const [k, v] of Object.entries(item)) if (typeof v === "boolean") item[k] = !v
    }, gotToo)
  }
})
