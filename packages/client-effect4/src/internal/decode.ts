/**
 * A fast path for decoding responses: the Effect 4 schema's AST described for
 * `@data-access/core/Decoder`, which compiles it once (the decoder itself is written there, once
 * for both Effect lines). This module only says what each Effect 4 node means, in the order its
 * parser runs them: a node's encoding links from the wire side in (each link's schema, then its
 * getter), then the node's own parser and its checks. A node it does not know is handed to
 * Effect's own parser, so the fast path accepts exactly what the schema accepts. On any failure
 * the caller decodes again with `Schema.decodeUnknownResult` to get the full error.
 */
import * as Decoder from "@data-access/core/Decoder"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import type * as SchemaTransformation from "effect/SchemaTransformation"

const options: AST.ParseOptions = {}

/** The value of a synchronous result, or `FAIL` (a failure, or an effect the fast path does not run). */
const fromExit = (u: unknown): unknown =>
  Exit.isExit(u) ? (Exit.isSuccess(u) ? u.value : Decoder.FAIL) : Decoder.FAIL

/** The whole node (links, own parser, checks) by Effect's parser; it cannot decide for an absent key. */
const native = (ast: AST.AST): Decoder.Node => {
  const parse = Schema.decodeUnknownResult(Schema.make<Schema.Codec<unknown, unknown>>(ast))
  return {
    _tag: "Native",
    absent: "fail",
    decode: (u) => {
      const r = parse(u)
      return Result.isSuccess(r) ? r.success : Decoder.FAIL
    }
  }
}

const option = Decoder.taggedOption(Option.none(), Option.some)
const redacted: Decoder.RedactedKit = {
  isRedacted: Redacted.isRedacted,
  get: Redacted.value,
  make: (value, from) => Redacted.make(value, { label: (from as Redacted.Redacted<unknown>).label })
}

const describe = Decoder.describer((ast: AST.AST): Decoder.Node => describeNode(ast))

function describeNode(ast: AST.AST): Decoder.Node {
  if ((ast as { readonly encodingChecks?: unknown }).encodingChecks !== undefined)
    return native(ast)
  const own = describeOwn(ast)
  if (own === undefined) return native(ast)
  const local =
    ast.checks === undefined
      ? own
      : Decoder.pipe(own, ...ast.checks.map((check) => refine(check, ast)))
  const links = ast.encoding
  if (links === undefined) return local
  // The innermost (wire) link's schema first, then its getter, then the next link's schema...
  // and after the last getter the node's own parser and checks.
  const steps: Array<Decoder.Node> = []
  for (let i = links.length - 1; i >= 0; i--) {
    const link = links[i]!
    steps.push(describe(link.to))
    const getter = getterStep(link.transformation)
    if (getter === undefined) return native(ast)
    if (getter._tag !== "OptionalMap") {
      steps.push(getter)
      continue
    }
    // A value the getter keeps came out of `link.to`: when its type side (without `undefined`) is
    // this node's own, the node's own parser need not run on it again, only on what the getter
    // made (a default).
    const keeps = i === 0 && sameType(AST.toType(withoutUndefined(link.to)), ast)
    steps.push({ ...getter, then: keeps ? local : { _tag: "Unknown" } })
    if (keeps) return Decoder.pipe(...steps)
  }
  steps.push(local)
  return Decoder.pipe(...steps)
}

/** A link's getter as a step: a `TransformOptional` (a default for an absent key) is an `OptionalMap`. */
const getterStep = (transformation: AST.Link["transformation"]): Decoder.Node | undefined => {
  if (transformation._tag !== "Transformation") return undefined
  const getter = (transformation as SchemaTransformation.Transformation<unknown, unknown>).decode
  switch (getter._tag) {
    case "Passthrough":
      return { _tag: "Unknown" }
    case "Transform":
      return { _tag: "Map", map: getter.transform }
    case "TransformEffect": {
      const transform = getter.transform
      return { _tag: "Map", map: (u) => fromExit(transform(u, options)) }
    }
    case "TransformOptional":
      return {
        _tag: "OptionalMap",
        map: getter.transform as (o: unknown) => unknown,
        option,
        then: { _tag: "Unknown" }
      }
    case "TransformOptionalEffect": {
      const transform = getter.transform
      return {
        _tag: "OptionalMap",
        map: (o) => fromExit(transform(o as Option.Option<unknown>, options)),
        option,
        then: { _tag: "Unknown" }
      }
    }
  }
}

const refine = (check: AST.Check<unknown>, ast: AST.AST): Decoder.Node => {
  if (check._tag === "FilterGroup") return Decoder.pipe(...check.checks.map((c) => refine(c, ast)))
  const run = check.run
  return { _tag: "Refine", test: (u) => run(u, ast, options) === undefined }
}

