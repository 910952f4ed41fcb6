/**
 * `Retry-After`: how long an answer asks the caller to wait before trying again. A server writes
 * it in seconds with its rate-limit answers (decisions.md section 2: resource_exhausted with
 * `Retry-After` in seconds); a client also reads an HTTP date and the `retry-after-ms` header of
 * some gateways.
 *
 * The module is `@data-access/core/RetryAfter` (no `effect`), re-exported here: both Effect lines read
 * and write the wire through the same code.
 *
 * @since 0.3.0
 */
export * from "@data-access/core/RetryAfter"
