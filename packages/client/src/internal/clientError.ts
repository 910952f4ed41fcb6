/**
 * The code of the `ClientError` module, which re-exports it.
 */
import * as Deadline from "@data-access/core/Deadline"
import * as Paging from "@data-access/core/Paging"
import * as Retry from "@data-access/core/Retry"
import { codes, ConnectError, hasCode, isConnectError } from "@data-access/schema/ConnectError"
import * as Effect from "effect/Effect"
import { dual } from "effect/Function"
import * as Schema from "effect/Schema"

export {
  /**
   * The 16 Connect codes, in the order of decisions.md section 2.
   *
   * @since 0.4.0
   * @category codes
   */
  codes,
  /**
   * The Connect error of `@data-access/schema`: `code`, `message`, `details`, `httpStatus`,
   * `requestId` and `rateLimit` (with `retryAfterMillis` from `Retry-After` / `retry-after-ms`).
   *
   * @since 0.1.0
   * @category errors
   */
  ConnectError,
  /**
   * Whether an error is a `ConnectError` with a given code, for `Effect.catchIf`:
   * `Effect.catchIf(ClientError.hasCode("not_found"), ...)`.
   *
   * @since 0.1.0
   * @category guards
   */
  hasCode
}

/**
 * Where a transport failure happened. `connect`: the connection never opened, so the service
 * certainly did not act. `exchange`: the request may have reached the service.
 *
 * @since 0.1.0
 * @category models
 */
export type TransportPhase = "connect" | "exchange"

/**
 * No HTTP response arrived.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>(
  "@data-access/client/TransportError"
)("TransportError", {
  /** The operation (`ResourceService/GetResource`). */
  operation: Schema.String,
  /** `connect` when the connection never opened; `exchange` when the request may have been sent. */
  phase: Schema.Literal("connect", "exchange"),
  message: Schema.String,
  /** The system error code when known (`ECONNREFUSED`, `ECONNRESET`...). */
  errorCode: Schema.optional(Schema.String)
}) {
  /** A transport failure is transient: a read may be tried again. */
  get isRetryable(): boolean {
    return Retry.isRetryableRead(this)
  }
}

/**
 * A timeout ran out and the request was interrupted. `scope` says which: `attempt` (one try) or
 * `overall` (the budget across retries).
 *
 * @since 0.1.0
 * @category errors
 */
export class TimeoutError extends Schema.TaggedError<TimeoutError>(
  "@data-access/client/TimeoutError"
)("TimeoutError", {
  operation: Schema.String,
  scope: Schema.Literal("attempt", "overall"),
  timeoutMillis: Schema.Number,
  /** Attempts made, this one included. */
  attempts: Schema.Number
}) {
  override get message(): string {
    return Deadline.timeoutMessage(this.operation, this.scope, this.timeoutMillis, this.attempts)
  }

  /** An attempt timeout may be tried again within the overall budget; the overall deadline is final. */
  get isRetryable(): boolean {
    return Retry.isRetryableRead(this)
  }
}

/**
 * A response did not match its schema. `path` is the JSON path of the first problem
 * (`$.resource.port`). The message never carries the value of a secret field.
 *
 * @since 0.1.0
 * @category errors
 */
export class DecodeError extends Schema.TaggedError<DecodeError>("@data-access/client/DecodeError")(
  "DecodeError",
  {
    operation: Schema.String,
    path: Schema.String,
    message: Schema.String,
    httpStatus: Schema.Number,
    requestId: Schema.optional(Schema.String)
  }
) {
  /** A malformed response does not get better by asking again. */
  get isRetryable(): boolean {
    return false
  }
}

/**
 * The request broke a rule of the interface (a missing field, `limit` out of range...) and was
 * not sent. `path` is the JSON path of the field.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequestError extends Schema.TaggedError<InvalidRequestError>(
  "@data-access/client/InvalidRequestError"
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
 * A paging stream got back a cursor it had already followed: the service would loop forever.
 *
 * @since 0.1.0
 * @category errors
 */
