/**
 * A fast path for decoding responses: the schema's AST compiled once into plain closures that
 * return the decoded value or `FAIL`. It covers the node kinds the response schemas use and hands
 * any other node to Effect's own parser, so it accepts exactly what the schema accepts. On any
 * failure the caller decodes again with `Schema.decodeUnknownEither` to get the full error.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

const FAIL: unique symbol = Symbol("FAIL")
type Decode = (u: unknown) => unknown

const cache = new WeakMap<AST.AST, Decode>()

const fromEither = (u: unknown): unknown => {
  const e = u as Either.Either<unknown, unknown>
  if (Either.isEither(e)) return Either.isRight(e) ? e.right : FAIL
  return FAIL // an asynchronous or effectful parser: leave it to the slow path
}

const viaEffect = (ast: AST.AST): Decode => {
  const parse = ParseResult.decodeUnknownEither(Schema.make(ast))
  return (u) => {
    const r = parse(u)
    return Either.isRight(r) ? r.right : FAIL
  }
}

const isRecord = (u: unknown): u is Record<PropertyKey, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const compileNode = (ast: AST.AST): Decode => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => (typeof u === "string" ? u : FAIL)
    case "NumberKeyword":
      return (u) => (typeof u === "number" ? u : FAIL)
    case "BooleanKeyword":
      return (u) => (typeof u === "boolean" ? u : FAIL)
    case "BigIntKeyword":
      return (u) => (typeof u === "bigint" ? u : FAIL)
    case "UndefinedKeyword":
      return (u) => (u === undefined ? u : FAIL)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      return (u) => (u === literal ? u : FAIL)
    }
    case "Union": {
      if (ast.types.every(AST.isLiteral)) {
        const values = new Set<unknown>(ast.types.map((t) => (t as AST.Literal).literal))
        return (u) => (values.has(u) ? u : FAIL)
      }
      const members = ast.types.map(compile)
      return (u) => {
        for (const member of members) {
          const r = member(u)
          if (r !== FAIL) return r
        }
        return FAIL
      }
    }
    case "Refinement": {
      const from = compile(ast.from)
      return (u) => {
        const a = from(u)
        if (a === FAIL) return FAIL
        return Option.isNone(ast.filter(a, AST.defaultParseOption, ast)) ? a : FAIL
      }
    }
    case "Transformation": {
      const from = compile(ast.from)
      const to = compile(ast.to)
      const kind = ast.transformation
      switch (kind._tag) {
        case "FinalTransformation":
          return (u) => {
            const a = from(u)
            if (a === FAIL) return FAIL
            const b = fromEither(kind.decode(a, AST.defaultParseOption, ast, u))
            return b === FAIL ? FAIL : to(b)
          }
        case "ComposeTransformation":
          return (u) => {
            const a = from(u)
            return a === FAIL ? FAIL : to(a)
          }
        case "TypeLiteralTransformation": {
          // As Effect's parser does: each property transformation maps the field's Option, then
          // the result is decoded with `to`. Fields whose value came from `from` unchanged already
          // satisfy their type there (see `trustedFields`); only the others are decoded again.
          const psts = kind.propertySignatureTransformations
          const hasOwn = Object.prototype.hasOwnProperty
          const fields = trustedFields(ast.from, ast.to, psts)
          const keepsPresent = psts.map(keepsPresentValues)
          const generated = fields !== undefined ? structDecoder(ast.from as AST.TypeLiteral, fields, psts, keepsPresent) : undefined
          if (generated !== undefined) return generated
          return (u) => {
            const a = from(u) as Record<PropertyKey, unknown> | typeof FAIL
            if (a === FAIL) return FAIL
            let substituted = 0
            let added = false
            for (let i = 0; i < psts.length; i++) {
              const pst = psts[i]!
              const present = hasOwn.call(a, pst.from)
              const original = present ? a[pst.from] : undefined
              // A transformation that keeps every present value as it is (optionalWith defaults)
              // needs no call for a present, non-null value.
              if (present && keepsPresent[i] && original !== undefined && original !== null) continue
              const o = pst.decode(present ? Option.some(original) : Option.none())
              if (!present || Option.isNone(o) || o.value !== original) substituted |= 1 << i
              if (!present && Option.isSome(o)) added = true
              // Avoid `delete` when the key stays (it would turn the object into a slow dictionary).
              if (pst.from !== pst.to || Option.isNone(o)) {
                if (present) delete a[pst.from]
              }
              if (Option.isSome(o)) a[pst.to] = o.value
            }
            if (fields === undefined) return to(a)
            for (const field of fields) {
              const present = hasOwn.call(a, field.name)
              if (!present && field.optional) continue
              const value = a[field.name]
              if (field.trusted && present && value !== undefined && (field.pst < 0 || (substituted & (1 << field.pst)) === 0)) continue
              const r = field.decode(value)
              if (r === FAIL) return FAIL
              a[field.name] = r
            }
            if (!added) return a
            // A key added by a default went last: rebuild in `to`'s order, as Effect's parser does.
            const out: Record<string, unknown> = {}
            for (const field of fields) if (hasOwn.call(a, field.name)) out[field.name] = a[field.name]
            return out
          }
        }
      }
      return viaEffect(ast)
    }
    case "Declaration": {
      const constructor = ast.annotations[AST.TypeConstructorAnnotationId] as { readonly _tag?: unknown } | undefined
      if (constructor?._tag === "effect/Redacted" && ast.typeParameters.length === 1) {
        // Schema.RedactedFromSelf: a Redacted whose value decodes with the type parameter.
        const inner = compile(ast.typeParameters[0]!)
        return (u) => {
          if (!Redacted.isRedacted(u)) return FAIL
          const value = Redacted.value(u)
          const r = inner(value)
          return r === FAIL ? FAIL : r === value ? u : Redacted.make(r)
        }
      }
      const parse = ast.decodeUnknown(...ast.typeParameters)
      return (u) => fromEither(parse(u, AST.defaultParseOption, ast))
    }
    case "TupleType": {
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return viaEffect(ast)
      const item = compile(ast.rest[0]!.type)
      return (u) => {
        if (!Array.isArray(u)) return FAIL
        const out = new Array(u.length)
        for (let i = 0; i < u.length; i++) {
          const r = item(u[i])
          if (r === FAIL) return FAIL
          out[i] = r
        }
        return out
      }
    }
    case "TypeLiteral": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
        return (u) => (u === null || u === undefined ? FAIL : u)
      }
      if (ast.indexSignatures.some((is) => is.parameter._tag !== "StringKeyword")) return viaEffect(ast)
      if (ast.propertySignatures.some((ps) => typeof ps.name !== "string")) return viaEffect(ast)
      if (ast.indexSignatures.length === 0) {
        const generated = structDecoder(ast, undefined, [], [])
        if (generated !== undefined) return generated
      }
      const fields = ast.propertySignatures.map((ps) => ({ name: ps.name as string, optional: ps.isOptional, decode: compile(ps.type) }))
      const index = ast.indexSignatures.map((is) => compile(is.type))
      const hasOwn = Object.prototype.hasOwnProperty
      return (u) => {
        if (!isRecord(u)) return FAIL
        const out: Record<string, unknown> = {}
        for (const field of fields) {
          const present = hasOwn.call(u, field.name)
          if (!present && field.optional) continue
          const r = field.decode(u[field.name])
          if (r === FAIL) return FAIL
          out[field.name] = r
        }
        for (const decode of index) {
          for (const key of Object.keys(u)) {
            const r = decode(u[key])
            if (r === FAIL) return FAIL
            out[key] = r
          }
        }
        return out
      }
    }
    case "Suspend": {
      let inner: Decode | undefined
      return (u) => (inner ??= compile(ast.f()))(u)
    }
    default:
      return viaEffect(ast)
  }
}

/**
 * Whether every value of type `a` is a value of type `b`: the same node, or the same structure
 * (declarations and filters only when they are the very same).
 */
