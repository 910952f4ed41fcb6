/**
 * The contract of the data-access management API as Effect 4 Schemas, generated from
 * `@data-access/schema` (the Effect 3 line).
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 * @category modules
 */
export * as ConnectError from "./ConnectError.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Filter from "./Filter.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as KnownIds from "./KnownIds.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Model from "./Model.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Operations from "./Operations.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Primitives from "./Primitives.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Requests from "./Requests.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Timestamp from "./Timestamp.js"
