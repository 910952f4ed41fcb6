/**
 * The check `protocol` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `protocol`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const protocol = check({
  id: "protocol",
  meaning:
    "other methods 405 with `Allow: POST`, unknown routes 404 unimplemented, CreatePermission without `Connect-Protocol-Version` invalid_argument, 415 for other content types, bodies up to 1 MiB served, deadlines as Connect says",
  severity: "major",
  rules: [
    {
      id: "protocol.method",
      must: "Another HTTP method than POST is 405 with `Allow: POST`.",
      source: d("1. Wire rules (all operations)", "`405`, with an `Allow: POST` header.")
    },
    {
      id: "protocol.unknown-route",
      must: "An unknown service or method is 404 with the Connect code unimplemented.",
      source: d("1. Wire rules (all operations)", "`404` with Connect code `unimplemented`.")
    },
    {
      id: "protocol.content-type",
      must: "Another content type than `application/json` is 415.",
      source: d("1. Wire rules (all operations)", "| Wrong content type | `415`. |")
    },
    {
      id: "protocol.version-header",
      must: "CreatePermission without `Connect-Protocol-Version: 1` is invalid_argument.",
      source: d(
        "2. Errors",
        "| `Connect-Protocol-Version` missing or not `1` on CreatePermission | invalid_argument |"
      )
    },
    {
      id: "protocol.body-limit",
      must: "A body of up to 1 MiB is not refused for its size; a body refused for its size is resource_exhausted.",
      source: d(
        "10. Latitude: where a faithful server may choose",
        "be any size of at least 1 MiB; above it, resource_exhausted."
      )
    },
    {
      id: "protocol.deadline",
      must: "A call whose `Connect-Timeout-Ms` deadline passes answers deadline_exceeded (or succeeds when it finished first).",
      source: d(
        "2. Errors",
        "| The deadline from `Connect-Timeout-Ms` passed | deadline_exceeded |"
      )
    },
    {
      id: "protocol.deadline-elapsed",
      must: "deadline_exceeded answers only a call whose `Connect-Timeout-Ms` deadline has passed: not one answered well before that time had elapsed.",
      source: d(
        "2. Errors",
        "| The deadline from `Connect-Timeout-Ms` passed | deadline_exceeded |"
      )
    }
  ]
})