/** What the node's own parser does (no links, no checks), or undefined for Effect's parser. */
const describeOwn = (ast: AST.AST): Decoder.Node | undefined => {
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "BigInt":
    case "Null":
    case "Undefined":
      return { _tag: ast._tag }
    case "Unknown":
    case "Any":
      return { _tag: "Unknown" }
    case "Literal":
      return { _tag: "Literals", values: [ast.literal] }
    case "Union": {
      if (ast.options?.mode === "oneOf") return undefined
      const plain = (t: AST.AST) => t.encoding === undefined && t.checks === undefined
      if (ast.types.every((t) => AST.isLiteral(t) && plain(t))) {
        return { _tag: "Literals", values: ast.types.map((t) => (t as AST.Literal).literal) }
      }
      // Members are tried in order; the candidate index only skips members that would fail.
      return { _tag: "Union", members: ast.types.map(describe) }
    }
    case "Arrays":
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return undefined
      return { _tag: "Array", item: describe(ast.rest[0]!) }
    case "Objects": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0)
        return { _tag: "NotNullish" }
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 1) {
        const index = ast.indexSignatures[0]!
        if (index.parameter !== AST.string) return undefined
        return { _tag: "Record", value: describe(index.type), assign: "define" }
      }
      if (
        ast.indexSignatures.length > 0 ||
        ast.propertySignatures.some((ps) => typeof ps.name !== "string")
      )
        return undefined
      return {
        _tag: "Struct",
        fields: ast.propertySignatures.map((ps) => ({
          key: ps.name as string,
          read: "in",
          optional: AST.isOptional(ps.type),
          node: describe(ps.type)
        }))
      }
    }
    case "Declaration": {
      const representation = (
        ast.annotations as
          | { readonly representation?: { readonly id?: unknown; readonly payload?: unknown } }
          | undefined
      )?.representation
      if (
        representation?.id === "effect/schema/Redacted" &&
        representation.payload === null &&
        ast.typeParameters.length === 1
      ) {
        // Schema.Redacted without a label: a Redacted whose value decodes with the type parameter,
        // into a new Redacted with the input's label, as Effect's parser makes one.
        return {
          _tag: "Redacted",
          value: describe(ast.typeParameters[0]!),
          kit: redacted
        }
      }
      // Any other declaration: its own parser (which passes an absent key on).
      const run = ast.run(ast.typeParameters)
      return { _tag: "Native", absent: "pass", decode: (u) => fromExit(run(u, ast, options)) }
    }
    case "Suspend": {
      const thunk = ast.thunk
      return { _tag: "Lazy", get: () => describe(thunk()) }
    }
    default:
      return undefined
  }
}

const withoutUndefined = (ast: AST.AST): AST.AST => {
  if (!AST.isUnion(ast) || ast.encoding !== undefined || ast.checks !== undefined) return ast
  const rest = ast.types.filter(
    (t) => !(AST.isUndefined(t) && t.encoding === undefined && t.checks === undefined)
  )
  return rest.length === 1 && rest.length !== ast.types.length ? rest[0]! : ast
}

/**
 * Whether `a` (a type side, without links) is the type of `b`'s own parser and checks: the same
 * node, or a copy of it that only its links or context tell apart.
 */
const sameType = (a: AST.AST, b: AST.AST): boolean => {
  if (a === b) return true
  if (a._tag !== b._tag || a.checks !== b.checks) return false
  switch (a._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "BigInt":
    case "Null":
    case "Undefined":
    case "Unknown":
      return true
    case "Literal":
      return a.literal === (b as AST.Literal).literal
    case "Union":
      return a.types === (b as AST.Union).types
    case "Arrays":
      return a.elements === (b as AST.Arrays).elements && a.rest === (b as AST.Arrays).rest
    case "Objects":
      return (
        a.propertySignatures === (b as AST.Objects).propertySignatures &&
        a.indexSignatures === (b as AST.Objects).indexSignatures
      )
    case "Declaration":
      return (
        a.run === (b as AST.Declaration).run &&
        a.typeParameters === (b as AST.Declaration).typeParameters
      )
    default:
      return false
  }
}

/**
 * The description of an Effect 4 schema for `@data-access/core/Decoder` (exported for tests).
 */
export const describeSchema = (schema: Schema.Top): Decoder.Node => describe(schema.ast)

/**
 * A decoder of unknown input: the compiled fast path, and Effect's parser for the error (or
 * whenever the fast path cannot decide).
 */
export const makeDecoder = <A, I>(
  schema: Schema.Codec<A, I>
): ((u: unknown) => Result.Result<A, Schema.SchemaError>) => {
  const fast = Decoder.compile(describe(schema.ast))
  const slow = Schema.decodeUnknownResult(schema)
  return (u) => {
    const r = fast(u)
    return r === Decoder.FAIL ? slow(u) : Result.succeed(r as A)
  }
}
