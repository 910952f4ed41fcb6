/**
 * The check `stable-reads` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `stable-reads`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const stableReads = check({
  id: "stable-reads",
  meaning: "a Get returns the object it names, the same twice, and as a List shows it",
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
    },
    {
      id: "reads.list-agrees",
      must: "A List returns its objects as they are: an item of a List and the Get of the same object, read one after the other with no update between, are the same object.",
      source: i(
        "Endpoints",
        "`policyStageConfigurations` (array of PolicyStageConfiguration), `listMetadata`"
      )
    }
  ]
})
