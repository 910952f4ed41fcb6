/**
 * Schema work memoised per AST. `Schema.encodedSchema` builds a new AST on every call, and
 * effect's parsers are cached per AST object: an encoded schema made per call compiles its parser
 * per call too. Every encoded AST the runner reads comes from here, so each is built once and its
 * parser compiled once; and whether a schema accepts a value, by its decoder compiled once.
 */
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as Decoder from "@data-access/core/Decoder"
import * as Decode from "@data-access/schema/Decode"

const encoded = new WeakMap<AST.AST, AST.AST>()

/** The encoded side of an AST (the wire shape), built once per AST. */
const encodedAst = (ast: AST.AST): AST.AST => {
  let out = encoded.get(ast)
  if (out === undefined) encoded.set(ast, (out = AST.encodedAST(ast)))
  return out
}

const guards = new WeakMap<AST.AST, (u: unknown) => boolean>()

/** Whether a value has the wire shape of `ast` (its encoded side), the guard compiled once. */
export const isEncoded = (ast: AST.AST): ((u: unknown) => boolean) => {
  let out = guards.get(ast)
  if (out === undefined) guards.set(ast, (out = Schema.is(Schema.make(encodedAst(ast)))))
  return out
}

const typeGuards = new WeakMap<AST.AST, (u: unknown) => boolean>()

/** Whether a value is of the type side of `ast`, the guard compiled once. */
export const isType = (ast: AST.AST): ((u: unknown) => boolean) => {
  let out = typeGuards.get(ast)
  if (out === undefined) typeGuards.set(ast, (out = Schema.is(Schema.make(ast))))
  return out
}

const decoders = new WeakMap<Schema.Schema.AnyNoContext, Decoder.Decode>()

/**
 * A schema's compiled decoder (made once per schema): the value the schema's parser gives, or
 * `Decoder.FAIL` for a value it refuses, which is not parsed again for an error nobody reads.
 */
export const compiledDecoder = (schema: Schema.Schema.AnyNoContext): Decoder.Decode => {
  let decode = decoders.get(schema)
  if (decode === undefined)
    decoders.set(schema, (decode = Decoder.compile(Decode.describeSchema(schema))))
  return decode
}

const acceptors = new WeakMap<Schema.Schema.AnyNoContext, (u: unknown) => boolean>()

/**
 * Whether a schema accepts a value, by its compiled decoder alone: it accepts exactly what the
 * schema's parser accepts (generated bodies are checked by the thousand, most mutations refused).
 */
export const accepts = (schema: Schema.Schema.AnyNoContext): ((u: unknown) => boolean) => {
  let accept = acceptors.get(schema)
  if (accept === undefined) {
    const decode = compiledDecoder(schema)
    accept = (u) => decode(u) !== Decoder.FAIL
    acceptors.set(schema, accept)
  }
  return accept
}
