/**
 * The check `auth` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `auth`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const auth = check({
  id: "auth",
  meaning: "a missing, empty or wrong key is unauthenticated on every operation",
  severity: "critical",
  rules: [
    {
      id: "auth.key-required",
      must: "A missing, empty or unknown `X-API-KEY` is unauthenticated (401) on every operation.",
      source: d("2. Errors", "| `X-API-KEY` missing, empty, or not a known key | unauthenticated |")
    }
  ]
})
