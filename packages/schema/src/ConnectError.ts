/**
 * Connect errors (decisions.md section 2): the 16 codes, the error body, the code/status table in
 * both directions and the typed `ConnectError`.
 *
 * @since 0.1.0
 */
import * as CodeTable from "@data-access/core/Code"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"

export {
  /**
   * Each Connect code with its HTTP status (the current Connect mapping).
   *
   * @since 0.1.0
   * @category codes
   */
  statusByCode,
  /**
   * The 16 codes.
   *
   * @since 0.1.0
   * @category codes
   */
  codes,
  /**
   * The HTTP status of a code. `unimplemented` is 501, except for an unknown route (404).
   *
   * @since 0.1.0
   * @category codes
   */
  statusOf,
  /**
   * Whether an HTTP status may carry a code: the status of the code, or 404 for `unimplemented`
   * on an unknown route.
   *
   * @since 0.1.0
   * @category codes
   */
  statusAgrees,
  /**
   * The code a reader assumes when the body is not a valid Connect error: 401 unauthenticated,
   * 403 permission_denied, 404 unimplemented, 429/502/503/504 unavailable, anything else unknown.
   *
   * @since 0.1.0
   * @category codes
   */
  codeFromStatus,
  /**
   * Codes that say the service did not act and the call may be tried again.
   *
   * @since 0.1.0
   * @category codes
   */
  transientCodes
} from "@data-access/core/Code"

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

const decodeErrorBody = Schema.decodeUnknownOption(ErrorBody)

/**
 * Reads a parsed JSON value as a Connect error body; `undefined` when it is not one (no `code`, an
 * unknown code, a `message` that is not a string...).
 *
 * @since 0.3.0
 * @category body
 */
export const decodeBody = (json: unknown): ErrorBody | undefined => {
  const decoded = decodeErrorBody(json)
  return decoded._tag === "Some" ? decoded.value : undefined
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

/**
 * Writes a Connect error body as JSON text: `code`, `message`, and `details` when there are some.
 *
 * @since 0.3.0
 * @category body
 */
export const writeBody = (error: ConnectError | ErrorBody): string =>
  JSON.stringify(isConnectError(error) ? error.toBody() : error)

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

/**
 * A Connect error, from the wire or made by a server. `code` says what happened; the HTTP status,
 * the request id and the rate-limit headers are kept when known.
 *
 * @since 0.1.0
 * @category errors
 */
export class ConnectError extends Schema.TaggedError<ConnectError>(
  "@data-access/schema/ConnectError"
)("ConnectError", {
  code: Code,
  message: Schema.String,
  details: Schema.optionalWith(Schema.Array(ErrorDetail), { default: () => [] }),
  httpStatus: Schema.optional(
    Schema.Number.annotations({ arbitrary: () => (fc) => fc.integer({ min: 100, max: 599 }) })
  ),
  requestId: Schema.optional(Schema.String),
  rateLimit: Schema.optional(RateLimit),
  /** The operation (`ResourceService/GetResource`) when known. */
  operation: Schema.optional(Schema.String)
}) {
  /**
   * Whether a read may be retried after this error.
   */
  get isRetryable(): boolean {
    return CodeTable.transientCodes.has(this.code)
  }

  /** The error as a Connect error body. */
  toBody(): ErrorBody {
    return this.details.length > 0
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message }
  }

  /** The HTTP status a server answers this error with. */
  get status(): number {
    return this.httpStatus ?? CodeTable.statusOf(this.code)
  }
}

/**
 * Builds a `ConnectError` with a code and a message.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  code: Code,
  message: string,
  extra?: Partial<Omit<ConstructorParameters<typeof ConnectError>[0], "code" | "message">>
): ConnectError => new ConnectError({ code, message, ...extra })

/**
 * @since 0.1.0
 * @category guards
 */
export const isConnectError = (u: unknown): u is ConnectError =>
  Predicate.isTagged(u, "ConnectError")

/**
 * Whether an error is a Connect error with the given code. Use it with `Effect.catchIf`.
 *
 * @since 0.1.0
 * @category guards
 */
export const hasCode =
  <C extends Code>(code: C) =>
  (u: unknown): u is ConnectError & { readonly code: C } =>
    isConnectError(u) && u.code === code
