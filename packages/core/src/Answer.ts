/**
 * Reading an answer: a 200's JSON text, or another status's Connect error body, its code (or the
 * one its status falls back to), the request id and the rate-limit headers. The result is plain
 * data each Effect line puts in its own error classes.
 *
 * @since 0.1.0
 */
import * as CodeTable from "./Code.js"
import * as internal from "./internal/answer.js"

/**
 * The header of the request id a server may send.
 *
 * @since 0.1.0
 * @category headers
 */
export const REQUEST_ID_HEADER: "x-request-id" = internal.REQUEST_ID_HEADER

/**
 * Reads a header of an answer (lower-case name); `undefined` when absent.
 *
 * @since 0.1.0
 * @category models
 */
export type Header = (name: string) => string | undefined

/**
 * Parsed JSON, or why the text is not JSON.
 *
 * @since 0.1.0
 * @category models
 */
export type Json =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string }

/**
 * Parses a body as JSON, without throwing.
 *
 * @since 0.1.0
 * @category reading
 */
export const parseJson: (text: string) => Json = internal.parseJson

/**
 * One entry of a Connect error's `details`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ErrorDetail {
  readonly type: string
  readonly value: string
  readonly debug?: unknown
}

/**
 * A Connect error body.
 *
 * @since 0.1.0
 * @category models
 */
export interface ErrorBody {
  readonly code: CodeTable.Code
  readonly message?: string
  readonly details?: ReadonlyArray<ErrorDetail>
}

/**
 * Reads a parsed JSON value as a Connect error body: an object with a known `code`, an optional
 * string `message` and an optional array `details` of `{ type, value, debug? }` (strings but
 * `debug`); other keys are dropped. `undefined` when it is not one. `@data-access/schema`'s
 * `ConnectError.ErrorBody` schema accepts exactly these (a test holds them together).
 *
 * @since 0.1.0
 * @category reading
 */
export const readErrorBody: (json: unknown) => ErrorBody | undefined = internal.readErrorBody

/**
 * The rate-limit headers of an answer, as numbers, and the wait it asks for.
 *
 * @since 0.1.0
 * @category models
 */
export interface RateLimitInfo {
  readonly limit?: number
  readonly remaining?: number
  readonly reset?: number
  readonly retryAfterMillis?: number
}

/**
 * Reads `X-Ratelimit-Limit`, `-Remaining`, `-Reset` and the wait of `Retry-After` /
 * `retry-after-ms` (capped, see `Retry.retryAfterMillis`); `undefined` when none is there.
 *
 * @since 0.1.0
 * @category reading
 */
export const readRateLimit: (header: Header, nowMillis: number) => RateLimitInfo | undefined =
  internal.readRateLimit

/**
 * A failed answer as a caller sees it: the fields of a `ConnectError`, and whether its code came
 * from the status alone (no Connect error body, or one whose code is none of the 16: a proxy may
 * have answered). `message` names the operation and the code; `rawMessage` is the body's own.
 *
 * @since 0.1.0
 * @category models
 */
export interface Failure {
  readonly code: CodeTable.Code
  readonly message: string
  readonly details: ReadonlyArray<ErrorDetail>
  readonly httpStatus: number
  readonly operation: string
  readonly requestId?: string
  readonly rateLimit?: RateLimitInfo
  /** The body's message, when the answer carried a Connect error body. */
  readonly rawMessage?: string
  /** The body's code when it is none of the 16; `code` is then the one its status falls back to. */
  readonly rawCode?: string
  readonly statusFallback: boolean
}

/**
 * Reads a Connect error body whose code is a string outside the 16 (a code of a newer protocol, or
 * a server's own): the body with the code its status falls back to, and the code as sent. This is
 * how connect-es and connect-go read such a body; `undefined` when the value is no such body.
 *
 * @since 0.4.0
 * @category reading
 */
export const readUnknownCode: (
  json: unknown,
  status: number
) =>
  | {
      readonly body: ErrorBody
      readonly rawCode: string
    }
  | undefined = internal.readUnknownCode

/**
 * Reads an answer whose status is not 200: the Connect error of its body, or the code its status
 * falls back to (`Code.codeFromStatus`) with a message that says so. A body whose code is none of
 * the 16 keeps its message and details, takes the code of its status and keeps its own in
 * `rawCode`. The message names the operation and the code:
 * `ResourceService/GetResource: [not_found] no such resource`.
 *
 * @since 0.1.0
 * @category reading
 */
export const readFailure: (
  operation: string,
  status: number,
  header: Header,
  text: string,
  nowMillis: number
) => Failure = internal.readFailure

/**
 * Whether an answer is a success (200); every other status is read with `readFailure`.
 *
 * @since 0.1.0
 * @category reading
 */
export const isSuccess: (status: number) => boolean = internal.isSuccess

/**
 * The fields of a `DecodeError` for a 200 whose body is not JSON or does not match its schema; the
 * message names the operation.
 *
 * @since 0.1.0
 * @category reading
 */
export const decodeFailure: (
  operation: string,
  path: string,
  message: string,
  header: Header
) => {
  readonly operation: string
  readonly path: string
  readonly message: string
  readonly httpStatus: number
  readonly requestId?: string
} = internal.decodeFailure

/**
 * What a schema made of a value: the decoded value, or the JSON path and message of its first
 * problem (never the value itself).
 *
 * @since 0.1.0
 * @category models
 */
export type Decoded =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly path: string; readonly message: string }

/**
 * Reads the body of a 200: JSON, then the line's `decode` of the response schema; on a problem,
 * the fields of a `DecodeError` naming its JSON path (`$` when the body is not JSON).
 *
 * @since 0.1.0
 * @category reading
 */
export const readBody: (
  operation: string,
  text: string,
  header: Header,
  decode: (json: unknown) => Decoded
) =>
  | {
      readonly ok: true
      readonly value: unknown
    }
  | {
      readonly ok: false
      readonly failure: ReturnType<typeof decodeFailure>
    } = internal.readBody
