/**
 * The code of the `Collections` module, which re-exports it.
 */
import { Model, Primitives } from "@data-access/schema"
import * as Schema from "effect/Schema"

/**
 * A human user (decisions.md section 9): named by `id`, `email` or `username` in
 * CreateHumanUserPassword. `groupIds` name the groups whose objects the response lists.
 *
 * @since 0.1.0
 * @category models
 */
export const User = Schema.Struct({
  id: Primitives.Id,
  email: Primitives.NonEmptyString,
  username: Primitives.NonEmptyString,
  groupIds: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  createdAt: Primitives.timestamp,
  updatedAt: Primitives.timestamp
}).annotations({ identifier: "User" })

/**
 * @since 0.1.0
 * @category models
 */
export interface User extends Schema.Schema.Type<typeof User> {}

const collection = <S extends Schema.Schema.AnyNoContext>(schema: S, prefix: string) =>
  ({ schema, prefix }) as const

/**
 * Every collection: its object schema and its id prefix.
 *
 * @since 0.1.0
 * @category collections
 */
export const collections = {
  spaces: collection(Model.Space, "space"),
  groups: collection(Model.Group, "group"),
  users: collection(User, "user"),
  resources: collection(Model.Resource, "resource"),
  nativeUsers: collection(Model.NativeUser, "nativeuser"),
  nativeUserIdentityLinks: collection(Model.NativeUserIdentityLink, "identitylink"),
  connectors: collection(Model.Connector, "connector"),
  connectorHostnames: collection(Model.ConnectorHostname, "hostname"),
  connectorListenerLinks: collection(Model.ConnectorListenerLink, "listenerlink"),
  sidecarResourceLinks: collection(Model.SidecarResourceLink, "sidecarlink"),
  satellites: collection(Model.Satellite, "satellite"),
  policyStageConfigurations: collection(Model.PolicyStageConfiguration, "policystage"),
  policyDataLoaders: collection(Model.PolicyDataLoader, "policydataloader"),
  permissions: collection(Model.Permission, "permission"),
  dataDiscoveryConfigurations: collection(Model.DataDiscoveryConfiguration, "discovery"),
  dataCatalogIntegrations: collection(Model.DataCatalogIntegration, "catalog"),
  mdmIntegrations: collection(Model.MdmIntegration, "mdm"),
  biIntegrations: collection(Model.BiIntegration, "bi"),
  encryptionKeys: collection(Model.EncryptionKey, "encryptionkey"),
  logQueries: collection(Model.LogQueryMetadata, "logquery"),
  scenarioMonitors: collection(Model.ScenarioMonitor, "monitor")
} as const

/**
 * @since 0.1.0
 * @category collections
 */
export type Collections = typeof collections

/**
 * A collection name (`satellites`).
 *
 * @since 0.1.0
 * @category collections
 */
export type CollectionName = keyof Collections

/**
 * Every collection name.
 *
 * @since 0.1.0
 * @category collections
 */
export const names = Object.keys(collections) as ReadonlyArray<CollectionName>

/**
 * The collection that holds objects of a schema (an operation's `object`), if any.
 *
 * @since 0.1.0
 * @category collections
 */
export const bySchema = (schema: Schema.Schema.AnyNoContext): CollectionName | undefined =>
  names.find((name) => collections[name].schema === schema)

/**
 * A stored object in its wire (encoded) form, every field written.
 *
 * @since 0.1.0
 * @category models
 */
export type Json = Readonly<Record<string, unknown>>
