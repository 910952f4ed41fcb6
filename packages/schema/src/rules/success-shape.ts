/**
 * The check `success-shape` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `success-shape`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const successShape = check({
  id: "success-shape",
  meaning: "success is 200 with `application/json` and a JSON object body",
  severity: "major",
  rules: [
    {
      id: "wire.success",
      must: "A success is HTTP 200 with `Content-Type: application/json` (no parameter but `charset=utf-8`, the only one Connect clients read) and a JSON object body.",
      source: d(
        "1. Wire rules (all operations)",
        "HTTP 200, `Content-Type: application/json`, body the response object."
      )
    }
  ]
})
