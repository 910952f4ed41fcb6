/**
 * Every object type of the interface, as read from and written to the wire.
 *
 * Reading rules (decisions.md section 1): an absent zero-value field reads as its zero value,
 * unknown fields are ignored, `id` and the fields the interface marks min length 1 must be
 * present. Secret fields (decisions.md section 8) decode to `Redacted`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import {
  array,
  bool,
  nested,
  enumeration,
  Id,
  int,
  int64,
  NonEmptyString,
  Port,
  PortOrZero,
  secret,
  str,
  timestamp,
  Int32,
  NonEmptySecret
} from "./Primitives.js"
import { TimestampString } from "./Timestamp.js"

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category enums
 */
export const ResourceTechnology = Schema.Literal(
  "ssh",
  "postgres",
  "mysql",
  "mongodb",
  "snowflake",
  "http",
  "s3",
  "bigquery",
  "kubernetes",
  "multi",
  "clickhouse",
  "redis",
  "grpc",
  "mcp",
  "web"
)
/**
 * @since 0.1.0
 * @category enums
 */
export const SidecarTechnology = Schema.Literal(
  "ssh",
  "postgres",
  "mysql",
  "mongodb",
  "snowflake",
  "http",
  "s3",
  "bigquery",
  "kubernetes",
  "multi"
)
/**
 * @since 0.1.0
 * @category enums
 */
export const ResourceProvider = Schema.Literal("", "aws-ec2", "aws-ecs")
/**
 * @since 0.1.0
 * @category enums
 */
export const TlsCertificateStatus = Schema.Literal("none", "issuing", "issued")
/**
 * @since 0.1.0
 * @category enums
 */
export const DnsRecordStatus = Schema.Literal("none", "pending", "success", "failed")
/**
 * @since 0.1.0
 * @category enums
 */
export const SatelliteType = Schema.Literal(
  "data_discovery",
  "data_classifier",
  "policy_data_loader",
  "ai"
)
/**
 * @since 0.1.0
 * @category enums
 */
export const ScenarioMonitorStatus = Schema.Literal("active", "draft")
/**
 * @since 0.1.0
 * @category enums
 */
export const SyncDirection = Schema.Literal(
  "bidirectional",
  "platform_to_catalog",
  "catalog_to_platform"
)
/**
 * @since 0.1.0
 * @category enums
 */
export const AggType = Schema.Literal(
  "value_count",
  "avg",
  "sum",
  "min",
  "max",
  "p90",
  "p95",
  "p99"
)
/**
 * @since 0.1.0
 * @category enums
 */
export const WorkerRuntime = Schema.Literal("python3.11", "nodejs18.x")
/**
 * @since 0.1.0
 * @category enums
 */
export const PolicyDataLoaderStatus = Schema.Literal("draft", "active")
/**
 * @since 0.1.0
 * @category enums
 */
export const DeletionPolicy = Schema.Literal("delete", "mark_for_deletion")
/**
 * @since 0.1.0
 * @category enums
 */
export const PermissionStatus = Schema.Literal("draft", "dry-run", "active")
/**
 * @since 0.1.0
 * @category enums
 */
export const IdentityType = Schema.Literal("user", "group", "resource_hostname")

