/**
 * The check `update-semantics` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `update-semantics`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const updateSemantics = check({
  id: "update-semantics",
  meaning:
    "only sent fields change, `updatedAt` moves forward, a later read shows the change; the Lists show the updated object whole and select it by its new values, not its old ones; every answer shows an object the run wrote as its writes left it",
  severity: "major",
  rules: [
    {
      id: "updates.apply",
      must: "An update changes the fields it sends, and a later read shows the change.",
      source: d("4. Updates", "Update requests change only the fields present in the request")
    },
    {
      id: "updates.false-applied",
      must: "A boolean sent as `false` in an update is present, not unset: the field becomes false.",
      source: d(
        "4. Updates",
        "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
      )
    },
    {
      id: "updates.partial",
      must: "An update leaves every field it does not send as it is.",
      source: d(
        "4. Updates",
        "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
      )
    },
    {
      id: "updates.null-unchanged",
      must: "A field sent as `null` in an update stays as it is.",
      source: d("4. Updates", "absent or `null` leaves a field as it is.")
    },
    {
      id: "updates.references",
      must: "An update returns the objects its sent ids name: the nested `<x>` beside a sent `<x>Id` (UpdateSatellite's `space`) is the object with that id, or left out.",
      source: i(
        "Endpoints",
        "Create and update responses return the complete object wrapped under the key shown in the table."
      )
    },
    {
      id: "updates.stored",
      must: "What an update returns is what later reads show.",
      source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward.")
    },
    {
      id: "updates.updated-at",
      must: "An update moves `updatedAt` forward.",
      source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward.")
    },
    {
      id: "updates.listed",
      must: "After an update, the Lists that hold the object show it as the update returned it (`updatedAt` included), and their `search`, `filter` and parent scope select it by its new values, not by its old ones.",
      source: d("4. Updates", "An update returns the whole object and moves `updatedAt` forward.")
    },
    {
      id: "updates.model",
      must: "Every answer that shows an object the run created or wrote (a create's or an update's answer, a Get, a List item) shows it as the run's writes left it: a field changes only by a write that sends it (`updatedAt` by any write; fields no request sets may change on their own), an update's or create's answer is the complete object (a field a later read shows, with no write between, is in it), and two answers with no write between agree.",
      source: d(
        "4. Updates",
        "Update requests change only the fields present in the request; absent or `null` leaves a field as it is."
      )
    }
  ]
})
