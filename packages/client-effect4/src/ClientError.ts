/**
 * The errors of every call: `ConnectError` (the service answered an error), `TransportError`,
 * `TimeoutError`, `DecodeError`, `InvalidRequestError`, and `CursorRepeatedError` for paging
 * streams. Each is a `Schema.TaggedError` with `isRetryable`. Generated from
 * `@data-access/client`'s `ClientError.ts` (see `scripts/generate.mjs`).
 *
 * @since 0.1.0
 */
export * from "./generated/ClientError.js"
