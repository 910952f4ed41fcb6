/**
 * The check `timestamps` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, i } from "../internal/ruleText.js"

/**
 * `timestamps`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const timestamps = check({
  id: "timestamps",
  meaning:
    "`createdAt` / `updatedAt` not after the response time (with clock skew), `expiresAt` after it",
  severity: "minor",
  rules: [
    {
      id: "timestamps.past",
      must: "`createdAt` and `updatedAt` are earlier than the time of the response.",
      source: i(
        "What the service does",
        "Every `createdAt` and `updatedAt` value is a timestamp earlier than the time of the response."
      )
    },
    {
      id: "timestamps.expires-future",
      must: "`expiresAt` of a new human user password is later than the time of the response.",
      source: i(
        "Resources and their fields",
        "| expiresAt | timestamp | later than the time of the response |"
      )
    }
  ]
})
