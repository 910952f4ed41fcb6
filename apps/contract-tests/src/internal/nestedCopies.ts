/**
 * A nested copy of another object beside the `<x>Id` that names it: the create-echo and the
 * update-semantics oracles both judge that the two agree.
 */
import type { Body } from "./context.js"
import { asRecord } from "./json.js"

/** The nested copy an `<x>Id` field names (`space` for `spaceId`), or `undefined` for another field. */
export const nestedOf = (field: string): string | undefined => /^(.+)Id$/.exec(field)?.[1]

/**
 * The first sent `<x>Id` (UpdateSatellite's `spaceId`) whose nested `<x>` in `obj` names another
 * object than `obj`'s own `<x>Id`: the id moved and the nested copy stayed behind. A nested object
 * left out (its zero value) agrees with any id; both readings of `spaceId: ""` (decisions.md
 * section 10) agree with themselves.
 */
export const staleNested = (
  props: ReadonlySet<string>,
  sent: Body,
  obj: Body
): string | undefined => {
  for (const k of Object.keys(sent)) {
    const nested = nestedOf(k)
    if (
      nested === undefined ||
      sent[k] === null ||
      sent[k] === undefined ||
      !props.has(nested) ||
      !props.has(k)
    )
      continue
    const nestedId = asRecord(obj[nested])?.id
    if (typeof nestedId === "string" && nestedId !== "" && nestedId !== (obj[k] ?? ""))
      return nested
  }
  return undefined
}

/** Whether `sent` holds an `<x>Id` the object also holds as its nested `<x>`. */
export const sendsReference = (props: ReadonlySet<string>, sent: Body): boolean =>
  Object.keys(sent).some(
    (k) => sent[k] !== null && sent[k] !== undefined && props.has(k) && props.has(nestedOf(k) ?? "")
  )
