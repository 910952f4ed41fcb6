/**
 * The check `paging` and the rules it tests, each quoted from the documents.
 *
 * @since 0.5.0
 */
import { check, d, i } from "../internal/ruleText.js"

/**
 * `paging`: its meaning, severity and rules.
 *
 * @since 0.5.0
 * @category rules
 */
export const paging = check({
  id: "paging",
  meaning:
    "`count` equals the items and never exceeds `limit`; walking all pages returns every item once and ends; `nextCursor`, `after` / `before` and `order` as decided",
  severity: "major",
  rules: [
    {
      id: "lists.count",
      must: "`listMetadata.count` is the number of items in the page.",
      source: d("3. Lists", "| `listMetadata.count` | Number of items in this page. |")
    },
    {
      id: "lists.limit-respected",
      must: "A page holds at most `limit` items.",
      source: i("Endpoints", "| limit | integer (int32) | at most 500 |")
    },
    {
      id: "lists.walk-once",
      must: "Walking every page once yields every item exactly once, and ends.",
      source: d("3. Lists", "walking every page once yields every item exactly once")
    },
    {
      id: "lists.walk-complete",
      must: "Walking the pages misses no item.",
      source: d(
        "3. Lists",
        "Paging walks a stable snapshot order: walking every page once yields every item exactly once"
      )
    },
    {
      id: "lists.next-cursor",
      must: "`nextCursor` is set when more items follow, and empty or absent on the last page (an empty page included); a full page may carry one that leads to an empty page ending the walk, since that page, not the full one, can be read as the last.",
      source: d("3. Lists", "Set when more items follow; empty or absent on the last page.")
    },
    {
      id: "lists.empty-page",
      must: "An empty page (a `search`, `filter` or parent that selects nothing, or the end of a walk) carries no `nextCursor`: no items follow it.",
      source: d("3. Lists", "Set when more items follow; empty or absent on the last page.")
    },
    {
      id: "lists.after-before",
      must: "`after` / `before` are the ids of the last / first item of the page.",
      source: d(
        "3. Lists",
        "The id of the last / first item in this page (empty when the page is empty)."
      )
    },
    {
      id: "lists.order",
      must: "Items that carry `createdAt` come by `createdAt`, ascending unless `order` is `desc`, and ties by `id` (ascending under `asc`; under `desc` either way, one way throughout; ids are opaque: they order only ties).",
      source: d("3. Lists", "`asc` or `desc` (by `createdAt`, ties by `id`); absent means `asc`.")
    }
  ]
})
