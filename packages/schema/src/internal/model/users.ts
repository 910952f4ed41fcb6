/** The objects of `Model`: users. */
import * as Schema from "effect/Schema"
import { array, NonEmptyString, NonEmptySecret } from "../primitives.js"
import { TimestampString } from "../timestampSchemas.js"
import { Group } from "./shared.js"

/**
 * The response of CreateHumanUserPassword: the fields sit at the top level of the response.
 *
 * @since 0.1.0
 * @category models
 */
export const HumanUserPassword = Schema.Struct({
  password: NonEmptySecret,
  username: NonEmptyString,
  groups: array(Group),
  expiresAt: TimestampString,
  createdAt: TimestampString
}).annotations({ identifier: "HumanUserPassword" })
/**
 * @since 0.1.0
 * @category models
 */
export interface HumanUserPassword extends Schema.Schema.Type<typeof HumanUserPassword> {}
