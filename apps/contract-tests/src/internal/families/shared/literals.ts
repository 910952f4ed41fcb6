/** The string literals a request schema allows for a property: the filter `key`s and `searchFields` of a List. */
import { SchemaWalk } from "@data-access/schema"
import type { Op } from "../../context.js"

/** The string literals of a shape: an enum's values, in unions and array items too. */
const literalsOf = (shape: SchemaWalk.Shape): Array<string> => {
  switch (shape._tag) {
    case "String":
      return [...(shape.literals ?? [])]
    case "Union":
      return shape.members.flatMap(literalsOf)
    case "Array":
      return literalsOf(shape.item)
    default:
      return []
  }
}

/** The literals of a request property found anywhere under `under` (the filter `key`s, the `searchFields`). */
export const literalsOfProperty = (op: Op, under: string, name: string): ReadonlyArray<string> => {
  const out = new Set<string>()
  SchemaWalk.forEachField(SchemaWalk.requestShape(op), (f) => {
    if (f.name !== under) return
    if (under === name) literalsOf(f.shape).forEach((l) => out.add(l))
    else
      SchemaWalk.forEachField(
        f.shape,
        (g) => g.name === name && literalsOf(g.shape).forEach((l) => out.add(l))
      )
  })
  return [...out]
}
