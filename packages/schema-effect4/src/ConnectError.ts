/**
 * Connect errors: the wire body, the code table (generated from `@data-access/schema`) and the
 * `ConnectError` class, written for Effect 4 (`Schema.TaggedErrorClass`).
 *
 * @since 0.1.0
 */
import { statusOf } from "@data-access/core/Code"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import { Code, ErrorBody, ErrorDetail, RateLimit, transientCodes } from "./generated/ConnectError.js"

export { codes, Code, ErrorBody, ErrorDetail, RateLimit, statusByCode } from "./generated/ConnectError.js"

/**
 * Codes that say the service did not act and the call may be tried again.
 *
 * @since 0.1.0
 * @category codes
 */
export const transient: ReadonlySet<Code> = transientCodes as ReadonlySet<Code>

export {
  /**
   * The HTTP status of a code.
   *
   * @since 0.1.0
   * @category codes
   */
  statusOf,
  /**
   * Whether an HTTP status agrees with a code (`unimplemented` may also come as a 404).
   *
   * @since 0.1.0
   * @category codes
   */
  statusAgrees,
  /**
   * The code a response without a Connect body stands for, from its HTTP status.
   *
   * @since 0.1.0
   * @category codes
   */
  codeFromStatus
} from "@data-access/core/Code"

/**
 * A Connect error, from the wire or made by a server. `code` says what happened; the HTTP status,
 * the request id and the rate-limit headers are kept when known.
 *
 * @since 0.1.0
 * @category errors
 */
export class ConnectError extends Schema.TaggedError<ConnectError>("@data-access/schema-effect4/ConnectError")(
  "ConnectError",
  {
    code: Code,
    message: Schema.String,
    details: Schema.Array(ErrorDetail).pipe(Schema.withConstructorDefault(Effect.succeed([]))),
    httpStatus: Schema.optionalKey(Schema.Number),
    requestId: Schema.optionalKey(Schema.String),
    rateLimit: Schema.optionalKey(RateLimit),
    /** The operation (`ResourceService/GetResource`) when known. */
    operation: Schema.optionalKey(Schema.String)
  }
) {
  /** Whether a read may be retried after this error. */
  get isRetryable(): boolean {
    return transient.has(this.code)
  }

  /** The error as a Connect error body. */
  toBody(): ErrorBody {
    return this.details.length > 0
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message }
  }

  /** The HTTP status a server answers this error with. */
  get status(): number {
    return this.httpStatus ?? statusOf(this.code)
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
export const isConnectError = (u: unknown): u is ConnectError => Predicate.isTagged(u, "ConnectError")

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
