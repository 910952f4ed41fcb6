/**
 * Request schemas of the 22 operations, generated from `@data-access/schema/Requests`. Optional
 * fields accept `null` as "not set".
 *
 * @since 0.1.0
 */
export * from "./generated/Requests.js"
