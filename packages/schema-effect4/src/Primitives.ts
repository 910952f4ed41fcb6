/**
 * Primitive schemas of the interface, generated from `@data-access/schema/Primitives`, and
 * `Int64`, the one primitive whose transformation is written per Effect line.
 *
 * @since 0.1.0
 */
export * from "./generated/Primitives.js"
/**
 * A 64-bit integer, read from a JSON string (`"3600"`) or a JSON number, written as a string.
 *
 * @since 0.1.0
 * @category primitives
 */
export { Int64 } from "./internal/fields.js"
