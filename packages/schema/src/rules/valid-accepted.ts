/**
 * The check `valid-accepted` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `valid-accepted`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const validAccepted = check({
  id: "valid-accepted",
  meaning:
    "valid generated requests (also with unknown fields, referencing existing objects) are accepted with 200, never rejected",
  severity: "major",
  rules: [
    {
      id: "wire.unknown-fields-ignored",
      must: "Unknown request fields are ignored, not rejected.",
      source: d(
        "1. Wire rules (all operations)",
        "Ignored by the server (proto3 JSON discards unknown fields)."
      )
    },
    {
      id: "wire.snake-case",
      must: "Request field names are accepted in lowerCamelCase and in snake_case.",
      source: d(
        "1. Wire rules (all operations)",
        "lowerCamelCase; a server also accepts the snake_case form (`resource_id`)."
      )
    },
    {
      id: "wire.null-is-unset",
      must: "`null` for a request field means not set, as if it were absent.",
      source: d("1. Wire rules (all operations)", 'Means "not set", the same as an absent field.')
    },
    {
      id: "wire.json-spellings",
      must: "A body is read as the JSON value it spells: escapes (`\\u0061` for `a`, `\\/` for `/`) and whitespace between tokens change nothing, so the request is accepted and answered as its plainest spelling is.",
      source: d(
        "1. Wire rules (all operations)",
        "`POST`, `Content-Type: application/json`, body a JSON object."
      )
    },
    {
      id: "wire.zero-is-unset",
      must: 'An optional request field sent as its zero value (`""`, `false`, `0`, `[]`) is read as the field left out, where the two mean the same (not in an update, whose absent fields stay as they are): the request is accepted and answered as without it.',
      source: d(
        "1. Wire rules (all operations)",
        "Readers treat an absent field as its zero value."
      )
    },
    {
      id: "fields.valid-accepted",
      must: "A request that keeps every rule (optional fields left out or set to any allowed value) is accepted with 200.",
      source: i(
        "Endpoints",
        "The success response is described as Success; its body is a single wrapper object as listed in the table."
      )
    },
    {
      id: "lists.limit-accepted",
      must: "Every `limit` from 1 to 500 is accepted.",
      source: d("3. Lists", "1 to 500; 0, negative, above 500 or absent is invalid_argument.")
    }
  ]
})
