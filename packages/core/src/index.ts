/**
 * The effect-free core of the data-access clients: what a call does that is not Effect's, written
 * once for the Effect 3 and Effect 4 lines.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Answer from "./Answer.js"
/** @since 0.1.0 */
export * as Attempts from "./Attempts.js"
/** @since 0.1.0 */
export * as Code from "./Code.js"
/** @since 0.1.0 */
export * as ContentType from "./ContentType.js"
/** @since 0.1.0 */
export * as Deadline from "./Deadline.js"
/** @since 0.1.0 */
export * as Decoder from "./Decoder.js"
/** @since 0.1.0 */
export * as Issue from "./Issue.js"
/** @since 0.1.0 */
export * as Operation from "./Operation.js"
/** @since 0.1.0 */
export * as Paging from "./Paging.js"
/** @since 0.1.0 */
export * as RateLimit from "./RateLimit.js"
/** @since 0.1.0 */
export * as Request from "./Request.js"
/** @since 0.2.0 */
export * as Suggest from "./Suggest.js"
/** @since 0.1.0 */
export * as Retry from "./Retry.js"
/** @since 0.1.0 */
export * as RetryAfter from "./RetryAfter.js"
/** @since 0.1.0 */
export * as Terminal from "./Terminal.js"
/** @since 0.1.0 */
export * as Timeout from "./Timeout.js"
/** @since 0.1.0 */
export * as Timestamp from "./Timestamp.js"
/** @since 0.1.0 */
export * as Transport from "./Transport.js"
