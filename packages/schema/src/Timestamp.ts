/**
 * Exact RFC 3339 timestamps with nanosecond precision.
 *
 * A JS `Date` keeps milliseconds only, so a `Timestamp` keeps the whole seconds since the Unix
 * epoch and the nanoseconds within that second, like `google.protobuf.Timestamp`. Its range is
 * `0001-01-01T00:00:00Z` to `9999-12-31T23:59:59.999999999Z`.
 *
 * @since 0.1.0
 */
export * from "./internal/timestamp.js"
export * from "./internal/timestampSchemas.js"
