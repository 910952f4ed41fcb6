/**
 * The operation table itself, as Effect 3 schemas, with the types of an entry. Re-exported by
 * `../Operations.ts`, which adds what is computed from it.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import * as Model from "./model/index.js"
import { array } from "./primitives.js"
import * as Req from "./requests.js"

/**
 * `get` and `list` read; `create` and `update` write.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = "get" | "list" | "create" | "update"

/**
 * The Connect package every operation lives in.
 *
 * @since 0.1.0
 * @category constants
 */
export const PACKAGE = "core.v1"

/**
 * A List scoped to a parent: the request field that names the parent object, which each listed
 * item carries under the same name.
 *
 * @since 0.2.0
 * @category models
 */
export interface Parent {
  /** The request field (`resourceId`), and the field of each item that holds the same id. */
  readonly field: string
  /** The schema of the parent object. */
  readonly object: Schema.Schema.AnyNoContext
  /**
   * Whether the request must name a parent (ListNativeUsers' `resourceId`); when optional
   * (ListSatellites' `spaceId`), leaving it out or sending `""` lists every item.
   */
  readonly required: boolean
}

/**
 * A reference whose kind a second request field names (`identityId` and `identityType`).
 *
 * @since 0.2.0
 * @category models
 */
export interface KindedReference {
  /** The field holding the id (`identityId`). */
  readonly field: string
  /** The field naming the kind of object it names (`identityType`). */
  readonly kindField: string
}

/**
 * One operation of the interface.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operation<
  Service extends string = string,
  Method extends string = string,
  K extends Kind = Kind,
  Request extends Schema.Schema.AnyNoContext = Schema.Schema.AnyNoContext,
  Response extends Schema.Schema.Any = Schema.Schema.AnyNoContext
> {
  /** The service, without the package (`ResourceService`). */
  readonly service: Service
  /** The method (`GetResource`). */
  readonly method: Method
  /** `/core.v1.<Service>/<Method>`, appended to the base URL. */
  readonly path: `/core.v1.${Service}/${Method}`
  readonly kind: K
  readonly request: Request
  readonly response: Response
  /** The key the response wraps its object (or its array, for a non-paged read) under; `undefined` when the fields sit at the top level. */
  readonly wrapperKey: string | undefined
  /** For List operations: the response field that holds the page's items. */
  readonly itemField: string | undefined
  /** The object schema the operation returns (the item of a List). */
  readonly object: Schema.Schema.AnyNoContext
  /** Whether a retry can never act twice: reads are safe, creates and updates are not. */
  readonly safeToRetry: boolean
  /** Headers the operation requires beyond `X-API-KEY` and `Content-Type`. */
  readonly requiredHeaders: Readonly<Record<string, string>>
  /**
   * For a Get that finds objects by another field than `id`: that field, of the request and of
   * the objects (`keyId`). The response holds every object that matches, maybe none.
   */
  readonly lookupKey: string | undefined
  /** For a List scoped to a parent object: the field that names it. */
  readonly parent: Parent | undefined
  /**
   * Request fields that name other objects by id (`spaceId`); a create or update whose reference
   * names nothing is not_found (decisions.md section 2).
   */
  readonly references: ReadonlyArray<string>
  /** A reference whose kind another field names (CreateNativeUserIdentityLink's `identityId`). */
  readonly kindedReference: KindedReference | undefined
  /**
   * Request fields of which exactly one must be set (CreateHumanUserPassword's `email`,
   * `username`, `id`: the user it is for); none or two is invalid_argument (decisions.md section 6).
   */
  readonly oneOf: ReadonlyArray<string> | undefined
}

const op = <
  const Service extends string,
  const Method extends string,
  const K extends Kind,
  Request extends Schema.Schema.AnyNoContext,
  Response extends Schema.Schema.Any
>(o: {
  readonly service: Service
  readonly method: Method
  readonly kind: K
  readonly request: Request
  readonly response: Response
  readonly wrapperKey: string | undefined
  readonly itemField?: string
  readonly object: Schema.Schema.AnyNoContext
  readonly requiredHeaders?: Readonly<Record<string, string>>
}): Operation<Service, Method, K, Request, Response> => ({
  ...o,
  path: `/${PACKAGE}.${o.service}/${o.method}`,
  itemField: o.itemField,
  safeToRetry: o.kind === "get" || o.kind === "list",
  requiredHeaders: o.requiredHeaders ?? {},
  lookupKey: undefined,
  parent: undefined,
  references: [],
  kindedReference: undefined,
  oneOf: undefined
})

