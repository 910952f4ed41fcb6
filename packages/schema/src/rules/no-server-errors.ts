/**
 * The check `no-server-errors` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `no-server-errors`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const noServerErrors = check({
  id: "no-server-errors",
  meaning: "no input, valid or not, gets a 5xx (or a dropped connection)",
  severity: "critical",
  rules: [
    {
      id: "errors.no-internal-for-client-faults",
      must: "A request, valid or not, never gets a 5xx or a dropped connection: bad input is invalid_argument, unknown fields are ignored.",
      source: d(
        "2. Errors",
        "A field breaks a rule of the interface (min length, enum value, `limit` out of range, port range, two variants of a one-of at once, wrong JSON type) | invalid_argument"
      )
    }
  ]
})
