/**
 * `search`, `filter` and `spaceId` of the List operations: the items returned match, and every
 * matching item is returned. Where a faithful server may choose (decisions.md section 10: the case
 * of the string operators, timestamps compared as text or instants), an item passes when some
 * allowed choice explains it; requests stay clear of the other choices (no string operators on
 * times or booleans, timestamps as values of time keys, no `type` key, whose values are not decided).
 * Timestamp values come in every RFC 3339 form of an item's instant (other offsets, nine or fewer
 * fractional digits) and one unit of its precision either side, between two items' times that
 * differ only below the second, and as the whole second an item's time falls in (`:05Z`,
 * `:05.000Z`...): an order compares instants exactly. A selection is also walked one item a page:
 * it applies on every page the cursor leads to. A search term cut from an item's name around a
 * letter beyond ASCII comes with its case swapped: search folds every case, not only A to Z. A
 * term or a value between spaces compares with its spaces.
 */
import type { Family, Suite } from "../../context.js"
import { casingSuite } from "./casing.js"
import { combinedSuite } from "./combined.js"
import { emptyValuesSuite } from "./emptyValues.js"
import { CHECKS } from "./judged.js"
import { operatorsSuite } from "./operators.js"
import { pagedSuite } from "./paged.js"
import { patternsSuite } from "./patterns.js"
import { searchSuite } from "./random.js"
import { spacingSuite } from "./spacing.js"
import { timesSuite } from "./times.js"

export const search: Family = {
  name: "search",
  checks: CHECKS,
  suites: (op, ctx) =>
    [
      searchSuite(op, ctx),
      operatorsSuite(op, ctx),
      emptyValuesSuite(op, ctx),
      patternsSuite(op, ctx),
      combinedSuite(op, ctx),
      pagedSuite(op, ctx),
      timesSuite(op, ctx),
      casingSuite(op, ctx),
      spacingSuite(op, ctx)
    ].filter((s): s is Suite => s !== undefined)
}
