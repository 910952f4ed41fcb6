/**
 * Renders a request as a `curl` command a user can paste. The API key is never written: the
 * command reads it from `$DATA_ACCESS_API_KEY`, and secret fields of the body are shown as
 * `[redacted]`.
 *
 * @since 0.1.0
 */
export * from "./internal/curl.js"
