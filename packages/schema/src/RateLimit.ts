/**
 * The rate-limit headers a response may carry (decisions.md section 2: `X-Ratelimit-Limit`,
 * `X-Ratelimit-Remaining` and `X-Ratelimit-Reset` in Unix seconds). A server need not send them
 * (section 10); the ones it sends say what the contract says they say.
 *
 * The module is `@data-access/core/RateLimit` (no `effect`), re-exported here: both Effect lines read
 * and write the wire through the same code.
 *
 * @since 0.3.0
 */
export * from "@data-access/core/RateLimit"
