/**
 * Small walks over schema ASTs, shared by the mutation derivation and the redaction of secrets.
 */
import * as Option from "effect/Option"
import * as AST from "effect/SchemaAST"
import { Operations } from "@data-access/schema"

/** Whether an AST is `Schema.Redacted(...)` (a secret on the wire). */
export const isRedacted = (ast: AST.AST): boolean => {
  if (ast._tag === "Transformation") return isRedacted(ast.to)
  if (ast._tag === "Declaration") {
    const tc = ast.annotations[AST.TypeConstructorAnnotationId] as { readonly _tag?: string } | undefined
    return tc?._tag === "effect/Redacted"
  }
  return false
}

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

/** The names of every secret field of the interface, from the Redacted fields of every request and response schema. */
export const secretFieldNames: ReadonlySet<string> = (() => {
  const names = new Set<string>()
  for (const op of Operations.all as ReadonlyArray<Operations.Operation>) {
    for (const ast of [op.request.ast, op.response.ast]) {
      forEachProperty(ast, (p) => {
        if (typeof p.name === "string" && isRedacted(p.type)) names.add(p.name)
      })
    }
  }
  return names
})()

/** The identifier annotation of a schema, looking through transformations and refinements. */
export const identifierOf = (ast: AST.AST): string | undefined => {
  const own = Option.getOrUndefined(AST.getIdentifierAnnotation(ast))
  if (own !== undefined) return own
  if (ast._tag === "Transformation") return identifierOf(ast.to)
  return undefined
}

/** Replaces the value of every secret field, at any depth, with `[redacted]`. */
export const redactSecrets = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactSecrets)
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const camel = k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())
      out[k] = secretFieldNames.has(camel) && typeof v === "string" && v !== "" ? "[redacted]" : redactSecrets(v)
    }
    return out
  }
  return value
}
