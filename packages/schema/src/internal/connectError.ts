/**
 * The typed `ConnectError` and its helpers. The same code on both Effect lines:
 * `@data-access/schema-effect4` generates its copy from this file, renaming the APIs Effect 4
 * renamed. Re-exported by `../ConnectError.ts`.
 *
 * @since 0.1.0
 */
import * as CodeTable from "@data-access/core/Code"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { Code, ErrorBody, ErrorDetail, RateLimit } from "./errorBody.js"

/**
 * A Connect error, from the wire or made by a server. `code` says what happened; the HTTP status,
 * the request id and the rate-limit headers are kept when known. A client's error also keeps the
 * body's own message (`rawMessage`) and a code outside the 16 (`rawCode`).
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
  operation: Schema.optional(Schema.String),
  /** The body's message as the server wrote it, when a client read the error (its `message` then names the operation and the code). */
  rawMessage: Schema.optional(Schema.String),
  /** The body's code when it is none of the 16; `code` is then the one the HTTP status falls back to. */
  rawCode: Schema.optional(Schema.String)
}) {
  /**
   * Whether a read may be retried after this error.
   */
  get isRetryable(): boolean {
    return CodeTable.transientCodes.has(this.code)
  }

  /** The error as a Connect error body, with the message as the server wrote it when a client read it. */
  toBody(): ErrorBody {
    const message = this.rawMessage ?? this.message
    return this.details.length > 0
      ? { code: this.code, message, details: this.details }
      : { code: this.code, message }
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

/**
 * Writes a Connect error body as JSON text: `code`, `message`, and `details` when there are some.
 *
 * @since 0.3.0
 * @category body
 */
export const writeBody = (error: ConnectError | ErrorBody): string =>
  JSON.stringify(isConnectError(error) ? error.toBody() : error)
