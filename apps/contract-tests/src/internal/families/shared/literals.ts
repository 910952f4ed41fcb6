/** The string literals a request schema allows for a property: the filter `key`s and `searchFields` of a List. */
import type * as AST from "effect/SchemaAST"
import { forEachProperty } from "../../ast.js"
import type { Op } from "../../context.js"

const literalsOf = (ast: AST.AST): Array<string> => {
  switch (ast._tag) {
    case "Literal":
      return typeof ast.literal === "string" ? [ast.literal] : []
    case "Union":
      return ast.types.flatMap(literalsOf)
    case "Refinement":
      return literalsOf(ast.from)
    case "Transformation":
      return literalsOf(ast.to)
    case "TupleType":
      return [...ast.elements.map((e) => e.type), ...ast.rest.map((r) => r.type)].flatMap(
        literalsOf
      )
    default:
      return []
  }
}

/** The literals of a request property found anywhere under `under` (the filter `key`s, the `searchFields`). */
export const literalsOfProperty = (op: Op, under: string, name: string): ReadonlyArray<string> => {
  const out = new Set<string>()
  forEachProperty(op.request.ast, (p) => {
    if (p.name !== under) return
    if (under === name) literalsOf(p.type).forEach((l) => out.add(l))
    else
      forEachProperty(
        p.type,
        (q) => q.name === name && literalsOf(q.type).forEach((l) => out.add(l))
      )
  })
  return [...out]
}
