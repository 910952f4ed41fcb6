/**
 * The check `error-shape` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `error-shape`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const errorShape = check({
  id: "error-shape",
  meaning:
    "every error is a valid Connect error body whose code and HTTP status agree; an unknown id is not_found; a rate limit carries `Retry-After`; rate-limit headers, when sent, are numbers and a reset in Unix seconds",
  severity: "major",
  rules: [
    {
      id: "errors.connect-body",
      must: "Every non-200 answer (but 405 and 415) carries a Connect error body (`application/json`, no parameter but `charset=utf-8`) with a known `code`; its optional `message` is a string, and each of its optional `details` has a `type` and a base64 `value`.",
      source: d("2. Errors", "Every non-200 response carries a Connect error body")
    },
    {
      id: "errors.status-agrees",
      must: "The HTTP status of an error is the one the Connect mapping gives its code.",
      source: d("2. Errors", "The 16 codes and their HTTP statuses (current Connect mapping)")
    },
    {
      id: "errors.retry-after",
      must: "A rate-limited call (resource_exhausted to a body of at most 1 MiB) carries `Retry-After` in seconds.",
      source: d(
        "2. Errors",
        "| Rate limit reached | resource_exhausted, with `Retry-After` (seconds) |"
      )
    },
    {
      id: "errors.rate-limit-headers",
      must: "`X-Ratelimit-Limit` and `X-Ratelimit-Remaining`, when sent, are whole numbers, and `X-Ratelimit-Reset` a Unix time in seconds.",
      source: d(
        "2. Errors",
        "Responses may carry `X-Ratelimit-Limit`, `X-Ratelimit-Remaining` and `X-Ratelimit-Reset` (Unix seconds)"
      )
    },
    {
      id: "errors.unknown-id",
      must: "A Get or Update whose id names nothing is not_found.",
      source: d(
        "2. Errors",
        "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
      )
    },
    {
      id: "errors.unknown-reference",
      must: "A Create whose referenced id names nothing, or CreateHumanUserPassword for an unknown user, is not_found.",
      source: d(
        "2. Errors",
        "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
      )
    }
  ]
})
