/**
 * The check `invalid-rejected` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `invalid-rejected`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const invalidRejected = check({
  id: "invalid-rejected",
  meaning: "requests breaking one rule of the interface are rejected with invalid_argument",
  severity: "major",
  rules: [
    {
      id: "fields.min-length",
      must: "A string under its min length (1, or 9 for `workerSchedule`) is invalid_argument.",
      source: i("Limits", "| minimum string length 1 | the create-request fields marked above")
    },
    {
      id: "lists.limit-range",
      must: "A `limit` of 0, negative, above 500 or absent is invalid_argument.",
      source: d("3. Lists", "1 to 500; 0, negative, above 500 or absent is invalid_argument.")
    },
    {
      id: "fields.enum",
      must: "A value outside an enum (`status`, `order`, `identityType`, `searchFields`...) is invalid_argument.",
      source: d(
        "2. Errors",
        "A field breaks a rule of the interface (min length, enum value, `limit` out of range, port range, two variants of a one-of at once, wrong JSON type) | invalid_argument"
      )
    },
    {
      id: "fields.json-type",
      must: "A field of the wrong JSON type (a string for a number, a number for a string, a fraction for an int32...) is invalid_argument.",
      source: d(
        "2. Errors",
        "A field breaks a rule of the interface (min length, enum value, `limit` out of range, port range, two variants of a one-of at once, wrong JSON type) | invalid_argument"
      )
    },
    {
      id: "fields.required",
      must: "A required request field that is missing (or `null`) is invalid_argument.",
      source: d(
        "6. Request fields the interface does not show",
        "Request fields (required unless marked optional)"
      )
    },
    {
      id: "fields.one-of",
      must: "CreateHumanUserPassword with none or two of `email`, `username`, `id` is invalid_argument.",
      source: d(
        "6. Request fields the interface does not show",
        "None, or two at once: invalid_argument."
      )
    },
    {
      id: "fields.connector-name",
      must: "A CreateConnector `name` outside 3 to 63 characters of `0-9`, `a-z` and `-` is invalid_argument.",
      source: d(
        "6. Request fields the interface does not show",
        "`name` (3 to 63 characters, `^[0-9a-z-]+$`)"
      )
    },
    {
      id: "wire.empty-body",
      must: "A zero-length body is invalid_argument.",
      source: d(
        "1. Wire rules (all operations)",
        "a zero-length body is rejected (`invalid_argument`)"
      )
    },
    {
      id: "wire.json-object-body",
      must: "A body that is not a JSON object (malformed JSON, an array, a string) is invalid_argument.",
      source: d(
        "1. Wire rules (all operations)",
        "`POST`, `Content-Type: application/json`, body a JSON object."
      )
    },
    {
      id: "lists.unknown-cursor",
      must: "A cursor the server never gave is invalid_argument.",
      source: d("3. Lists", "An unknown cursor is invalid_argument.")
    },
    {
      id: "filter.unknown-key",
      must: "A filter with an unknown `key` or `operator` is invalid_argument.",
      source: d("3. Lists", "An unknown key or operator is invalid_argument.")
    },
    {
      id: "filter.group-not-empty",
      must: "A filter group with no filters is invalid_argument.",
      source: d("3. Lists", "(at least one)")
    },
    {
      id: "filter.one-of",
      must: "A filter (at any depth) with both a condition (`field`) and a group is invalid_argument.",
      source: d("3. Lists", "A filter is either one condition or a group, nestable to any depth")
    }
  ]
})
