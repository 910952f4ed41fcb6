/**
 * The reference server of the data-access management API.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Collections from "./Collections.js"
/** @since 0.1.0 */
export * as Faults from "./Faults.js"
/** @since 0.1.0 */
export * as Fixtures from "./Fixtures.js"
/** @since 0.2.0 */
export * as Latitude from "./Latitude.js"
/** @since 0.1.0 */
export * as ReferenceServer from "./ReferenceServer.js"
/** @since 0.1.0 */
export * as Store from "./Store.js"
