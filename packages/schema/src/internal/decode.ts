import * as Decoder from "@data-access/core/Decoder"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as SchemaWalk from "./schemaWalk.js"

const options = AST.defaultParseOption

/** The value of a synchronous result, or `FAIL` (a failure, or an effect the fast path does not run). */
const fromEither = (u: unknown): unknown => {
  const e = u as Either.Either<unknown, unknown>
  if (Either.isEither(e)) return Either.isRight(e) ? e.right : Decoder.FAIL
  return Decoder.FAIL
}

/** Effect's own parser of `ast`, decoding or encoding. */
const native = (ast: AST.AST, isDecoding: boolean): Decoder.Node => {
  const parse = (isDecoding ? ParseResult.decodeUnknownEither : ParseResult.encodeUnknownEither)(
    Schema.make(ast)
  )
  // An absent optional key is never decoded by Effect 3: it is left out before its node runs.
  return { _tag: "Native", absent: "pass", decode: (u) => fromEither(parse(u)) }
}

const isRedactedDeclaration = (ast: AST.AST): boolean =>
  ast._tag === "Declaration" &&
  ast.typeParameters.length === 1 &&
  (ast.annotations[AST.TypeConstructorAnnotationId] as { readonly _tag?: unknown } | undefined)
    ?._tag === "effect/Redacted"

const option = Decoder.taggedOption(Option.none(), Option.some)

const redacted: Decoder.RedactedKit = {
  isRedacted: Redacted.isRedacted,
  get: Redacted.value,
  make: (value) => Redacted.make(value)
}

const identity = (o: Option.Option<unknown>): Option.Option<unknown> => o

/**
 * Whether Effect 3's union parser looks a member up by a key with a literal value (a required
 * property whose encoded side, when decoding, or type side, when encoding, is one literal), as its
 * search tree of a union's members does; a member without one is tried in the union's order.
 */
const hasLiteralKey = (ast: AST.AST, isDecoding: boolean): boolean => {
  const side = isDecoding ? AST.encodedAST : AST.typeAST
  switch (ast._tag) {
    case "Declaration": {
      const surrogate = AST.getSurrogateAnnotation(ast)
      return Option.isSome(surrogate) && hasLiteralKey(surrogate.value, isDecoding)
    }
    case "TypeLiteral":
      return ast.propertySignatures.some((ps) => !ps.isOptional && AST.isLiteral(side(ps.type)))
    case "TupleType":
      return ast.elements.some((e) => !e.isOptional && AST.isLiteral(side(e.type)))
    case "Refinement":
      return hasLiteralKey(ast.from, isDecoding)
    case "Suspend":
      return hasLiteralKey(ast.f(), isDecoding)
    case "Transformation":
      return hasLiteralKey(isDecoding ? ast.from : ast.to, isDecoding)
    default:
      return false
  }
}

const describe = Decoder.describer((ast: AST.AST): Decoder.Node => describeNode(ast, true))

/** The description of Effect 3's encoding of an AST (`ParseResult.encodeUnknown`). */
const describeEncoding = Decoder.describer((ast: AST.AST): Decoder.Node => describeNode(ast, false))

/**
 * Whether a value of `ast`'s type side may be an object or an array (what a union member looked up
 * by a literal key accepts when encoding); a declaration, a recursion or anything else may be.
 */
const mayBeObjectType = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "BigIntKeyword":
    case "UndefinedKeyword":
    case "NeverKeyword":
    case "Literal":
      return false
    case "Union":
      return ast.types.some(mayBeObjectType)
    case "Refinement":
      return mayBeObjectType(ast.from)
    case "Transformation":
      return mayBeObjectType(ast.to)
    default:
      return true
  }
}

const dropRightRefinement = (ast: AST.AST): AST.AST =>
  AST.isRefinement(ast) ? dropRightRefinement(ast.from) : ast

/**
 * What Effect 3's parser does with `ast`, decoding or encoding: the two differ in refinements,
 * transformations, declarations and how a union looks its members up.
 */
