/** The objects of `Model`: logs. */
import * as Schema from "effect/Schema"
import { array, nested, enumeration, Id, int64, str, timestamp } from "../primitives.js"
import { AggType } from "./enums.js"

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
