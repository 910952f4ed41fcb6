/**
 * The code of the `Requests` module, which re-exports it.
 */
import * as Schema from "effect/Schema"
import { states } from "./ruleAnnotations.js"
import * as Filter from "./filter.js"
import {
  DeletionPolicy,
  DiscoverySchedule,
  IdentityType,
  PermissionStatus,
  PolicyDataLoaderStatus,
  WorkerRuntime,
  WorkerSchedule
} from "./model/index.js"
import {
  Base64Secret,
  Id,
  NonEmptySecret,
  NonEmptyString,
  opt,
  optSecret,
  Secret
} from "./primitives.js"

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/**
 * Page size: 1 to 500, required (decisions.md section 3).
 *
 * @since 0.1.0
 * @category lists
 */
export const Limit = Schema.Int.pipe(
  Schema.between(1, 500, { message: () => "limit must be from 1 to 500" })
).annotations({
  identifier: "Limit",
  // An absent `limit` breaks its range too (decisions.md section 3: "0, negative, above 500 or absent").
  ...states("lists.limit-range", "lists.limit-range"),
  arbitrary: () => (fc) => fc.oneof(fc.constantFrom(1, 500), fc.integer({ min: 1, max: 500 }))
})

/**
 * The default page size that paging helpers send.
 *
 * @since 0.1.0
 * @category lists
 */
export const DEFAULT_PAGE_SIZE = 100

/**
 * `asc` or `desc` by `createdAt`, ties by `id`. Absent (or the zero value `""`) means `asc`.
 *
 * @since 0.1.0
 * @category lists
 */
export const Order = Schema.Literal("asc", "desc", "").annotations({
  identifier: "Order",
  // `override`: a union of literals otherwise lists every literal instead of this message.
  message: () => ({ message: "order must be asc or desc", override: true })
})

/**
 * An opaque paging cursor: pass back `listMetadata.nextCursor`.
 *
 * @since 0.1.0
 * @category lists
 */
export const Cursor = Schema.String.annotations({
  identifier: "Cursor",
  // A random cursor names no page, so generated requests start at the first page.
  arbitrary: () => (fc) => fc.constant("")
})

/**
 * The fields every List request has.
 *
 * @since 0.1.0
 * @category lists
 */
export const listFields = {
  limit: Limit,
  cursor: opt(Cursor),
  order: opt(Order)
} as const

/**
 * @since 0.1.0
 * @category filters
 */
export const SatelliteFilterKeys = [
  "id",
  "name",
  "termination_protection",
  "space_id",
  "satellite_type",
  "created_at",
  "updated_at"
] as const
/**
 * @since 0.1.0
 * @category filters
 */
export const SatelliteFilter = Filter.make(SatelliteFilterKeys, "SatelliteFilter")

/**
 * @since 0.1.0
 * @category filters
 */
export const MdmFilterKeys = ["id", "name", "type", "created_at", "updated_at"] as const
/**
 * @since 0.1.0
 * @category filters
 */
export const MdmFilter = Filter.make(MdmFilterKeys, "MdmIntegrationFilter")

const searchFields = <const L extends readonly [string, ...Array<string>]>(...fields: L) =>
  opt(
    Schema.Array(
      Schema.Literal(...fields).annotations({
        message: () => ({
          message: `searchFields entries must be ${fields.join(", ")}`,
          override: true
        })
      })
    )
  )

// ---------------------------------------------------------------------------------------------
// Requests, in the order of the interface's endpoint table
// ---------------------------------------------------------------------------------------------

/**
 * @since 0.1.0
 * @category requests
 */