function describeNode(ast: AST.AST, isDecoding: boolean): Decoder.Node {
  const self = isDecoding ? describe : describeEncoding
  switch (ast._tag) {
    case "StringKeyword":
      return { _tag: "String" }
    case "NumberKeyword":
      return { _tag: "Number" }
    case "BooleanKeyword":
      return { _tag: "Boolean" }
    case "BigIntKeyword":
      return { _tag: "BigInt" }
    case "UndefinedKeyword":
      return { _tag: "Undefined" }
    case "UnknownKeyword":
    case "AnyKeyword":
      return { _tag: "Unknown" }
    case "Literal":
      return { _tag: "Literals", values: [ast.literal] }
    case "Union": {
      if (ast.types.every(AST.isLiteral))
        return { _tag: "Literals", values: ast.types.map((t) => (t as AST.Literal).literal) }
      // Effect 3 tries members that have a literal key before the others, then the rest in their
      // order: with at most one member that may be an object, or no member with a literal key
      // (a filter's condition, group or neither), it tries them in their order.
      if (
        ast.types.filter((t) =>
          isDecoding ? SchemaWalk.mayBeObject(SchemaWalk.shapeOf(t)) : mayBeObjectType(t)
        ).length > 1 &&
        ast.types.some((t) => hasLiteralKey(t, isDecoding))
      )
        return native(ast, isDecoding)
      return { _tag: "Union", members: ast.types.map(self) }
    }
    case "Refinement": {
      // Effect 3 encodes a refinement by decoding its type side (its checks), then encoding what
      // it refines.
      if (!isDecoding)
        return Decoder.pipe(describe(AST.typeAST(ast)), self(dropRightRefinement(ast.from)))
      const filter = ast.filter
      return Decoder.pipe(describe(ast.from), {
        _tag: "Refine",
        test: (a) => Option.isNone(filter(a, options, ast))
      })
    }
    case "Transformation": {
      const kind = ast.transformation
      switch (kind._tag) {
        case "FinalTransformation": {
          const transform = isDecoding ? kind.decode : kind.encode
          const map = (a: unknown) => fromEither(transform(a, options, ast, a))
          return isDecoding
            ? Decoder.pipe(describe(ast.from), { _tag: "Map", map }, describe(ast.to))
            : Decoder.pipe(self(ast.to), { _tag: "Map", map }, self(ast.from))
        }
        case "ComposeTransformation":
          return isDecoding
            ? Decoder.pipe(describe(ast.from), describe(ast.to))
            : Decoder.pipe(self(ast.to), self(ast.from))
        case "TypeLiteralTransformation":
          return transformedStruct(ast, kind, isDecoding) ?? native(ast, isDecoding)
      }
      return native(ast, isDecoding)
    }
    case "Declaration": {
      if (isRedactedDeclaration(ast)) {
        // Schema.RedactedFromSelf: a Redacted whose value decodes with the type parameter (into a
        // new Redacted, as Effect's parser makes one).
        return {
          _tag: "Redacted",
          value: self(ast.typeParameters[0]!),
          kit: redacted
        }
      }
      const parse = (isDecoding ? ast.decodeUnknown : ast.encodeUnknown)(...ast.typeParameters)
      return { _tag: "Native", absent: "pass", decode: (u) => fromEither(parse(u, options, ast)) }
    }
    case "TupleType": {
      if (ast.rest.length !== 1) return native(ast, isDecoding)
      const item = ast.rest[0]!.type
      if (ast.elements.length === 0) return { _tag: "Array", item: self(item) }
      // A non-empty array (`[A, ...A[]]`, the same node twice): an array of at least one item,
      // each decoded alike.
      const first = ast.elements[0]!
      if (ast.elements.length !== 1 || first.isOptional || !sameType(first.type, item))
        return native(ast, isDecoding)
      return Decoder.pipe(
        { _tag: "Array", item: self(item) },
        { _tag: "Refine", test: (a) => (a as ReadonlyArray<unknown>).length > 0 }
      )
    }
    case "TypeLiteral": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0)
        return { _tag: "NotNullish" }
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1) {
        const index = ast.indexSignatures[0]!
        if (index.parameter._tag !== "StringKeyword") return native(ast, isDecoding)
        return { _tag: "Record", value: self(index.type), assign: "set" }
      }
      // (Effect 3 writes a `__proto__` key with `output[key] = ...`: left to its parser.)
      if (
        ast.indexSignatures.length > 0 ||
        ast.propertySignatures.some((ps) => typeof ps.name !== "string" || ps.name === "__proto__")
      ) {
        return native(ast, isDecoding)
      }
      return {
        _tag: "Struct",
        // An optional key is decoded when it is an own property; a required one always (its
        // value is `undefined` when there is none).
        fields: ast.propertySignatures.map((ps) => ({
          key: ps.name as string,
          read: ps.isOptional ? "own" : "always",
          optional: ps.isOptional,
          node: self(ps.type)
        }))
      }
    }
    case "NeverKeyword":
      // No present value (an absent key is never decoded).
      return { _tag: "Refine", test: () => false }
    case "Suspend": {
      const f = ast.f
      return { _tag: "Lazy", get: () => self(f()) }
    }
    default:
      return native(ast, isDecoding)
  }
}

