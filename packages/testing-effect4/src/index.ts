/**
 * Test layers for Effect 4 code that uses `@data-access/client-effect4`.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as DataAccessTest from "./DataAccessTest.js"
/** @since 0.1.0 */
export * as ReferenceServerProcess from "./ReferenceServerProcess.js"