const sameType = (a: AST.AST, b: AST.AST, depth = 0): boolean => {
  if (a === b) return true
  if (depth > 20 || a._tag !== b._tag) return false
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
      return a.types.length === bt.length && a.types.every((t, i) => sameType(t, bt[i]!, depth + 1))
    }
    case "Refinement":
      return a.filter === (b as AST.Refinement).filter && sameType(a.from, (b as AST.Refinement).from, depth + 1)
    case "TupleType": {
      const bb = b as AST.TupleType
      return (
        a.elements.length === 0 && bb.elements.length === 0 && a.rest.length === 1 && bb.rest.length === 1 &&
        sameType(a.rest[0]!.type, bb.rest[0]!.type, depth + 1)
      )
    }
    case "TypeLiteral": {
      const bb = b as AST.TypeLiteral
      return (
        a.indexSignatures.length === 0 && bb.indexSignatures.length === 0 &&
        a.propertySignatures.length === bb.propertySignatures.length &&
        a.propertySignatures.every((ps, i) => {
          const other = bb.propertySignatures[i]!
          return ps.name === other.name && ps.isOptional === other.isOptional && sameType(ps.type, other.type, depth + 1)
        })
      )
    }
    default:
      return false
  }
}

const probes: ReadonlyArray<unknown> = ["probe", "", 7, 0, true, false, { probe: 1 }, [1], 10n]

