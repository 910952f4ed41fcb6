/**
 * The Effect 4 client of the data-access management API.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as ClientError from "./ClientError.js"
/** @since 0.1.0 */
export * as DataAccessClient from "./DataAccessClient.js"
/** @since 0.1.0 */
export * as Paging from "./Paging.js"
/** @since 0.1.0 */
export * as RetryPolicy from "./RetryPolicy.js"
/** @since 0.1.0 */
export * as Services from "./Services.js"