export class CursorRepeatedError extends Schema.TaggedError<CursorRepeatedError>(
  "@data-access/client/CursorRepeatedError"
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
 * The error channel of every client method.
 *
 * @example
 * ```ts
 * import { Services } from "@data-access/client"
 * import { Effect, Option } from "effect"
 *
 * // a resource that does not exist is `None`; every other error stays in the error channel
 * const findResource = (id: string) =>
 *   Effect.gen(function*() {
 *     const resources = yield* Services.ResourceService
 *     const { resource } = yield* resources.getResource({ id })
 *     return Option.some(resource)
 *   }).pipe(
 *     Effect.catchTag("ConnectError", (error) => error.code === "not_found" ? Effect.succeedNone : Effect.fail(error))
 *   )
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export type ClientError =
  ConnectError | TransportError | TimeoutError | DecodeError | InvalidRequestError

/**
 * Whether a value is one of the client's errors.
 *
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
 * Marks a `ConnectError` whose code was not read from a Connect error body but derived from the
 * HTTP status (a proxy's bare 502, for example).
 *
 * @since 0.1.0
 * @category constructors
 */
export const markStatusFallback: (error: ConnectError) => ConnectError = Retry.markStatusFallback

/**
 * Whether a `ConnectError`'s code came from the HTTP status because the response carried no
 * Connect error body. Such an error may come from a proxy in front of the service, so the service
 * may have acted.
 *
 * @since 0.1.0
 * @category guards
 */
export const isStatusFallback = (error: ConnectError): boolean =>
  Retry.isStatusFallback(original(error))

// Effect 3 wraps failures in a Proxy that records the span; this key gives back the instance (an
// error without the key is the instance).
const originalKey = Symbol.for("effect/OriginalAnnotation")
const original = <E extends ClientError>(error: E): E =>
  (error as unknown as Record<symbol, E | undefined>)[originalKey] ?? error

// An error as `@data-access/core/Retry` decides on it.
const failureOf = (error: ClientError): Retry.Failure => Retry.failureOf(original(error))

/**
 * Whether an error may be retried for a read (Get and List): transient Connect codes
 * (unavailable, resource_exhausted, deadline_exceeded, aborted, internal, unknown), a bare
 * 408/429/502/503/504, transport failures and attempt timeouts.
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryableRead = (error: ClientError): boolean =>
  Retry.isRetryableRead(failureOf(error))

/**
 * Whether an error may be retried for a create or an update: only when the service certainly did
 * not act, that is a Connect `unavailable` or `resource_exhausted` body from the service itself,
 * or a connection that never opened. Never after a bare 502/504, a reset after the request was
 * sent, or a timeout.
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryableWrite = (error: ClientError): boolean =>
  Retry.isRetryableWrite(failureOf(error))

/**
 * Whether an error may be retried for an operation: reads use `isRetryableRead`, writes
 * `isRetryableWrite`.
 *
 * @example
 * ```ts
 * import { ClientError, Services } from "@data-access/client"
 * import { Effect } from "effect"
 *
 * const program = Effect.gen(function*() {
 *   const resources = yield* Services.ResourceService
 *   return yield* resources.getResource({ id: "resource_01h45ytscbebyvny4gc8cr8ma2" })
 * }).pipe(
 *   // a read is safe to retry (`true`); pass `false` for a create or an update
 *   Effect.tapError((error) => Effect.logWarning(ClientError.isRetryable(error, true) ? "transient: try later" : "permanent", error))
 * )
 * ```
 *
 * @since 0.1.0
 * @category retries
 */
export const isRetryable = (error: ClientError, safeToRetry: boolean): boolean =>
  Retry.isRetryableError(original(error), safeToRetry)

/**
 * A Connect code: one of the 16 of decisions.md section 2 (`not_found`, `already_exists`...).
 *
 * @since 0.4.0
 * @category codes
 */
export type Code = ConnectError["code"]

/**
 * A `ConnectError` whose code is one of `C`.
 *
 * @since 0.4.0
 * @category models
 */
export type ConnectErrorOf<C extends Code> = ConnectError & { readonly code: C }

/**
 * The handlers of `catchCodes`: for some codes, the effect that replaces a `ConnectError` of that
 * code. Each handler receives the error narrowed to its code.
 *
 * @since 0.4.0
 * @category models
 */
export type CodeHandlers = {
  readonly [C in Code]?: (error: ConnectErrorOf<C>) => Effect.Effect<unknown, unknown, unknown>
}

/**
 * The codes a set of handlers handles.
 *
 * @since 0.4.0
 * @category models
 */
export type HandledCodes<H> = {
  [C in keyof H & Code]: H[C] extends (error: never) => unknown ? C : never
}[keyof H & Code]

type Handled<H> = {
  [C in keyof H & Code]: H[C] extends (error: never) => infer X ? X : never
}[keyof H & Code]
type SuccessOf<X> = X extends Effect.Effect<infer A, infer _E, infer _R> ? A : never
type ErrorOf<X> = X extends Effect.Effect<infer _A, infer E, infer _R> ? E : never
type ContextOf<X> = X extends Effect.Effect<infer _A, infer _E, infer R> ? R : never

/**
 * An error channel `E` once the `ConnectError`s with a code of `C` are handled: every other error
 * as it was, and `ConnectError` narrowed to the codes left (gone when none is left).
 *
 * @since 0.4.0
 * @category models
 */
export type Unhandled<E, C extends Code> =
  | Exclude<E, ConnectError>
  | ([Exclude<Extract<E, ConnectError>["code"], C>] extends [never]
      ? never
      : ConnectErrorOf<Exclude<Extract<E, ConnectError>["code"], C>>)

// A key of the handlers that is no code is a mistake (a misspelt code).
type OnlyCodes<H> = { readonly [K in Exclude<keyof H, Code>]: never }

/**
 * Handles `ConnectError`s by code: each handler receives the error narrowed to its code and
 * replaces it with its effect; errors with another code, and every other error, pass through. The
 * handled codes leave the error channel: what remains is `ConnectError` narrowed to the other
 * codes (see `Unhandled`), so a second `catchCodes` or a `switch` on `code` sees only those.
 *
 * @example
 * ```ts
 * import { ClientError, Services } from "@data-access/client"
 * import { Effect, Option } from "effect"
 *
 * const findResource = (id: string) =>
 *   Effect.gen(function*() {
 *     const resources = yield* Services.ResourceService
 *     const { resource } = yield* resources.getResource({ id })
 *     return Option.some(resource)
 *   }).pipe(
 *     ClientError.catchCodes({
 *       not_found: () => Effect.succeedNone,
 *       permission_denied: (error) => Effect.die(error)
 *     })
 *   )
 * ```
 *
 * @since 0.4.0
 * @category error handling
 */
export const catchCodes: {
  <H extends CodeHandlers & OnlyCodes<H>>(
    handlers: H
  ): <A, E, R>(
    self: Effect.Effect<A, E, R>
  ) => Effect.Effect<
    A | SuccessOf<Handled<H>>,
    Unhandled<E, HandledCodes<H>> | ErrorOf<Handled<H>>,
    R | ContextOf<Handled<H>>
  >
  <A, E, R, H extends CodeHandlers & OnlyCodes<H>>(
    self: Effect.Effect<A, E, R>,
    handlers: H
  ): Effect.Effect<
    A | SuccessOf<Handled<H>>,
    Unhandled<E, HandledCodes<H>> | ErrorOf<Handled<H>>,
    R | ContextOf<Handled<H>>
  >
} = dual(
  2,
  (
    self: Effect.Effect<unknown, unknown, unknown>,
    handlers: CodeHandlers
  ): Effect.Effect<unknown, unknown, unknown> =>
    Effect.catchIf(
      self,
      (error): error is ConnectError =>
        isConnectError(error) && typeof handlers[error.code] === "function",
      (error) => handlers[error.code]!(error as never)
    )
)
