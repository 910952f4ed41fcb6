/**
 * The check `search-filter` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d } from "../internal/ruleText.js"

/**
 * `search-filter`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const searchFilter = check({
  id: "search-filter",
  meaning:
    "`search`, `filter`, `spaceId`, `resourceId` and `keyId` return only (and all) matching items, under any choice a faithful server may make",
  severity: "major",
  rules: [
    {
      id: "search.match",
      must: "`search` returns the items whose `searchFields` contain the term, and only those.",
      source: d(
        "3. Lists",
        "Case-insensitive substring match against the fields named in `searchFields` (default: `name`)."
      )
    },
    {
      id: "search.case-insensitive",
      must: "`search` ignores case, of letters beyond ASCII too (`été` finds `Été`).",
      source: d("3. Lists", "Case-insensitive substring match")
    },
    {
      id: "search.fields",
      must: "`search` looks in the fields named in `searchFields`, `name` when none is named.",
      source: d("3. Lists", "against the fields named in `searchFields` (default: `name`).")
    },
    {
      id: "filter.match",
      must: "`filter` returns the items its conditions match, and only those.",
      source: d("3. Lists", "A filter is either one condition or a group, nestable to any depth")
    },
    {
      id: "filter.group-operator",
      must: "A group `and` needs every filter to match, `or` at least one.",
      source: d(
        "3. Lists",
        'group: `{"group": {"operator": "and" | "or", "filters": [<filter>, ...]}}`'
      )
    },
    {
      id: "filter.time-instants",
      must: "`lower_than` / `greater_than` on `created_at` / `updated_at` compare instants: an RFC 3339 value at another offset, or with more or fewer fractional digits, is the instant it names.",
      source: d(
        "3. Lists",
        "`lower_than` / `greater_than` compare strings, or timestamps for `created_at` / `updated_at`."
      )
    },
    {
      id: "lists.space-scope",
      must: "ListSatellites with `spaceId` returns only the satellites of that space.",
      source: d("3. Lists", "Optional: only satellites of that space.")
    },
    {
      id: "lists.parent-scope",
      must: "ListNativeUsers returns only the native users of the resource its `resourceId` names.",
      source: d(
        "10. Latitude: where a faithful server may choose",
        "A parent id that names nothing in a read (`resourceId` of ListNativeUsers, `keyId` of GetEncryptionKeysByKeyId)"
      )
    },
    {
      id: "keys.by-key-id",
      must: "GetEncryptionKeysByKeyId returns the keys whose provider-side `keyId` is the one sent.",
      source: d(
        "6. Request fields the interface does not show",
        "`keyId` (min 1): the key's provider-side id, not the object id."
      )
    },
    {
      id: "keys.known-key-id",
      must: "GetEncryptionKeysByKeyId with the `keyId` of an existing key returns that key: it looks keys up by their provider-side `keyId`, not by their object id.",
      source: d(
        "6. Request fields the interface does not show",
        "`keyId` (min 1): the key's provider-side id, not the object id."
      )
    }
  ]
})
