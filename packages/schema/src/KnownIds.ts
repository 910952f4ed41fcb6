/**
 * The ids of objects a server already holds (decisions.md section 9): the interface cannot create
 * them, so a server under test must have them. The reference server writes this file; the
 * contract tests read it to build requests that reference existing objects.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Id, NonEmptyString } from "./Primitives.js"

const ids = Schema.optionalWith(Schema.Array(Id), { default: () => [] })

/**
 * A human user that CreateHumanUserPassword can name by `id`, `email` or `username`.
 *
 * @since 0.1.0
 * @category models
 */
export const KnownUser = Schema.Struct({
  id: Id,
  email: NonEmptyString,
  username: NonEmptyString
}).annotations({ identifier: "KnownUser" })

/**
 * Every list is optional; an absent list is empty.
 *
 * @since 0.1.0
 * @category models
 */
export const KnownIds = Schema.Struct({
  spaces: ids,
  groups: ids,
  users: Schema.optionalWith(Schema.Array(KnownUser), { default: () => [] }),
  resources: ids,
  nativeUsers: ids,
  connectors: ids,
  connectorHostnames: ids,
  connectorListenerLinks: ids,
  sidecarResourceLinks: ids,
  satellites: ids,
  policyStageConfigurations: ids,
  dataCatalogIntegrations: ids,
  mdmIntegrations: ids,
  /** Provider-side key ids (`keyId`) that GetEncryptionKeysByKeyId finds. */
  encryptionKeyIds: ids
}).annotations({ identifier: "KnownIds" })

/**
 * @since 0.1.0
 * @category models
 */
export interface KnownIds extends Schema.Schema.Type<typeof KnownIds> {}

/**
 * Reads a `KnownIds` JSON document.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeJson = Schema.decodeUnknown(Schema.parseJson(KnownIds))