// ---------------------------------------------------------------------------------------------
// Shared
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Connectors
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export const Connector = Schema.Struct({
  id: Id,
  name: str,
  terminationProtection: bool,
  spaceId: str,
  space: nested(Space),
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "Connector" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Connector extends Schema.Schema.Type<typeof Connector> {}

/**
 * @since 0.1.0
 * @category models
 */
export const ConnectorHostname = Schema.Struct({
  id: Id,
  hostname: str,
  managedTls: bool,
  connector: nested(Connector),
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp,
  tlsCertificateStatus: enumeration(TlsCertificateStatus),
  dnsRecord: str,
  dnsRecordStatus: enumeration(DnsRecordStatus)
}).annotations({ identifier: "ConnectorHostname" })
/**
 * @since 0.1.0
 * @category models
 */
export interface ConnectorHostname extends Schema.Schema.Type<typeof ConnectorHostname> {}

/**
 * @since 0.1.0
 * @category models
 */
export const Listener = Schema.Struct({
  id: Id,
  name: str,
  port: int(Int32),
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp,
  connector: nested(Connector)
}).annotations({ identifier: "Listener" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Listener extends Schema.Schema.Type<typeof Listener> {}

/**
 * @since 0.1.0
 * @category models
 */
export const ConnectorListenerLink = Schema.Struct({
  id: Id,
  listener: nested(Listener),
  connector: nested(Connector),
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "ConnectorListenerLink" })
/**
 * @since 0.1.0
 * @category models
 */
export interface ConnectorListenerLink extends Schema.Schema.Type<typeof ConnectorListenerLink> {}

// ---------------------------------------------------------------------------------------------
// Resources, sidecars, satellites
// ---------------------------------------------------------------------------------------------

/**
 * A resource. `port` is 1 to 65535, so it is never the zero value and always present.
 *
 * @since 0.1.0
 * @category models
 */
export const Resource = Schema.Struct({
  id: Id,
  name: str,
  technology: enumeration(ResourceTechnology),
  hostname: str,
  port: Port,
  environment: str,
  terminationProtection: bool,
  spaceId: str,
  space: nested(Space),
  createdAt: timestamp,
  updatedAt: timestamp,
  provider: enumeration(ResourceProvider)
}).annotations({ identifier: "Resource" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Resource extends Schema.Schema.Type<typeof Resource> {}

/**
 * @since 0.1.0
 * @category models
 */
export const Sidecar = Schema.Struct({
  id: Id,
  name: str,
  technology: enumeration(SidecarTechnology),
  hostname: str,
  terminationProtection: bool,
  deployed: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "Sidecar" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Sidecar extends Schema.Schema.Type<typeof Sidecar> {}

/**
 * @since 0.1.0
 * @category models
 */
export const SidecarResourceLink = Schema.Struct({
  id: Id,
  sidecar: nested(Sidecar),
  resource: nested(Resource),
  port: int(PortOrZero),
  terminationProtection: bool
}).annotations({ identifier: "SidecarResourceLink" })
/**
 * @since 0.1.0
 * @category models
 */
export interface SidecarResourceLink extends Schema.Schema.Type<typeof SidecarResourceLink> {}

/**
 * @since 0.1.0
 * @category models
 */
export const Satellite = Schema.Struct({
  id: Id,
  name: str,
  terminationProtection: bool,
  spaceId: str,
  space: nested(Space),
  satelliteType: enumeration(SatelliteType),
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "Satellite" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Satellite extends Schema.Schema.Type<typeof Satellite> {}

// ---------------------------------------------------------------------------------------------
// Native users and identity links
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Monitoring, policies, permissions
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export const ScenarioMonitor = Schema.Struct({
  id: Id,
  name: str,
  scenario: str,
  status: enumeration(ScenarioMonitorStatus),
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "ScenarioMonitor" })
/**
 * @since 0.1.0
 * @category models
 */
export interface ScenarioMonitor extends Schema.Schema.Type<typeof ScenarioMonitor> {}

/**
 * @since 0.1.0
 * @category models
 */
export const PolicyStageConfiguration = Schema.Struct({
  id: Id,
  connectorId: str,
  orgId: str,
  disableSessionPolicyEvaluation: bool,
  disableRequestPolicyEvaluation: bool,
  disableResponsePolicyEvaluation: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "PolicyStageConfiguration" })
/**
 * @since 0.1.0
 * @category models
 */
export interface PolicyStageConfiguration extends Schema.Schema.Type<
  typeof PolicyStageConfiguration
> {}

/**
 * A worker schedule: at least 9 characters. Section 7 of decisions.md gives the format seen in use
 * (a six-field cron with seconds first, `*\/30 * * * * *`), which generated values follow; a
 * faithful server may accept any string (section 10), so the schema does not enforce it.
 *
 * @since 0.1.0
 * @category primitives
 */
export const WorkerSchedule = Schema.String.pipe(
  Schema.minLength(9, {
    message: () => "must be at least 9 characters (a six-field cron with seconds first)"
  })
).annotations({
  identifier: "WorkerSchedule",
  arbitrary: () => (fc) =>
    fc
      .tuple(
        fc.constantFrom("0", "*/30", "15", "*"),
        fc.constantFrom("*", "0", "*/5", "30"),
        fc.constantFrom("*", "1", "12"),
        fc.constantFrom("*", "1", "15"),
        fc.constantFrom("*", "1", "6"),
        fc.constantFrom("*", "1-5", "0")
      )
      .map((parts) => parts.join(" "))
})

/**
 * @since 0.1.0
 * @category models
 */
export const PolicyDataLoader = Schema.Struct({
  id: Id,
  name: NonEmptyString,
  description: str,
  key: NonEmptyString,
  workerRuntime: enumeration(WorkerRuntime),
  workerCode: NonEmptyString,
  workerSchedule: WorkerSchedule,
  status: enumeration(PolicyDataLoaderStatus),
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "PolicyDataLoader" })
/**
 * @since 0.1.0
 * @category models
 */
export interface PolicyDataLoader extends Schema.Schema.Type<typeof PolicyDataLoader> {}

/**
 * A data discovery schedule: at least 1 character. The values seen in use are `6h`, `12h`, `18h`,
 * `24h` or a five-field cron expression (generated values are those); a faithful server may accept
 * any string (decisions.md section 10), so the schema does not enforce them.
 *
 * @since 0.1.0
 * @category primitives
 */
export const DiscoverySchedule = Schema.String.pipe(
  Schema.minLength(1, { message: () => "must not be empty (min length 1)" })
).annotations({
  identifier: "DiscoverySchedule",
  arbitrary: () => (fc) =>
    fc.oneof(
      fc.constantFrom("6h", "12h", "18h", "24h"),
      fc.constantFrom("0 3 * * *", "*/15 * * * *", "0 0 1 * 1-5")
    )
})

/**
 * @since 0.1.0
 * @category models
 */
export const DataDiscoveryConfiguration = Schema.Struct({
  id: Id,
  resourceId: NonEmptyString,
  nativeUserId: NonEmptyString,
  database: str,
  schedule: DiscoverySchedule,
  deletionPolicy: enumeration(DeletionPolicy),
  path: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "DataDiscoveryConfiguration" })
/**
 * @since 0.1.0
 * @category models
 */
export interface DataDiscoveryConfiguration extends Schema.Schema.Type<
  typeof DataDiscoveryConfiguration
> {}

/**
 * @since 0.1.0
 * @category models
 */
export const Permission = Schema.Struct({
  id: Id,
  name: NonEmptyString,
  description: NonEmptyString,
  code: NonEmptyString,
  status: enumeration(PermissionStatus),
  terminationProtection: bool,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "Permission" })
/**
 * @since 0.1.0
 * @category models
 */
export interface Permission extends Schema.Schema.Type<typeof Permission> {}

// ---------------------------------------------------------------------------------------------
// Integrations
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export const CatalogVendorA = Schema.Struct({
  webhookSecret: secret,
  apiKey: secret,
  generalizedMetadataServiceUrl: str,
  syncedEntities: array(Schema.String)
}).annotations({ identifier: "CatalogVendorA" })

/**
 * @since 0.1.0
 * @category models
 */
export const DataCatalogIntegration = Schema.Struct({
  catalogVendorA: nested(CatalogVendorA),
  id: Id,
  name: str,
  syncDirection: enumeration(SyncDirection),
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "DataCatalogIntegration" })
/**
 * @since 0.1.0
 * @category models
 */
export interface DataCatalogIntegration extends Schema.Schema.Type<typeof DataCatalogIntegration> {}

/**
 * @since 0.1.0
 * @category models
 */
export const MdmVendorA = Schema.Struct({
  apiKey: secret,
  apiUrl: str
}).annotations({ identifier: "MdmVendorA" })

/**
 * An MDM integration. Its `type` for search and filters is the name of its vendor object in
 * snake_case (`mdm_vendor_a`).
 *
 * @since 0.1.0
 * @category models
 */
export const MdmIntegration = Schema.Struct({
  mdmVendorA: nested(MdmVendorA),
  id: Id,
  name: str,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "MdmIntegration" })
/**
 * @since 0.1.0
 * @category models
 */
export interface MdmIntegration extends Schema.Schema.Type<typeof MdmIntegration> {}

/**
 * @since 0.1.0
 * @category models
 */
export const BiVendorA = Schema.Struct({
  apiKey: secret,
  apiSecret: secret
}).annotations({ identifier: "BiVendorA" })

/**
 * @since 0.1.0
 * @category models
 */
export const BiIntegration = Schema.Struct({
  biVendorA: nested(BiVendorA),
  id: Id,
  name: str,
  createdAt: timestamp,
  linkedDbUserId: str,
  sync: bool
}).annotations({ identifier: "BiIntegration" })
/**
 * @since 0.1.0
 * @category models
 */
export interface BiIntegration extends Schema.Schema.Type<typeof BiIntegration> {}

// ---------------------------------------------------------------------------------------------
// Logs
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category models
 */
export const EncryptionKey = Schema.Struct({
  id: Id,
  provider: str,
  keyId: str,
  algorithm: str,
  decryptorUri: str,
  createdAt: timestamp,
  updatedAt: timestamp
}).annotations({ identifier: "EncryptionKey" })
/**
 * @since 0.1.0
 * @category models
 */
export interface EncryptionKey extends Schema.Schema.Type<typeof EncryptionKey> {}

/**
 * @since 0.1.0
 * @category models
 */
export const LogQueryFilter = Schema.Struct({
  name: str,
  values: array(Schema.String)
}).annotations({ identifier: "LogQueryFilter" })

/**
 * @since 0.1.0
 * @category models
 */
export const MetricAggregation = Schema.Struct({
  field: str,
  aggType: enumeration(AggType)
}).annotations({ identifier: "MetricAggregation" })

/**
 * @since 0.1.0
 * @category models
 */
export const LogQuery = Schema.Struct({
  query: str,
  filters: array(LogQueryFilter),
  relativeTime: int64,
  histogramGroupByFields: array(Schema.String),
  metricAggregation: nested(MetricAggregation)
}).annotations({ identifier: "LogQuery" })

/**
 * @since 0.1.0
 * @category models
 */
export const LogQueryMetadata = Schema.Struct({
  id: Id,
  name: str,
  createdBy: str,
  query: nested(LogQuery)
}).annotations({ identifier: "LogQueryMetadata" })
/**
 * @since 0.1.0
 * @category models
 */
export interface LogQueryMetadata extends Schema.Schema.Type<typeof LogQueryMetadata> {}

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

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