export const ListScenarioMonitorsRequest = Schema.Struct(listFields).annotations({
  identifier: "ListScenarioMonitorsRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateNativeUserIdentityLinkRequest = Schema.Struct({
  nativeUserId: NonEmptyString,
  identityId: NonEmptyString,
  // A request enum with no empty value: a faithful server may require it or default it (section 10).
  identityType: opt(IdentityType),
  terminationProtection: opt(Schema.Boolean)
}).annotations({ identifier: "CreateNativeUserIdentityLinkRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const UpdateConnectorHostnameRequest = Schema.Struct({
  id: Id,
  hostname: opt(Schema.String),
  managedTls: opt(Schema.Boolean),
  terminationProtection: opt(Schema.Boolean),
  dnsRecord: opt(Schema.String),
  certificate: optSecret(Base64Secret, "base64 bytes"),
  privateKey: optSecret(Base64Secret, "base64 bytes")
}).annotations({ identifier: "UpdateConnectorHostnameRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const GetResourceRequest = Schema.Struct({ id: Id }).annotations({
  identifier: "GetResourceRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export const ListPolicyStageConfigurationsRequest = Schema.Struct(listFields).annotations({
  identifier: "ListPolicyStageConfigurationsRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export const GetDataCatalogIntegrationRequest = Schema.Struct({ id: Id }).annotations({
  identifier: "GetDataCatalogIntegrationRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export const GetPolicyStageConfigurationRequest = Schema.Struct({ id: Id }).annotations({
  identifier: "GetPolicyStageConfigurationRequest"
})

/**
 * A connector name: 3 to 63 characters of `0-9`, `a-z` and `-`.
 *
 * @since 0.1.0
 * @category primitives
 */
