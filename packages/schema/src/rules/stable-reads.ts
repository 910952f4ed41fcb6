/**
 * The check `stable-reads` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `stable-reads`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const stableReads = check({
  id: "stable-reads",
  meaning: "a Get returns the object it names, the same twice",
  severity: "minor",
  rules: [
    {
      id: "reads.named-object",
      must: "A Get returns the object its id names.",
      source: d(
        "2. Errors",
        "An id that names nothing (Get, Update, or a referenced id on Create) | not_found"
      )
    },
    {
      id: "reads.stable",
      must: "Reading an object changes nothing: two Gets with no update between return the same object.",
      source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward.")
    }
  ]
})
