/**
 * Test layers for code that uses `@data-access/client`.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as DataAccessTest from "./DataAccessTest.js"