export const ConnectorName = Schema.String.pipe(
  Schema.pattern(/^[0-9a-z-]{3,63}$/, {
    message: () => "name must be 3 to 63 characters of 0-9, a-z and -"
  })
).annotations({
  identifier: "ConnectorName",
  ...states("fields.connector-name"),
  arbitrary: () => (fc) => {
    const chars = fc.constantFrom(..."0123456789abcdefghijklmnopqrstuvwxyz-")
    return fc.oneof(
      fc.string({ unit: chars, minLength: 3, maxLength: 3 }),
      fc.string({ unit: chars, minLength: 63, maxLength: 63 }),
      fc.string({ unit: chars, minLength: 3, maxLength: 63 })
    )
  }
})

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateConnectorRequest = Schema.Struct({
  name: ConnectorName,
  terminationProtection: opt(Schema.Boolean),
  spaceId: opt(Schema.String)
}).annotations({ identifier: "CreateConnectorRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const GetEncryptionKeysByKeyIdRequest = Schema.Struct({ keyId: NonEmptyString }).annotations(
  {
    identifier: "GetEncryptionKeysByKeyIdRequest"
  }
)

/**
 * @since 0.1.0
 * @category requests
 */
export const ListLogQueriesRequest = Schema.Struct(listFields).annotations({
  identifier: "ListLogQueriesRequest"
})

/**
 * @since 0.1.0
 * @category requests
 */
export const ListNativeUsersRequest = Schema.Struct({
  ...listFields,
  resourceId: NonEmptyString
}).annotations({ identifier: "ListNativeUsersRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const UpdateConnectorListenerLinkRequest = Schema.Struct({
  id: Id,
  terminationProtection: opt(Schema.Boolean)
}).annotations({ identifier: "UpdateConnectorListenerLinkRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const ListIntegrationsMDMRequest = Schema.Struct({
  ...listFields,
  searchFields: searchFields("id", "name", "type"),
  search: opt(Schema.String),
  filter: opt(MdmFilter)
}).annotations({ identifier: "ListIntegrationsMDMRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const CreatePolicyDataLoaderRequest = Schema.Struct({
  name: NonEmptyString,
  description: opt(Schema.String),
  key: NonEmptyString,
  workerRuntime: opt(WorkerRuntime),
  workerCode: NonEmptyString,
  workerSchedule: WorkerSchedule,
  status: opt(PolicyDataLoaderStatus),
  terminationProtection: opt(Schema.Boolean)
}).annotations({ identifier: "CreatePolicyDataLoaderRequest" })

/**
 * Exactly one of `email`, `username` or `id` (the three variants of
 * CreateHumanUserPasswordRequest). None, or two at once, is invalid.
 *
 * @since 0.1.0
 * @category requests
 */
export const CreateHumanUserPasswordRequest = Schema.Struct({
  email: opt(NonEmptyString),
  username: opt(NonEmptyString),
  id: opt(NonEmptyString)
}).pipe(
  Schema.filter(
    (r) => {
      const set = (["email", "username", "id"] as const).filter((k) => r[k] !== undefined)
      return set.length === 1
        ? undefined
        : {
            path: set.length === 0 ? ["email"] : [set[1]!],
            message:
              set.length === 0
                ? "exactly one of email, username or id must be set; none is"
                : `exactly one of email, username or id must be set; ${set.join(" and ")} are`
          }
    },
    {
      identifier: "CreateHumanUserPasswordRequest",
      ...states("fields.one-of"),
      // The one-of rule in JSON Schema, for the OpenAPI document: exactly one of the three is a string.
      jsonSchema: {
        type: "object",
        description:
          "Exactly one of email, username or id (the three variants of CreateHumanUserPasswordRequest).",
        properties: Object.fromEntries(
          ["email", "username", "id"].map((k) => [
            k,
            { anyOf: [{ type: "string", minLength: 1 }, { type: "null" }] }
          ])
        ),
        oneOf: ["email", "username", "id"].map((k) => ({
          required: [k],
          properties: { [k]: { type: "string" } }
        })),
        additionalProperties: true
      },
      arbitrary: () => (fc) =>
        fc.oneof(
          fc.emailAddress().map((email) => ({ email })),
          fc.string({ minLength: 1, maxLength: 32 }).map((username) => ({ username })),
          fc.string({ minLength: 1, maxLength: 40 }).map((id) => ({ id }))
        )
    }
  )
)

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateDataDiscoveryConfigurationRequest = Schema.Struct({
  resourceId: NonEmptyString,
  nativeUserId: NonEmptyString,
  database: opt(Schema.String),
  schedule: DiscoverySchedule,
  deletionPolicy: opt(DeletionPolicy),
  path: opt(Schema.String)
}).annotations({ identifier: "CreateDataDiscoveryConfigurationRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const CreatePermissionRequest = Schema.Struct({
  name: NonEmptyString,
  description: NonEmptyString,
  code: NonEmptyString,
  status: opt(PermissionStatus),
  terminationProtection: opt(Schema.Boolean)
}).annotations({ identifier: "CreatePermissionRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateBIIntegrationRequest = Schema.Struct({
  name: NonEmptyString,
  biVendorA: Schema.Struct({
    apiKey: NonEmptySecret,
    apiSecret: NonEmptySecret
  }),
  linkedDbUserId: opt(Schema.String),
  sync: opt(Schema.Boolean)
}).annotations({ identifier: "CreateBIIntegrationRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const CreateIntegrationMDMRequest = Schema.Struct({
  mdmVendorA: Schema.Struct({
    apiKey: optSecret(Secret, "a string"),
    apiUrl: opt(Schema.String)
  }),
  name: NonEmptyString
}).annotations({ identifier: "CreateIntegrationMDMRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const UpdateSidecarResourceLinkRequest = Schema.Struct({
  id: Id,
  terminationProtection: opt(Schema.Boolean)
}).annotations({ identifier: "UpdateSidecarResourceLinkRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const UpdateSatelliteRequest = Schema.Struct({
  id: Id,
  name: opt(NonEmptyString),
  terminationProtection: opt(Schema.Boolean),
  spaceId: opt(Schema.String)
}).annotations({ identifier: "UpdateSatelliteRequest" })

/**
 * @since 0.1.0
 * @category requests
 */
export const ListSatellitesRequest = Schema.Struct({
  ...listFields,
  searchFields: searchFields("id", "name"),
  search: opt(Schema.String),
  filter: opt(SatelliteFilter),
  spaceId: opt(Schema.String)
}).annotations({ identifier: "ListSatellitesRequest" })
