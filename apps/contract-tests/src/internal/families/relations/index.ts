/**
 * Relations between operations, and the edge states of a list, that generated single requests
 * never reach. Each is a general rule over the operation table (kinds, objects, parents):
 *
 * - **created**: what a create makes is in the Lists of its kind (found by its id, the whole object
 *   equal to what the create returned, zero values and secret fields aside), found by a `search`
 *   and a `filter` on its name, and returned by the Get of its kind;
 * - **updated**: what an update changes shows in the Lists of its kind (the whole object, its new
 *   `updatedAt` included), and their `search`, `filter` and parent scope select the object by the
 *   new value, never by the old one;
 * - **edges**: walks that end on a full page, one short of a full page, one item a page, and on no
 *   items (a search or a filter that matches nothing, a parent with no items).
 *
 * Creates count against `--creates-per-operation` (`relationCreates`); `--read-only` skips the
 * suites that write. Updates put back what they changed.
 */
import type { Family, Suite } from "../../context.js"
import { createdSuite } from "./created.js"
import { edgesSuite } from "./edges.js"
import { keyedSuite } from "./keyed.js"
import { updatedSuite } from "./updated.js"

export const relations: Family = {
  name: "relations",
  checks: ["create-echo", "search-filter", "update-semantics", "paging"],
  suites: (op, ctx) =>
    [createdSuite(op, ctx), updatedSuite(op, ctx), edgesSuite(op, ctx), keyedSuite(op, ctx)].filter(
      (s): s is Suite => s !== undefined
    )
}
