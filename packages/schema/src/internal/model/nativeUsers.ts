/** The objects of `Model`: native users and identity links. */
import * as Schema from "effect/Schema"
import { bool, nested, Id, secret, str, timestamp } from "../primitives.js"
import { Group } from "./shared.js"

/**
 * @since 0.1.0
 * @category models
 */
export const NativeUserBasic = Schema.Struct({
  username: str,
  usernameIsEnv: bool,
  password: secret,
  passwordIsEnv: bool
}).annotations({ identifier: "NativeUserBasic" })

/**
 * A native user of a resource. `username` and `secret` are the old V1 fields; `basic` is the
 * newer form.
 *
 * @since 0.1.0
 * @category models
 */
export const NativeUser = Schema.Struct({
  basic: nested(NativeUserBasic),
  id: Id,
  resourceId: str,
  username: str,
  secret: secret,
  useAsDefault: bool,
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "NativeUser" })
/**
 * @since 0.1.0
 * @category models
 */
export interface NativeUser extends Schema.Schema.Type<typeof NativeUser> {}

/**
 * An identity the interface does not describe (the `user` and `resourceHostname` of an identity
 * link): any JSON object.
 *
 * @since 0.1.0
 * @category models
 */
export const OpaqueObject = Schema.Record({
  key: Schema.String,
  value: Schema.Unknown
}).annotations({
  identifier: "OpaqueObject",
  // As a proto3 JSON writer sends it: no zero values (`""`, `0`, `false`).
  arbitrary: () => (fc) =>
    fc.dictionary(
      fc.stringMatching(/^[a-z][a-zA-Z]{0,8}$/),
      fc.oneof(
        fc.string({ minLength: 1 }),
        fc.integer().filter((n) => n !== 0),
        fc.constant(true)
      ),
      { maxKeys: 4 }
    )
})

/**
 * @since 0.1.0
 * @category models
 */
export const NativeUserIdentityLink = Schema.Struct({
  id: Id,
  group: nested(Group),
  user: nested(OpaqueObject),
  resourceHostname: nested(OpaqueObject),
  nativeUser: nested(NativeUser),
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "NativeUserIdentityLink" })
/**
 * @since 0.1.0
 * @category models
 */
export interface NativeUserIdentityLink extends Schema.Schema.Type<typeof NativeUserIdentityLink> {}
