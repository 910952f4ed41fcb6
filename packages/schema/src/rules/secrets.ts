/**
 * The check `secrets` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `secrets`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const secrets = check({
  id: "secrets",
  meaning: "no error body carries the value of a secret field that was sent",
  severity: "critical",
  rules: [
    {
      id: "secrets.not-in-errors",
      must: "No error message or body carries the value of a secret field of the request.",
      source: d("8. Secrets", "no log line, span attribute, error message or report may print them")
    },
    {
      id: "secrets.key-not-in-errors",
      must: "No error message or body carries the `X-API-KEY` the request sent (a wrong key included).",
      source: d(
        "8. Secrets",
        "no log line, span attribute, error message or report may print them: the `X-API-KEY` header"
      )
    }
  ]
})
