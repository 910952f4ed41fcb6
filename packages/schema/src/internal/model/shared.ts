/** The objects of `Model`: shared. */
import * as Schema from "effect/Schema"
import { bool, Id, int, str, timestamp } from "../primitives.js"

/**
 * `listMetadata` of every List response (decisions.md section 3).
 *
 * @since 0.1.0
 * @category models
 */
export const ListMetadata = Schema.Struct({
  after: str,
  before: str,
  // An int32 on the wire, like every integer but `relativeTime` (decisions.md section 1).
  count: int(
    Schema.Int.pipe(
      Schema.between(0, 2147483647, { message: () => "must be a non-negative int32" })
    ).annotations({ identifier: "NonNegativeInt32" })
  ),
  nextCursor: str
}).annotations({ identifier: "ListMetadata" })
/**
 * @since 0.1.0
 * @category models
 */
export interface ListMetadata extends Schema.Schema.Type<typeof ListMetadata> {}

/**
 * @since 0.1.0
 * @category models
 */
export const Space = Schema.Struct({
  id: Id,
  name: str,
  description: str,
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "Space" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Space extends Schema.Schema.Type<typeof Space> {}

/**
 * @since 0.1.0
 * @category models
 */
export const Group = Schema.Struct({
  id: Id,
  name: str,
  description: str,
  dsyncGroupId: str,
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "Group" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Group extends Schema.Schema.Type<typeof Group> {}
