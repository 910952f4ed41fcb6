/**
 * Small walks over schema ASTs, shared by the id pools, the search family and the response checks.
 */
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"
import { SchemaWalk } from "@data-access/schema"

/** The JSON Schema annotation of a node (a refinement's `minimum`, `maxLength`, `type`...), `{}` without one. */
export const jsonSchemaOf = (ast: AST.AST): Record<string, unknown> =>
  (ast.annotations[AST.JSONSchemaAnnotationId] ?? {}) as Record<string, unknown>

/** Visits every property signature reachable from an AST (each suspended schema followed two levels deep). */
export const forEachProperty = (root: AST.AST, f: (p: AST.PropertySignature) => void): void =>
  SchemaWalk.forEachProperty(root, f)

/** The identifier annotation of a schema, looking through transformations and refinements. */
export const identifierOf = (ast: AST.AST): string | undefined => {
  const own = Option.getOrUndefined(AST.getIdentifierAnnotation(ast))
  if (own !== undefined) return own
  if (ast._tag === "Transformation") return identifierOf(ast.to)
  return undefined
}
