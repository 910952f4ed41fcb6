/**
 * Fast decoding of this package's schemas: the Effect 3 schema's AST described for
 * `@data-access/core/Decoder`, which compiles it once (the decoder itself is written there, once
 * for both Effect lines). This module only says what each Effect 3 node means; a node it does not
 * know is handed to Effect's own parser, so the fast path accepts exactly what the schema accepts
 * and returns an equal value. On any failure the schema's parser decodes again, to give the full
 * error. The client decodes every answer with it; the contract runner and the conformance proxy
 * judge answers with it. Whether a union member may be an object is read from its wire shape
 * (`SchemaWalk.shapeOf`).
 *
 * @since 0.4.0
 */
import * as Decoder from "@data-access/core/Decoder"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as internal from "./internal/decode.js"

/**
 * The description of an Effect 3 schema for `@data-access/core/Decoder`: what the property tests
 * hold the compiled decoder to.
 *
 * @since 0.4.0
 * @category description
 */
export const describeSchema: (schema: Schema.Schema.AnyNoContext) => Decoder.Node =
  internal.describeSchema

/**
 * A decoder of unknown input: the compiled fast path, and the schema's own parser for the error
 * (or whenever the fast path cannot decide). `errors: "all"` has the parser collect every issue
 * instead of the first; the other parse options (excess properties, property order) would change
 * what is accepted or returned, so they are not taken.
 *
 * @example
 * ```ts
 * import * as Decode from "@data-access/schema/Decode"
 * import * as Operations from "@data-access/schema/Operations"
 * import * as Either from "effect/Either"
 *
 * const decode = Decode.makeDecoder(Operations.operations.GetResource.response)
 * const result = decode({ resource: { id: "res_1", name: "orders", port: 5432 } })
 * if (Either.isRight(result)) console.log(result.right.resource?.name)
 * ```
 *
 * @since 0.4.0
 * @category constructors
 */
export const makeDecoder: <A, I>(
  schema: Schema.Schema<A, I>,
  options?: {
    readonly errors?: "first" | "all" | undefined
  }
) => (u: unknown) => Either.Either<A, ParseResult.ParseError> = internal.makeDecoder

/**
 * The description of an Effect 3 schema's encoding (`Schema.encode`: the type side to the wire
 * form) for `@data-access/core/Decoder`: what the property tests hold the compiled encoder to.
 *
 * @since 0.4.0
 * @category description
 */
export const describeEncoder: (schema: Schema.Schema.AnyNoContext) => Decoder.Node =
  internal.describeEncoder

/**
 * An encoder of the schema's type side: the compiled fast path, and the schema's own encoder for
 * the error (or whenever the fast path cannot decide). It gives what `Schema.encodeEither` gives.
 *
 * @example
 * ```ts
 * import * as Decode from "@data-access/schema/Decode"
 * import * as Operations from "@data-access/schema/Operations"
 * import * as Either from "effect/Either"
 *
 * const encode = Decode.makeEncoder(Operations.operations.GetResource.request)
 * const result = encode({ id: "res_1" })
 * if (Either.isRight(result)) console.log(result.right.id)
 * ```
 *
 * @since 0.4.0
 * @category constructors
 */
export const makeEncoder: <A, I>(
  schema: Schema.Schema<A, I>
) => (a: A) => Either.Either<I, ParseResult.ParseError> = internal.makeEncoder
