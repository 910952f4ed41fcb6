import * as AST from "effect/SchemaAST"
import type { Options, Shape, Field } from "../SchemaWalk.js"

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

type JsonSchemaBounds = {
  readonly minLength?: unknown
  readonly type?: unknown
  readonly format?: unknown
}

const jsonSchemaOf = (ast: AST.AST): JsonSchemaBounds | undefined =>
  ast.annotations[AST.JSONSchemaAnnotationId] as JsonSchemaBounds | undefined

const formatOf = (json: JsonSchemaBounds | undefined): string | undefined =>
  typeof json?.format === "string" ? json.format : undefined

const shapes = new WeakMap<AST.AST, Shape>()

/** The shape of a node of the wire side, memoised per node. */
const wireShape = (ast: AST.AST): Shape => {
  let shape = shapes.get(ast)
  if (shape === undefined) {
    shape = readShape(ast)
    shapes.set(ast, shape)
  }
  return shape
}

const stringLiterals = (members: ReadonlyArray<Shape>): ReadonlyArray<string> | undefined =>
  members.length > 0 &&
  members.every((m) => m._tag === "String" && m.literals !== undefined && m.minLength === 0)
    ? members.flatMap((m) => (m._tag === "String" ? (m.literals ?? []) : []))
    : undefined

const NONE: ReadonlyArray<AST.Refinement> = []

/** Whether a node is a transformation, under any refinements. */
const transforms = (ast: AST.AST): boolean =>
  ast._tag === "Transformation" || (ast._tag === "Refinement" && transforms(ast.from))

const readShape = (ast: AST.AST): Shape => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return {
        _tag: "String",
        ast,
        refinements: NONE,
        minLength: 0,
        literals: undefined,
        format: formatOf(jsonSchemaOf(ast))
      }
    case "NumberKeyword":
      return { _tag: "Number", ast, refinements: NONE, int: false }
    case "BooleanKeyword":
      return { _tag: "Boolean", ast, refinements: NONE }
    case "BigIntKeyword":
      return { _tag: "BigInt", ast, refinements: NONE }
    case "UndefinedKeyword":
      return { _tag: "Undefined", ast, refinements: NONE }
    case "Literal":
      return typeof ast.literal === "string"
        ? {
            _tag: "String",
            ast,
            refinements: NONE,
            minLength: 0,
            literals: [ast.literal],
            format: undefined
          }
        : { _tag: "Literal", ast, refinements: NONE, value: ast.literal }
    case "Refinement": {
      const from = wireShape(ast.from)
      const refinements = [ast, ...from.refinements]
      // A refinement of a transformation's type side states no wire bound; it is listed for its rule.
      if (transforms(ast.from)) return { ...from, refinements }
      const json = jsonSchemaOf(ast)
      if (from._tag === "String")
        return {
          ...from,
          refinements,
          minLength:
            typeof json?.minLength === "number"
              ? Math.max(from.minLength, json.minLength)
              : from.minLength,
          format: formatOf(json) ?? from.format
        }
      if (from._tag === "Number")
        return { ...from, refinements, int: from.int || json?.type === "integer" }
      return { ...from, refinements }
    }
    case "Transformation":
      return wireShape(ast.from)
    case "Union": {
      const members = ast.types.map(wireShape)
      const literals = stringLiterals(members)
      return literals === undefined
        ? { _tag: "Union", ast, refinements: NONE, members }
        : { _tag: "String", ast, refinements: NONE, minLength: 0, literals, format: undefined }
    }
    case "TypeLiteral": {
      const index = ast.indexSignatures[0]
      return {
        _tag: "Object",
        ast,
        refinements: NONE,
        fields: new Map(
          ast.propertySignatures
            .filter((p) => typeof p.name === "string")
            .map((p) => [
              p.name as string,
              {
                name: p.name as string,
                required: !p.isOptional,
                shape: wireShape(p.type),
                signature: p
              }
            ])
        ),
        values:
          ast.indexSignatures.length === 1 && index!.parameter._tag === "StringKeyword"
            ? wireShape(index!.type)
            : undefined
      }
    }
    case "TupleType":
      // An array, maybe with required leading items (a non-empty array), read as its rest's items.
      return ast.rest.length === 1 && ast.elements.every((e) => !e.isOptional)
        ? {
            _tag: "Array",
            ast,
            refinements: NONE,
            item: wireShape(ast.rest[0]!.type),
            minItems: ast.elements.length
          }
        : { _tag: "Other", ast, refinements: NONE }
    case "Suspend": {
      let target: Shape | undefined
      const f = ast.f
      return { _tag: "Lazy", ast, refinements: NONE, get: () => (target ??= wireShape(f())) }
    }
    default:
      return { _tag: "Other", ast, refinements: NONE }
  }
}

export const shapeOf = (ast: AST.AST): Shape => wireShape(ast)

export const requestShape = (operation: { readonly request: { readonly ast: AST.AST } }): Shape =>
  shapeOf(operation.request.ast)

export const requestFields = (operation: {
  readonly request: { readonly ast: AST.AST }
}): ReadonlyMap<string, Field> => {
  const shape = requestShape(operation)
  return shape._tag === "Object" ? shape.fields : new Map()
}

export const nonNullish = (shape: Shape): Shape => {
  if (shape._tag !== "Union") return shape
  let out = withoutNullish.get(shape)
  if (out === undefined) withoutNullish.set(shape, (out = dropNullish(shape)))
  return out
}

const withoutNullish = new WeakMap<Shape, Shape>()

const dropNullish = (shape: Extract<Shape, { _tag: "Union" }>): Shape => {
  const rest = shape.members.filter(
    (m) => m._tag !== "Undefined" && !(m._tag === "Literal" && m.value === null)
  )
  if (rest.length === shape.members.length) return shape
  if (rest.length === 1) return rest[0]!
  const literals = stringLiterals(rest)
  return literals === undefined
    ? { ...shape, members: rest }
    : {
        _tag: "String",
        ast: shape.ast,
        refinements: shape.refinements,
        minLength: 0,
        literals,
        format: undefined
      }
}

export const forEachField = (
  root: Shape,
  f: (field: Field) => void,
  options: { readonly lazyDepth?: number | undefined } = {}
): void => {
  const seen = new Set<Shape>()
  const lazyDepth = options.lazyDepth ?? 2
  let lazy = 0
  const go = (shape: Shape): void => {
    if (seen.has(shape)) return
    seen.add(shape)
    switch (shape._tag) {
      case "Object":
        for (const field of shape.fields.values()) {
          f(field)
          go(field.shape)
        }
        if (shape.values !== undefined) go(shape.values)
        return
      case "Array":
        return go(shape.item)
      case "Union":
        return shape.members.forEach(go)
      case "Lazy":
        // A recursive schema reads new nodes at each level: the depth bounds the walk.
        if (lazy >= lazyDepth) return
        lazy++
        go(shape.get())
        lazy--
        return
      default:
        return
    }
  }
  go(root)
}

export const mayBeObject = (shape: Shape): boolean => {
  switch (shape._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "BigInt":
    case "Undefined":
    case "Literal":
      return false
    case "Union":
      return shape.members.some(mayBeObject)
    default:
      return true
  }
}
