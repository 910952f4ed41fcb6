/**
 * The check `response-schema` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `response-schema`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const responseSchema = check({
  id: "response-schema",
  meaning:
    "responses match the schemas strictly (types, enums, ranges, required fields, timestamps with `Z`), reported with the JSON path",
  severity: "major",
  rules: [
    {
      id: "response.schema",
      must: "A success body has the operation's wrapper and fields with their types, enum values and ranges; `id` and min-length-1 fields are present.",
      source: d(
        "1. Wire rules (all operations)",
        "Fields that the interface marks min length 1 (and `id` everywhere) are always present."
      )
    },
    {
      id: "response.field-types",
      must: "Every field of a response has its JSON type: strings, booleans, int32 numbers, objects, arrays.",
      source: i(
        "Resources and their fields",
        "Types: string, boolean, integer, timestamp (RFC 3339 string), object, array."
      )
    },
    {
      id: "timestamps.utc-z",
      must: "Timestamps in responses are RFC 3339 in UTC with the suffix `Z`.",
      source: i(
        "What the service does",
        "A parser accepts other offsets; a serializer always writes `Z`."
      )
    },
    {
      id: "timestamps.fraction-digits",
      must: "Timestamps in responses have 0, 3, 6 or 9 fractional digits.",
      source: d("1. Wire rules (all operations)", "Writers emit 0, 3, 6 or 9 fractional digits.")
    },
    {
      id: "int64.as-string",
      must: "`relativeTime` (int64) is written as a JSON string.",
      source: d(
        "1. Wire rules (all operations)",
        '`relativeTime` (saved log query) is int64: written as a JSON string (`"3600"`)'
      )
    },
    {
      id: "wire.output-camel-case",
      must: "Response field names are lowerCamelCase, never the snake_case form.",
      source: d("1. Wire rules (all operations)", "Output is always lowerCamelCase.")
    }
  ]
})
