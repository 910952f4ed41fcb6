/**
 * The collection of the store an operation's handler reads and writes.
 *
 * @internal
 */
import * as Collections from "./collections.js"
import type { CollectionName } from "../Collections.js"
import type { Op } from "./pipeline-types.js"

/** The collection an operation reads and writes (none for an operation without one). */
export const collectionOf = (op: Op): CollectionName | undefined => Collections.bySchema(op.object)
