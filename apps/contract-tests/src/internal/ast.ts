/**
 * Small walks over schema ASTs, shared by the id pools, the search family and the response checks.
 */
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"

/** The JSON Schema annotation of a node (a refinement's `minimum`, `maxLength`, `type`...), `{}` without one. */
export const jsonSchemaOf = (ast: AST.AST): Record<string, unknown> => (ast.annotations[AST.JSONSchemaAnnotationId] ?? {}) as Record<string, unknown>

/** Visits every property signature reachable from an AST (each suspended schema once). */
export const forEachProperty = (root: AST.AST, f: (p: AST.PropertySignature) => void): void => {
  const seen = new Set<AST.AST>()
  let suspended = 0
  const go = (ast: AST.AST): void => {
    if (seen.has(ast)) return
    seen.add(ast)
    switch (ast._tag) {
      case "TypeLiteral":
        for (const p of ast.propertySignatures) {
          f(p)
          go(p.type)
        }
        for (const i of ast.indexSignatures) go(i.type)
        return
      case "Transformation":
        go(ast.from)
        go(ast.to)
        return
      case "Refinement":
        go(ast.from)
        return
      case "Union":
        ast.types.forEach(go)
        return
      case "Suspend":
        // A suspended schema is recursive (filters): two levels show every property.
        if (suspended >= 2) return
        suspended++
        go(ast.f())
        suspended--
        return
      case "TupleType":
        ast.elements.forEach((e) => go(e.type))
        ast.rest.forEach((r) => go(r.type))
        return
      case "Declaration":
        ast.typeParameters.forEach(go)
        return
      default:
        return
    }
  }
  go(root)
}

/** The identifier annotation of a schema, looking through transformations and refinements. */
export const identifierOf = (ast: AST.AST): string | undefined => {
  const own = Option.getOrUndefined(AST.getIdentifierAnnotation(ast))
  if (own !== undefined) return own
  if (ast._tag === "Transformation") return identifierOf(ast.to)
  return undefined
}