/**
 * Whether a property transformation maps each present value to itself (as `optionalWith`'s
 * defaults do), probed with values of every JSON type. Only such transformations are skipped
 * for present values; the decoder's property test checks the result against Effect's parser.
 */
const keepsPresentValues = (pst: AST.PropertySignatureTransformation): boolean => {
  if (pst.from !== pst.to) return false
  return probes.every((probe) => {
    const o = pst.decode(Option.some(probe))
    return Option.isSome(o) && o.value === probe
  })
}

interface ToField {
  readonly name: string
  readonly optional: boolean
  /** A value decoded by `from` (and left as it was by the property transformation) needs no check. */
  readonly trusted: boolean
  /** The index of the field's property transformation, or -1. */
  readonly pst: number
  readonly decode: Decode
}

/**
 * For a struct transformation (`optionalWith` defaults), the fields of `to` and whether a value
 * decoded by `from` already has the type `to` expects: `from`'s field type, without the
 * `undefined` an optional field adds, has the same Type side as `to`'s. Effect's decode output
 * always satisfies the Type side of its schema, so checking it again cannot fail. `undefined` when
 * the shapes are not plain structs with the same keys.
 */
const trustedFields = (
  from: AST.AST,
  to: AST.AST,
  psts: ReadonlyArray<AST.PropertySignatureTransformation>
): ReadonlyArray<ToField> | undefined => {
  if (from._tag !== "TypeLiteral" || to._tag !== "TypeLiteral") return undefined
  if (from.indexSignatures.length > 0 || to.indexSignatures.length > 0) return undefined
  if (psts.length > 30 || psts.some((pst) => pst.from !== pst.to)) return undefined
  if (to.propertySignatures.some((ps) => typeof ps.name !== "string")) return undefined
  // The result is the transformed object itself, so it must have `to`'s keys in `to`'s order.
  const names = (l: AST.TypeLiteral) => l.propertySignatures.map((ps) => String(ps.name)).join("\u0000")
  if (names(from) !== names(to)) return undefined
  return to.propertySignatures.map((ps) => {
    const source = from.propertySignatures.find((f) => f.name === ps.name)
    let sourceType = source?.type
    if (sourceType !== undefined && AST.isUnion(sourceType) && sourceType.types.some(AST.isUndefinedKeyword)) {
      const rest = sourceType.types.filter((t) => !AST.isUndefinedKeyword(t))
      sourceType = rest.length === 1 ? rest[0]! : AST.Union.make(rest)
    }
    const trusted = sourceType !== undefined && sameType(AST.typeAST(sourceType), ps.type)
    const pst = psts.findIndex((t) => t.to === ps.name)
    return { name: ps.name as string, optional: ps.isOptional, trusted, pst, decode: compile(ps.type) }
  })
}

/** Whether `new Function` is allowed here (a Content-Security-Policy may forbid it). */
let canGenerate: boolean | undefined

/**
 * A struct decoder generated as straight-line code, one block per field with the key as a
 * literal, so that V8 sees named (monomorphic) property reads and writes instead of one keyed
 * loop over every struct of every schema. It does in one pass, field by field in `to`'s order,
 * what the closures do in three (`from`, the property transformations, `to`), and builds the
 * result in `to`'s order, as Effect's parser does. `fields` is undefined for a plain struct
 * (no transformation). Returns undefined when code cannot be generated (the closures are used).
 */