/** The facts of an operation beyond its shape. */
type Facts = Partial<
  Pick<Operation, "lookupKey" | "parent" | "references" | "kindedReference" | "oneOf">
>

const withFacts = <O extends Operation>(o: O, facts: Facts): O => ({ ...o, ...facts })

const wrapped = <const Key extends string, O extends Schema.Schema.AnyNoContext>(
  method: string,
  key: Key,
  object: O
) =>
  Schema.Struct({ [key]: object } as { [P in Key]: O }).annotations({
    identifier: `${method}Response`
  })

const paged = <const Key extends string, O extends Schema.Schema.AnyNoContext>(
  method: string,
  key: Key,
  item: O
) =>
  Schema.Struct({
    ...({ [key]: array(item) } as { [P in Key]: ReturnType<typeof array<O>> }),
    listMetadata: Schema.optionalWith(Model.ListMetadata, {
      default: () => ({ after: "", before: "", count: 0, nextCursor: "" })
    })
  }).annotations({ identifier: `${method}Response` })

const list = <
  const Service extends string,
  const Method extends string,
  R extends Schema.Schema.AnyNoContext,
  const Key extends string,
  O extends Schema.Schema.AnyNoContext
>(
  service: Service,
  method: Method,
  request: R,
  key: Key,
  item: O
) =>
  op({
    service,
    method,
    kind: "list",
    request,
    response: paged(method, key, item),
    wrapperKey: undefined,
    itemField: key,
    object: item
  })

/** An operation whose response wraps one object (or, for a non-paged read, an array) under a key. */
const wrapping = <
  const Service extends string,
  const Method extends string,
  const K extends "get" | "create" | "update",
  R extends Schema.Schema.AnyNoContext,
  const Key extends string,
  O extends Schema.Schema.AnyNoContext
>(
  service: Service,
  method: Method,
  kind: K,
  request: R,
  key: Key,
  object: O,
  requiredHeaders?: Readonly<Record<string, string>>
) =>
  op({
    service,
    method,
    kind,
    request,
    response: wrapped(method, key, object),
    wrapperKey: key,
    object,
    ...(requiredHeaders ? { requiredHeaders } : {})
  })

/**
 * Every operation of the interface, keyed by method name (method names are unique across
 * services).
 *
 * @since 0.1.0
 * @category operations
 */
