/** The objects of `Model`: integrations. */
import * as Schema from "effect/Schema"
import { array, bool, nested, enumeration, Id, secret, str, timestamp } from "../primitives.js"
import { SyncDirection } from "./enums.js"

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
