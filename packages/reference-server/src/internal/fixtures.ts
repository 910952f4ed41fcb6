/**
 * The code of the `Fixtures` module, which re-exports it.
 */
import { KnownIds, Model } from "@data-access/schema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Collections from "./collections.js"
import type { CollectionName, Json } from "./collections.js"

const many = <S extends Schema.Schema.AnyNoContext>(schema: S) =>
  Schema.optionalWith(Schema.Array(schema), { default: () => [] })

/**
 * The fixtures file: every key optional, every value an array of objects in wire form.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Fixtures = Schema.Struct({
  spaces: many(Model.Space),
  groups: many(Model.Group),
  users: many(Collections.User),
  resources: many(Model.Resource),
  nativeUsers: many(Model.NativeUser),
  nativeUserIdentityLinks: many(Model.NativeUserIdentityLink),
  connectors: many(Model.Connector),
  connectorHostnames: many(Model.ConnectorHostname),
  connectorListenerLinks: many(Model.ConnectorListenerLink),
  sidecarResourceLinks: many(Model.SidecarResourceLink),
  satellites: many(Model.Satellite),
  policyStageConfigurations: many(Model.PolicyStageConfiguration),
  policyDataLoaders: many(Model.PolicyDataLoader),
  permissions: many(Model.Permission),
  dataDiscoveryConfigurations: many(Model.DataDiscoveryConfiguration),
  dataCatalogIntegrations: many(Model.DataCatalogIntegration),
  mdmIntegrations: many(Model.MdmIntegration),
  biIntegrations: many(Model.BiIntegration),
  encryptionKeys: many(Model.EncryptionKey),
  logQueries: many(Model.LogQueryMetadata),
  scenarioMonitors: many(Model.ScenarioMonitor)
}).annotations({ identifier: "Fixtures" })

/**
 * Decoded fixtures: timestamps are `Timestamp`s and secrets `Redacted`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Fixtures extends Schema.Schema.Type<typeof Fixtures> {}

/**
 * Fixtures where every collection may be left out.
 *
 * @since 0.1.0
 * @category models
 */
export type FixturesInput = { readonly [K in keyof Fixtures]?: Fixtures[K] }

/**
 * Reads a fixtures JSON document (the text of a fixtures file).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeJson = Schema.decodeUnknown(Schema.parseJson(Fixtures), { errors: "all" })

/**
 * Reads fixtures from an unknown JSON value.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeUnknown = Schema.decodeUnknown(Fixtures, { errors: "all" })

const encoders = Object.fromEntries(
  Collections.names.map((name) => [
    name,
    Schema.encodeSync(Collections.collections[name].schema as Schema.Schema<unknown, unknown>)
  ])
) as Record<CollectionName, (u: unknown) => unknown>

/**
 * Encodes one collection's decoded objects to their wire form, every field written.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encodeObjects = (
  collection: CollectionName,
  objects: ReadonlyArray<unknown>
): ReadonlyArray<Json> => objects.map((o) => encoders[collection](o) as Json)

/**
 * Encodes fixtures to the wire form of each collection.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (
  fixtures: FixturesInput
): ReadonlyArray<readonly [CollectionName, ReadonlyArray<Json>]> =>
  Collections.names.flatMap((name) => {
    const objects = fixtures[name] as ReadonlyArray<unknown> | undefined
    return objects === undefined ? [] : [[name, encodeObjects(name, objects)] as const]
  })

/**
 * The ids a store holds, in the `KnownIds` format the contract tests read.
 *
 * @since 0.1.0
 * @category known ids
 */
export const knownIdsOf = (
  all: (collection: CollectionName) => ReadonlyArray<Json>
): KnownIds.KnownIds => {
  const ids = (c: CollectionName) => all(c).map((o) => String(o.id))
  const keyIds = all("encryptionKeys").map((k) => String(k.keyId))
  return {
    spaces: ids("spaces"),
    groups: ids("groups"),
    users: all("users").map((u) => ({
      id: String(u.id),
      email: String(u.email),
      username: String(u.username)
    })),
    resources: ids("resources"),
    nativeUsers: ids("nativeUsers"),
    connectors: ids("connectors"),
    connectorHostnames: ids("connectorHostnames"),
    connectorListenerLinks: ids("connectorListenerLinks"),
    sidecarResourceLinks: ids("sidecarResourceLinks"),
    satellites: ids("satellites"),
    policyStageConfigurations: ids("policyStageConfigurations"),
    dataCatalogIntegrations: ids("dataCatalogIntegrations"),
    mdmIntegrations: ids("mdmIntegrations"),
    // An empty keyId is never sent (GetEncryptionKeysByKeyId's keyId has min length 1); the filter
    // keeps the --write-ids file valid.
    encryptionKeyIds: [...new Set(keyIds.filter((k) => k !== ""))]
  }
}

/**
 * Writes `KnownIds` as JSON text.
 *
 * @since 0.1.0
 * @category known ids
 */
export const knownIdsJson = (ids: KnownIds.KnownIds): Effect.Effect<string> =>
  Schema.encode(Schema.parseJson(KnownIds.KnownIds, { space: 2 }))(ids).pipe(Effect.orDie)
