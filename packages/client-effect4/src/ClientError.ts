/**
 * The errors of every call: `ConnectError` (the service answered an error), `TransportError`,
 * `TimeoutError`, `DecodeError`, `InvalidRequestError`, and `CursorRepeatedError` for paging
 * streams. Each is a `Schema.TaggedError` with `isRetryable`.
 *
 * @since 0.1.0
 */
import * as Deadline from "@data-access/core/Deadline"
import * as Paging from "@data-access/core/Paging"
import * as Retry from "@data-access/core/Retry"
import { ConnectError, hasCode } from "@data-access/schema-effect4/ConnectError"
import * as Schema from "effect/Schema"

export {
  /**
   * The Connect error of `@data-access/schema-effect4`: `code`, `message`, `details`,
   * `httpStatus`, `requestId` and `rateLimit` (with `retryAfterMillis` from `Retry-After` /
   * `retry-after-ms`).
   *
   * @since 0.1.0
   * @category errors
   */
  ConnectError,
  /**
   * Whether an error is a `ConnectError` with a given code, for `Effect.catchIf`.
   *
   * @since 0.1.0
   * @category guards
   */
  hasCode
}

/**
 * `connect`: the connection never opened (the service certainly did not act); `exchange`: the
 * request may have been sent.
 *
 * @since 0.1.0
 * @category models
 */
export type TransportPhase = "connect" | "exchange"

/**
 * No response arrived.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>("@data-access/client-effect4/TransportError")(
  "TransportError",
  {
    /** The operation (`ResourceService/GetResource`). */
    operation: Schema.String,
    /** `connect` when the connection never opened; `exchange` when the request may have been sent. */
    phase: Schema.Literals(["connect", "exchange"]),
    message: Schema.String,
    /** The system error code when known (`ECONNREFUSED`, `ECONNRESET`...). */
    errorCode: Schema.optionalKey(Schema.String)
  }
) {
  /** A transport failure is transient: a read may be tried again. */
  get isRetryable(): boolean {
    return Retry.isRetryableRead(this)
  }
}

/**
 * An attempt timeout or the overall deadline ran out; the request was interrupted.
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends Schema.TaggedError<TimeoutError>("@data-access/client-effect4/TimeoutError")(
  "TimeoutError",
  {
    operation: Schema.String,
    scope: Schema.Literals(["attempt", "overall"]),
    timeoutMillis: Schema.Number,
    /** Attempts made, this one included. */
    attempts: Schema.Number
  }
) {
  override get message(): string {
    return Deadline.timeoutMessage(this.operation, this.scope, this.timeoutMillis, this.attempts)
  }

  /** An attempt timeout may be tried again within the overall budget; the overall deadline is final. */
  get isRetryable(): boolean {
    return Retry.isRetryableRead(this)
  }
}

/**
 * A 200 response broke its schema. `path` is the JSON path (`$.resource.port`); the message
 * never shows a value.
 *
 * @since 0.1.0
 * @category errors
 */
export class DecodeError extends Schema.TaggedError<DecodeError>("@data-access/client-effect4/DecodeError")("DecodeError", {
  operation: Schema.String,
  path: Schema.String,
  message: Schema.String,
  httpStatus: Schema.Number,
  requestId: Schema.optionalKey(Schema.String)
}) {
  /** A malformed response does not get better by asking again. */
  get isRetryable(): boolean {
    return false
  }
}

/**
 * The request broke a rule of the interface (`$.limit`); nothing was sent.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequestError extends Schema.TaggedError<InvalidRequestError>(
  "@data-access/client-effect4/InvalidRequestError"
)("InvalidRequestError", {
  operation: Schema.String,
  path: Schema.String,
  message: Schema.String
}) {
  /** The same request fails the same way. */
  get isRetryable(): boolean {
    return false
  }
}

/**
 * A paging stream got back a cursor it had already followed.
 *
 * @since 0.1.0
 * @category errors
 */
export class CursorRepeatedError extends Schema.TaggedError<CursorRepeatedError>(
  "@data-access/client-effect4/CursorRepeatedError"
)("CursorRepeatedError", {
  operation: Schema.String,
  /** The page (1-based) whose `nextCursor` repeated an earlier one. */
  page: Schema.Number
}) {
  override get message(): string {
    return Paging.repeatedMessage(this.operation, this.page)
  }

  /** Retrying would loop again. */
  get isRetryable(): boolean {
    return false
  }
}

/**
 * The error channel of every call.
 *
 * @since 0.1.0
 * @category models
 */
export type ClientError = ConnectError | TransportError | TimeoutError | DecodeError | InvalidRequestError

/**
 * @since 0.1.0
 * @category guards
 */
export const isClientError = (u: unknown): u is ClientError | CursorRepeatedError =>
  u instanceof ConnectError ||
  u instanceof TransportError ||
  u instanceof TimeoutError ||
  u instanceof DecodeError ||
  u instanceof InvalidRequestError ||
  u instanceof CursorRepeatedError

/**
 * Marks a `ConnectError` built from the HTTP status alone (no Connect body).
 *
 * @since 0.1.0
 * @category constructors
 */
export const markStatusFallback: (error: ConnectError) => ConnectError = Retry.markStatusFallback

/**
 * Whether a `ConnectError` came from the HTTP status alone (a proxy's 502, a 404 without body).
 *
 * @since 0.1.0
 * @category guards
 */
export const isStatusFallback: (error: ConnectError) => boolean = Retry.isStatusFallback

/**
 * Whether a read (Get, List) may be retried after this error.
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryableRead = (error: ClientError): boolean => Retry.isRetryableRead(Retry.failureOf(error))

/**
 * Whether a write (create, update) may be retried: only when the service certainly did not act.
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryableWrite = (error: ClientError): boolean => Retry.isRetryableWrite(Retry.failureOf(error))

/**
 * @since 0.1.0
 * @category retries
 */
export const isRetryable: (error: ClientError, safeToRetry: boolean) => boolean = Retry.isRetryableError
