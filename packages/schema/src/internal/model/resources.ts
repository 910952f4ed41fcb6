/** The objects of `Model`: resources, sidecars, satellites. */
import * as Schema from "effect/Schema"
import {
  bool,
  nested,
  enumeration,
  Id,
  int,
  Port,
  PortOrZero,
  str,
  timestamp
} from "../primitives.js"
import { ResourceProvider, ResourceTechnology, SatelliteType, SidecarTechnology } from "./enums.js"
import { Space } from "./shared.js"

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
