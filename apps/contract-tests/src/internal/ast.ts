/**
 * Small reads of schema AST annotations, shared by the id pools, the number edges and the mutations.
 */
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"

/** The JSON Schema annotation of a node (a refinement's `minimum`, `maxLength`, `type`...), `{}` without one. */
export const jsonSchemaOf = (ast: AST.AST): Record<string, unknown> =>
  (ast.annotations[AST.JSONSchemaAnnotationId] ?? {}) as Record<string, unknown>

/** The identifier annotation of a schema, looking through transformations and refinements. */
export const identifierOf = (ast: AST.AST): string | undefined => {
  const own = Option.getOrUndefined(AST.getIdentifierAnnotation(ast))
  if (own !== undefined) return own
  if (ast._tag === "Transformation") return identifierOf(ast.to)
  return undefined
}
