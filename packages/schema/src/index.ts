/**
 * The contract of the data-access management API as Effect Schemas.
 *
 * @since 0.1.0
 */

/**
 * @since 0.1.0
 * @category modules
 */
export * as ConnectError from "./ConnectError.js"
/**
 * @since 0.3.0
 * @category modules
 */
export * as ContentType from "./ContentType.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as ContractChecks from "./ContractChecks.js"
/**
 * @since 0.2.0
 * @category modules
 */
export * as ContractRules from "./ContractRules.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Deadline from "./Deadline.js"
/**
 * @since 0.4.0
 * @category modules
 */
export * as Decode from "./Decode.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Filter from "./Filter.js"
/**
 * @since 0.3.0
 * @category modules
 */
export * as JsonBody from "./JsonBody.js"
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
export * as OpenApi from "./OpenApi.js"
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
export * as ProtoJson from "./ProtoJson.js"
/**
 * @since 0.3.0
 * @category modules
 */
export * as RateLimit from "./RateLimit.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Requests from "./Requests.js"
/**
 * @since 0.3.0
 * @category modules
 */
export * as RetryAfter from "./RetryAfter.js"
/**
 * @since 0.3.0
 * @category modules
 */
export * as Secrets from "./Secrets.js"
/**
 * @since 0.4.0
 * @category modules
 */
export * as SchemaWalk from "./SchemaWalk.js"
/**
 * @since 0.1.0
 * @category modules
 */
export * as Timestamp from "./Timestamp.js"
