/**
 * update-semantics: an update's answer names, in the nested `<x>`, the object its `<x>Id` names.
 */
import type { Body, Op } from "../context.js"
import { objectOf, objectPropertyNames, show } from "../context.js"
import type { Exchange } from "../http.js"
import { asRecord } from "../json.js"
import { fail, type Outcome, passes } from "../outcome.js"
import { sendsReference, staleNested } from "./nested.js"
import { defined, type ExchangeOracle, onSuccess, successJson } from "./oracle.js"

/** updates.references: an update's answer names, in the nested `<x>`, the object its `<x>Id` names. */
export const updateReferences = (op: Op, sent: Body, e: Exchange): Outcome | undefined => {
  const json = successJson(e)
  const obj = asRecord(objectOf(op, json))
  const props = objectPropertyNames(op)
  if (op.kind !== "update" || obj === undefined || !sendsReference(props, sent)) return undefined
  const stale = staleNested(props, sent, obj)
  return stale === undefined
    ? passes(["updates.references"])
    : fail(
        "updates.references",
        `${stale} not moved with ${stale}Id`,
        `the update returned ${stale}Id ${show(obj[`${stale}Id`])} with ${stale} ${show(obj[stale])}`,
        e,
        `${stale}.id = ${show(asRecord(obj[stale])?.id)}`
      )
}

const updateEcho = onSuccess("update-echo", ["updates.references"], (op, sent, e) =>
  defined(updateReferences(op, sent, e))
)

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [updateEcho]