/**
 * A struct with property transformations (`optionalWith` defaults, `optionalToRequired`): as
 * Effect's parser does, each field is decoded by `from`, its Option mapped by the property
 * transformation, and the result decoded by `to`, written in `to`'s order (encoding: the same from
 * `to` to `from`, with the transformations' `encode`). Undefined when the two sides are not plain
 * structs with the same keys in the same order, each key transformed at most once.
 */
const transformedStruct = (
  ast: AST.Transformation,
  kind: AST.TypeLiteralTransformation,
  isDecoding: boolean
): Decoder.Node | undefined => {
  const from = isDecoding ? ast.from : ast.to
  const to = isDecoding ? ast.to : ast.from
  if (from._tag !== "TypeLiteral" || to._tag !== "TypeLiteral") return undefined
  if (from.indexSignatures.length > 0 || to.indexSignatures.length > 0) return undefined
  const psts = kind.propertySignatureTransformations
  if (
    psts.some((pst) => pst.from !== pst.to) ||
    new Set(psts.map((pst) => pst.from)).size !== psts.length
  )
    return undefined
  const names = (l: AST.TypeLiteral) => l.propertySignatures.map((ps) => ps.name)
  const fromNames = names(from)
  const toNames = names(to)
  if (
    fromNames.some((n) => typeof n !== "string" || n === "__proto__") ||
    fromNames.join("\u0000") !== toNames.join("\u0000") ||
    fromNames.length !== toNames.length
  ) {
    return undefined
  }
  return {
    _tag: "Struct",
    fields: from.propertySignatures.map((source, i) => {
      const target = to.propertySignatures[i]!
      const pst = psts.find((t) => t.from === source.name)
      const self = isDecoding ? describe : describeEncoding
      const stage1 = self(source.type)
      // `to` decodes every value, an absent one as `undefined` when its key is required. Without a
      // transformation the value is kept: an absent key stays absent (`from`'s and `to`'s keys
      // then have the same optionality).
      const map = ((isDecoding ? pst?.decode : pst?.encode) ?? identity) as (
        option: unknown
      ) => unknown
      const none =
        pst !== undefined && !target.isOptional ? ("undefined" as const) : ("absent" as const)
      const type = self(target.type)
      // A value `from` decoded and the transformation kept already has `to`'s type when `from`'s
      // field type (without the `undefined` of an optional field) has the same Type side: Effect's
      // decode output always satisfies its schema's Type side.
      const trusted =
        isDecoding && sameType(AST.typeAST(withoutUndefined(source.type)), target.type)
      const node = trusted
        ? Decoder.pipe(stage1, { _tag: "OptionalMap", map, option, none, then: type })
        : Decoder.pipe(
            stage1,
            { _tag: "OptionalMap", map, option, none, then: { _tag: "Unknown" } },
            type
          )
      return {
        key: source.name as string,
        read: source.isOptional ? ("own" as const) : ("always" as const),
        optional: target.isOptional,
        node
      }
    })
  }
}

