/** The objects of `Model`: monitoring, policies, permissions. */
import * as Schema from "effect/Schema"
import { bool, enumeration, Id, NonEmptyString, str, timestamp } from "../primitives.js"
import {
  DeletionPolicy,
  PermissionStatus,
  PolicyDataLoaderStatus,
  ScenarioMonitorStatus,
  WorkerRuntime
} from "./enums.js"

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
