/**
 * Property-based contract tests of the data-access management API, against any base URL or the
 * embedded reference server.
 *
 * @since 0.1.0
 */

/** @since 0.2.0 */
export * as Baseline from "./Baseline.js"
/** @since 0.1.0 */
export * as Checks from "./Checks.js"
/** @since 0.1.0 */
export * as Cli from "./Cli.js"
/** @since 0.1.0 */
export * as ContractTests from "./ContractTests.js"
/** @since 0.1.0 */
export * as Curl from "./Curl.js"
/** @since 0.1.0 */
export * as Embedded from "./Embedded.js"
/** @since 0.5.0 */
export * as Har from "./Har.js"
/** @since 0.6.0 */
export * as Hooks from "./Hooks.js"
/** @since 0.1.0 */
export * as Mutations from "./Mutations.js"
/** @since 0.3.0 */
export * as Proxy from "./Proxy.js"
/** @since 0.1.0 */
export * as ReplayId from "./ReplayId.js"
/** @since 0.1.0 */
export * as Report from "./Report.js"
