/**
 * The Connect error body (decisions.md section 2) as Effect 3 schemas: the code, the details, the
 * body and the rate-limit headers, with readers of a body. Re-exported by `../ConnectError.ts`.
 *
 * @since 0.1.0
 */
import * as CodeTable from "@data-access/core/Code"
import * as Decoder from "@data-access/core/Decoder"
import * as Schema from "effect/Schema"
import { describeSchema } from "./decode.js"

/**
 * A Connect error code.
 *
 * @since 0.1.0
 * @category codes
 */
export type Code = CodeTable.Code

/**
 * @since 0.1.0
 * @category codes
 */
export const Code: Schema.Schema<Code> = Schema.Literal(
  ...(CodeTable.codes as [Code, ...Array<Code>])
).annotations({
  identifier: "ConnectCode"
})

/**
 * One entry of `details`.
 *
 * @since 0.1.0
 * @category body
 */
export const ErrorDetail = Schema.Struct({
  type: Schema.String,
  value: Schema.String,
  /** Any JSON value. */
  debug: Schema.optional(
    Schema.Unknown.annotations({
      arbitrary: () => (fc) => fc.jsonValue(),
      equivalence: () => (a, b) => JSON.stringify(a) === JSON.stringify(b)
    })
  )
}).annotations({ identifier: "ConnectErrorDetail" })

/**
 * The body of every non-200 response.
 *
 * @since 0.1.0
 * @category body
 */
export const ErrorBody = Schema.Struct({
  code: Code,
  message: Schema.optional(Schema.String),
  details: Schema.optional(Schema.Array(ErrorDetail))
}).annotations({ identifier: "ConnectErrorBody" })

/**
 * @since 0.1.0
 * @category body
 */
export interface ErrorBody extends Schema.Schema.Type<typeof ErrorBody> {}

/** The body's compiled decoder (it accepts what the schema's parser accepts), made on first use. */
let decodeErrorBody: Decoder.Decode | undefined

/**
 * Reads a parsed JSON value as a Connect error body; `undefined` when it is not one (no `code`, an
 * unknown code, a `message` that is not a string...).
 *
 * @since 0.3.0
 * @category body
 */
export const decodeBody = (json: unknown): ErrorBody | undefined => {
  decodeErrorBody ??= Decoder.compile(describeSchema(ErrorBody))
  const decoded = decodeErrorBody(json)
  return decoded === Decoder.FAIL ? undefined : (decoded as ErrorBody)
}

/**
 * Reads the text of an answer as a Connect error body; `undefined` when it is not JSON or not a
 * Connect error body.
 *
 * @since 0.3.0
 * @category body
 */
export const parseBody = (text: string): ErrorBody | undefined => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  return decodeBody(json)
}

// A number read from a header; generated values are ones a header carries (and JSON keeps).
const HeaderNumber = Schema.Number.annotations({ arbitrary: () => (fc) => fc.nat() })

/**
 * Rate-limit headers a response may carry.
 *
 * @since 0.1.0
 * @category models
 */
export const RateLimit = Schema.Struct({
  limit: Schema.optional(HeaderNumber),
  remaining: Schema.optional(HeaderNumber),
  reset: Schema.optional(HeaderNumber),
  retryAfterMillis: Schema.optional(HeaderNumber)
}).annotations({ identifier: "RateLimit" })
