/**
 * The operation table: one entry per operation of the interface, generated from
 * `@data-access/schema/Operations` (service, method, path, kind, request and response schemas,
 * wrapper key, item field, retry safety, required headers). The client's methods are computed
 * from it.
 *
 * @since 0.1.0
 */
export * from "./generated/internal/operations.js"
