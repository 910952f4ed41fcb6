/**
 * Walks over schema ASTs: every property signature reachable from a schema, through
 * transformations, refinements, unions, tuples, declarations and (a bounded number of levels of)
 * suspended, recursive schemas. `Secrets` finds the secret fields with it; the contract runner finds
 * the fields it generates, searches and checks.
 *
 * @since 0.4.0
 */
import type * as AST from "effect/SchemaAST"

/**
 * How a walk goes.
 *
 * @since 0.4.0
 * @category models
 */
export interface Options {
  /**
   * Nodes already visited, skipped: pass the same set to several walks to visit each node once
   * across all of them. Default: a set of this walk's own.
   */
  readonly seen?: Set<AST.AST> | undefined
  /**
   * How many suspended schemas deep the walk follows a recursive schema (the filter of
   * ListSatellites). Default 2, which shows every property of the interface's recursive schemas.
   */
  readonly suspendDepth?: number | undefined
}

/**
 * Calls `f` with every property signature reachable from `root`, each AST node visited once.
 *
 * @example
 * ```ts
 * import { Model, SchemaWalk } from "@data-access/schema"
 *
 * const names: Array<string> = []
 * SchemaWalk.forEachProperty(Model.Satellite.ast, (p) => names.push(String(p.name)))
 * ```
 *
 * @since 0.4.0
 * @category walks
 */
export const forEachProperty = (
  root: AST.AST,
  f: (p: AST.PropertySignature) => void,
  options: Options = {}
): void => {
  const seen = options.seen ?? new Set<AST.AST>()
  const suspendDepth = options.suspendDepth ?? 2
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
        // A recursive schema builds new nodes at each step: the depth bounds the walk.
        if (suspended >= suspendDepth) return
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
