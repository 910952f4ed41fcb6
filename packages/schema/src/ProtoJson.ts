/**
 * proto3 JSON conventions around the schemas: snake_case field names accepted on input, zero
 * values left out on output, and a nesting limit for untrusted input.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/protoJson.js"

/**
 * Deepest nesting of objects and arrays accepted in a request body.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_DEPTH: 64 = internal.MAX_DEPTH

/**
 * One snake_case key in lowerCamelCase (`space_id` to `spaceId`), as proto3 JSON names a field;
 * a key without `_` is returned as it is.
 *
 * @since 0.6.0
 * @category input
 */
export const snakeToCamel: (key: string) => string = internal.snakeToCamel

/**
 * Renames snake_case keys to lowerCamelCase at every level (`resource_id` to `resourceId`),
 * keeping a lowerCamelCase key when both forms are present. Returns `undefined` when the value is
 * nested deeper than `MAX_DEPTH`. Keys such as `__proto__` stay plain data properties.
 *
 * @since 0.1.0
 * @category input
 */
export const normalizeKeys: (value: unknown, depth?: number) => unknown = internal.normalizeKeys

/**
 * Fields with explicit presence (`string or null` in the interface): `""` is a set value there,
 * distinct from absent (`null`), so `omitZeroValues` keeps it. Only DataDiscoveryConfiguration
 * `path` is one.
 *
 * @since 0.1.0
 * @category output
 */
export const presenceFields: ReadonlySet<string> = internal.presenceFields

/**
 * Removes the fields whose value is a zero value (`false`, `""`, `0`, `[]`, `null`) at every
 * level, as a proto3 JSON writer does. Objects inside arrays keep their place. A `""` in one of
 * the `presenceFields` is kept: it is set, not absent.
 *
 * @since 0.1.0
 * @category output
 */
export const omitZeroValues: (value: unknown) => unknown = internal.omitZeroValues

/**
 * The lowerCamelCase to snake_case rename (`resourceId` to `resource_id`), for filter keys
 * and tests that send snake_case.
 *
 * @since 0.1.0
 * @category input
 */
export const camelToSnake: (key: string) => string = internal.camelToSnake