export const operations = {
  ListScenarioMonitors: list(
    "ScenarioMonitoringService",
    "ListScenarioMonitors",
    Req.ListScenarioMonitorsRequest,
    "monitors",
    Model.ScenarioMonitor
  ),
  CreateNativeUserIdentityLink: withFacts(
    wrapping(
      "ResourceService",
      "CreateNativeUserIdentityLink",
      "create",
      Req.CreateNativeUserIdentityLinkRequest,
      "link",
      Model.NativeUserIdentityLink
    ),
    {
      references: ["nativeUserId", "identityId"],
      kindedReference: { field: "identityId", kindField: "identityType" }
    }
  ),
  UpdateConnectorHostname: wrapping(
    "ConnectorService",
    "UpdateConnectorHostname",
    "update",
    Req.UpdateConnectorHostnameRequest,
    "connectorHostname",
    Model.ConnectorHostname
  ),
  ListSatellites: withFacts(
    list(
      "SatelliteService",
      "ListSatellites",
      Req.ListSatellitesRequest,
      "satellites",
      Model.Satellite
    ),
    { parent: { field: "spaceId", object: Model.Space, required: false } }
  ),
  GetResource: wrapping(
    "ResourceService",
    "GetResource",
    "get",
    Req.GetResourceRequest,
    "resource",
    Model.Resource
  ),
  ListPolicyStageConfigurations: list(
    "PoliciesService",
    "ListPolicyStageConfigurations",
    Req.ListPolicyStageConfigurationsRequest,
    "policyStageConfigurations",
    Model.PolicyStageConfiguration
  ),
  GetDataCatalogIntegration: wrapping(
    "IntegrationDataCatalogService",
    "GetDataCatalogIntegration",
    "get",
    Req.GetDataCatalogIntegrationRequest,
    "integration",
    Model.DataCatalogIntegration
  ),
  GetPolicyStageConfiguration: wrapping(
    "PoliciesService",
    "GetPolicyStageConfiguration",
    "get",
    Req.GetPolicyStageConfigurationRequest,
    "policyStageConfiguration",
    Model.PolicyStageConfiguration
  ),
  CreateConnector: withFacts(
    wrapping(
      "ConnectorService",
      "CreateConnector",
      "create",
      Req.CreateConnectorRequest,
      "connector",
      Model.Connector
    ),
    { references: ["spaceId"] }
  ),
  GetEncryptionKeysByKeyId: withFacts(
    op({
      service: "LogsService",
      method: "GetEncryptionKeysByKeyId",
      kind: "get",
      request: Req.GetEncryptionKeysByKeyIdRequest,
      response: Schema.Struct({ encryptionKeys: array(Model.EncryptionKey) }).annotations({
        identifier: "GetEncryptionKeysByKeyIdResponse"
      }),
      wrapperKey: "encryptionKeys",
      object: Model.EncryptionKey
    }),
    { lookupKey: "keyId" }
  ),
  ListLogQueries: list(
    "LogsService",
    "ListLogQueries",
    Req.ListLogQueriesRequest,
    "savedQueries",
    Model.LogQueryMetadata
  ),
  ListNativeUsers: withFacts(
    list(
      "ResourceService",
      "ListNativeUsers",
      Req.ListNativeUsersRequest,
      "nativeUsers",
      Model.NativeUser
    ),
    { parent: { field: "resourceId", object: Model.Resource, required: true } }
  ),
  UpdateConnectorListenerLink: wrapping(
    "ConnectorService",
    "UpdateConnectorListenerLink",
    "update",
    Req.UpdateConnectorListenerLinkRequest,
    "connectorListenerLink",
    Model.ConnectorListenerLink
  ),
  ListIntegrationsMDM: list(
    "IntegrationMDMService",
    "ListIntegrationsMDM",
    Req.ListIntegrationsMDMRequest,
    "integrations",
    Model.MdmIntegration
  ),
  CreatePolicyDataLoader: wrapping(
    "PolicyDataLoaderService",
    "CreatePolicyDataLoader",
    "create",
    Req.CreatePolicyDataLoaderRequest,
    "policyDataLoader",
    Model.PolicyDataLoader
  ),
  CreateHumanUserPassword: withFacts(
    op({
      service: "UserService",
      method: "CreateHumanUserPassword",
      kind: "create",
      request: Req.CreateHumanUserPasswordRequest,
      response: Model.HumanUserPassword.annotations({
        identifier: "CreateHumanUserPasswordResponse"
      }),
      wrapperKey: undefined,
      object: Model.HumanUserPassword
    }),
    { oneOf: ["email", "username", "id"] }
  ),
  CreateDataDiscoveryConfiguration: withFacts(
    wrapping(
      "ResourceService",
      "CreateDataDiscoveryConfiguration",
      "create",
      Req.CreateDataDiscoveryConfigurationRequest,
      "dataDiscoveryConfiguration",
      Model.DataDiscoveryConfiguration
    ),
    { references: ["resourceId", "nativeUserId"] }
  ),
  CreatePermission: wrapping(
    "PermissionsService",
    "CreatePermission",
    "create",
    Req.CreatePermissionRequest,
    "permission",
    Model.Permission,
    { "connect-protocol-version": "1" }
  ),
  CreateBIIntegration: wrapping(
    "IntegrationBIService",
    "CreateBIIntegration",
    "create",
    Req.CreateBIIntegrationRequest,
    "integration",
    Model.BiIntegration
  ),
  CreateIntegrationMDM: wrapping(
    "IntegrationMDMService",
    "CreateIntegrationMDM",
    "create",
    Req.CreateIntegrationMDMRequest,
    "integration",
    Model.MdmIntegration
  ),
  UpdateSidecarResourceLink: wrapping(
    "SidecarService",
    "UpdateSidecarResourceLink",
    "update",
    Req.UpdateSidecarResourceLinkRequest,
    "link",
    Model.SidecarResourceLink
  ),
  UpdateSatellite: withFacts(
    wrapping(
      "SatelliteService",
      "UpdateSatellite",
      "update",
      Req.UpdateSatelliteRequest,
      "satellite",
      Model.Satellite
    ),
    { references: ["spaceId"] }
  )
} as const
