/**
 * The errors of every client method: a tagged union callers handle with `Effect.catchTag`.
 *
 * - `ConnectError` (from `@data-access/schema`): the service answered with a Connect error, or with
 *   a non-200 status and no Connect error body (the code then follows decisions.md section 2).
 * - `TransportError`: no HTTP response arrived (connection refused, reset, TLS failure...).
 * - `TimeoutError`: a per-attempt timeout or the overall deadline ran out.
 * - `DecodeError`: a response did not match the schema; names the JSON path.
 * - `InvalidRequestError`: the request broke a rule of the interface and was not sent.
 * - `CursorRepeatedError`: a paging stream saw the same cursor twice.
 *
 * Each names its operation (`ResourceService/GetResource`) in its `operation` field and at the start
 * of its message. `catchCodes` handles `ConnectError`s by code. None of them prints a secret:
 * messages and paths come from the client, never from a secret value.
 *
 * @since 0.1.0
 */
export * from "./internal/clientError.js"
