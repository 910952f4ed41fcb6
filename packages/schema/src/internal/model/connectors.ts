/** The objects of `Model`: connectors. */
import * as Schema from "effect/Schema"
import { bool, nested, enumeration, Id, int, str, timestamp, Int32 } from "../primitives.js"
import { DnsRecordStatus, TlsCertificateStatus } from "./enums.js"
import { Space } from "./shared.js"

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