const withoutUndefined = (ast: AST.AST): AST.AST => {
  if (!AST.isUnion(ast) || !ast.types.some(AST.isUndefinedKeyword)) return ast
  const rest = ast.types.filter((t) => !AST.isUndefinedKeyword(t))
  return rest.length === 1 ? rest[0]! : AST.Union.make(rest)
}

/**
 * Whether every value of type `a` is a value of type `b`: the same node, or the same structure
 * (declarations and filters only when they are the very same). Two recursions are copies of one
 * (a type side's copy of a schema makes a new node for each) when they share its annotations: the
 * same when their targets are, which they are assumed to be when met again inside them (`met`).
 */
const sameType = (a: AST.AST, b: AST.AST, depth = 0, met: ReadonlyArray<object> = []): boolean => {
  if (a === b) return true
  if (depth > 20 || a._tag !== b._tag) return false
  const same = (x: AST.AST, y: AST.AST) => sameType(x, y, depth + 1, met)
  switch (a._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "BigIntKeyword":
    case "UndefinedKeyword":
    case "UnknownKeyword":
      return true
    case "Literal":
      return a.literal === (b as AST.Literal).literal
    case "Union": {
      const bt = (b as AST.Union).types
      return a.types.length === bt.length && a.types.every((t, i) => same(t, bt[i]!))
    }
    case "Refinement":
      return a.filter === (b as AST.Refinement).filter && same(a.from, (b as AST.Refinement).from)
    case "TupleType": {
      const bb = b as AST.TupleType
      return (
        a.elements.length === bb.elements.length &&
        a.elements.every((e, i) => {
          const other = bb.elements[i]!
          return e.isOptional === other.isOptional && same(e.type, other.type)
        }) &&
        a.rest.length === bb.rest.length &&
        a.rest.every((r, i) => same(r.type, bb.rest[i]!.type))
      )
    }
    case "TypeLiteral": {
      const bb = b as AST.TypeLiteral
      return (
        a.indexSignatures.length === 0 &&
        bb.indexSignatures.length === 0 &&
        a.propertySignatures.length === bb.propertySignatures.length &&
        a.propertySignatures.every((ps, i) => {
          const other = bb.propertySignatures[i]!
          return (
            ps.name === other.name &&
            ps.isOptional === other.isOptional &&
            same(ps.type, other.type)
          )
        })
      )
    }
    case "Suspend": {
      const bb = b as AST.Suspend
      if (a.annotations !== bb.annotations) return false
      if (met.includes(a.annotations)) return true
      return sameType(a.f(), bb.f(), depth + 1, [...met, a.annotations])
    }
    default:
      return false
  }
}

export const describeSchema = (schema: Schema.Schema.AnyNoContext): Decoder.Node =>
  describe(schema.ast)

export const describeEncoder = (schema: Schema.Schema.AnyNoContext): Decoder.Node =>
  describeEncoding(schema.ast)

export const makeEncoder = <A, I>(
  schema: Schema.Schema<A, I>
): ((a: A) => Either.Either<I, ParseResult.ParseError>) => {
  const fast = Decoder.compile(describeEncoding(schema.ast))
  const slow = Schema.encodeEither(schema)
  return (a) => {
    const r = fast(a)
    return r === Decoder.FAIL ? slow(a) : Either.right(r as I)
  }
}

export const makeDecoder = <A, I>(
  schema: Schema.Schema<A, I>,
  options?: { readonly errors?: "first" | "all" | undefined }
): ((u: unknown) => Either.Either<A, ParseResult.ParseError>) => {
  const fast = Decoder.compile(describe(schema.ast))
  const slow = Schema.decodeUnknownEither(
    schema,
    options?.errors === undefined ? undefined : { errors: options.errors }
  )
  return (u) => {
    const r = fast(u)
    return r === Decoder.FAIL ? slow(u) : Either.right(r as A)
  }
}
