/** The objects of `Model`: enumerations. */
import * as Schema from "effect/Schema"

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