const structDecoder = (
  from: AST.TypeLiteral,
  fields: ReadonlyArray<ToField> | undefined,
  psts: ReadonlyArray<AST.PropertySignatureTransformation>,
  keepsPresent: ReadonlyArray<boolean>
): Decode | undefined => {
  if (canGenerate === false) return undefined
  if (from.indexSignatures.length > 0 || from.propertySignatures.some((ps) => typeof ps.name !== "string")) return undefined
  const names = from.propertySignatures.map((ps) => ps.name as string)
  if (names.length === 0) return undefined
  if (fields !== undefined) {
    if (fields.length !== names.length || fields.some((f, i) => f.name !== names[i])) return undefined
    // A required `to` field without a transformation behind an optional `from` one would be added
    // last by the closures: leave that rare shape to them.
    if (fields.some((f, i) => !f.optional && f.pst < 0 && from.propertySignatures[i]!.isOptional)) return undefined
  }
  const fromDecoders = from.propertySignatures.map((ps) => compile(ps.type))
  const toDecoders = fields?.map((f) => f.decode) ?? []
  const pstDecoders = psts.map((pst) => pst.decode)
  const lines: Array<string> = [
    "if (typeof u !== 'object' || u === null || Array.isArray(u)) return F",
    "const proto = Object.getPrototypeOf(u)",
    // Only on a plain object does a defined value prove an own property without `hasOwnProperty`.
    "const plain = proto === Object.prototype || proto === null",
    "const out = {}",
    "let v, present, o, sub"
  ]
  names.forEach((name, i) => {
    const key = JSON.stringify(name)
    const own = name in Object.prototype ? `hasOwn.call(u, ${key})` : `(plain && v !== undefined) || hasOwn.call(u, ${key})`
    lines.push(`v = u[${key}]`, `present = ${own}`)
    // `from`: a present field, or a required one, is decoded.
    if (from.propertySignatures[i]!.isOptional) {
      lines.push(`if (present) { v = D[${i}](v); if (v === F) return F }`)
    } else {
      lines.push(`v = D[${i}](v); if (v === F) return F; present = true`)
    }
    if (fields === undefined) {
      lines.push(`if (present) out[${key}] = v`)
      return
    }
    const field = fields[i]!
    // The property transformation, as the closures apply it.
    lines.push("sub = false")
    if (field.pst >= 0) {
      const j = field.pst
      const skip = keepsPresent[j] ? "present && v !== undefined && v !== null" : "false"
      lines.push(
        `if (!(${skip})) {`,
        `  o = P[${j}](present ? some(v) : none)`,
        "  if (!present || isNone(o) || o.value !== v) sub = true",
        "  if (isNone(o)) present = false; else { v = o.value; present = true }",
        "}"
      )
    }
    // `to`: decoded again unless `from` already gave a value of its type.
    const trusted = field.trusted ? "v !== undefined && !sub" : "false"
    lines.push(`if (present) { if (!(${trusted})) { v = T[${i}](v); if (v === F) return F } out[${key}] = v }`)
    if (!field.optional) lines.push(`else { v = T[${i}](undefined); if (v === F) return F; out[${key}] = v }`)
  })
  lines.push("return out")
  try {
    const factory = new Function("F", "D", "T", "P", "hasOwn", "some", "none", "isNone", `return function decodeStruct(u) {\n${lines.join("\n")}\n}`)
    canGenerate = true
    return factory(FAIL, fromDecoders, toDecoders, pstDecoders, Object.prototype.hasOwnProperty, Option.some, Option.none(), Option.isNone) as Decode
  } catch {
    canGenerate = false
    return undefined
  }
}

const compile = (ast: AST.AST): Decode => {
  const cached = cache.get(ast)
  if (cached !== undefined) return cached
  // A placeholder first, for cycles through Suspend.
  const ref: { current: Decode | undefined } = { current: undefined }
  cache.set(ast, (u) => ref.current!(u))
  ref.current = compileNode(ast)
  cache.set(ast, ref.current)
  return ref.current
}

/**
 * A decoder of unknown input: the compiled fast path, and Effect's parser for the error (or
 * whenever the fast path cannot decide).
 */
export const makeDecoder = <A, I>(schema: Schema.Schema<A, I>): ((u: unknown) => Either.Either<A, ParseResult.ParseError>) => {
  const fast = compile(schema.ast)
  const slow = Schema.decodeUnknownEither(schema)
  return (u) => {
    const r = fast(u)
    return r === FAIL ? slow(u) : Either.right(r as A)
  }
}
