/**
 * Retry policies: any `Schedule` fed with the `ClientError` of the failed attempt. What may be
 * retried at all depends on the operation (see `ClientError.isRetryable`); the policy decides how
 * often and how long to wait. `Retry-After` lengthens the wait.
 *
 * @since 0.1.0
 */
export * from "./internal/retryPolicy.js"
