/**
 * The operation table: one entry per operation of the interface. The client's methods, the
 * reference server's routes, the contract checks and the OpenAPI document are all computed from
 * it; nothing else in the product lists the operations. What is computed from the table is the
 * same code on both Effect lines: `@data-access/schema-effect4` generates its copy from this file.
 *
 * @since 0.1.0
 */
import type { operations } from "./internal/operationTable.js"
import * as internal from "./internal/operationIndex.js"

export * from "./internal/operationTable.js"

/**
 * The operation table's type.
 *
 * @since 0.1.0
 * @category operations
 */
export type Operations = typeof operations

/**
 * A method name (`GetResource`).
 *
 * @since 0.1.0
 * @category operations
 */
export type MethodName = keyof Operations

/**
 * A service name (`ResourceService`).
 *
 * @since 0.1.0
 * @category operations
 */
export type ServiceName = Operations[MethodName]["service"]

/**
 * The methods of one service.
 *
 * @since 0.1.0
 * @category operations
 */
export type MethodsOf<S extends ServiceName> = {
  [M in MethodName]: Operations[M]["service"] extends S ? M : never
}[MethodName]

/**
 * The decoded request of an operation.
 *
 * @since 0.1.0
 * @category operations
 */
export type RequestOf<M extends MethodName> = Operations[M]["request"]["Type"]

/**
 * The decoded response of an operation.
 *
 * @since 0.1.0
 * @category operations
 */
export type ResponseOf<M extends MethodName> = Operations[M]["response"]["Type"]

/**
 * The methods of the List operations.
 *
 * @since 0.1.0
 * @category operations
 */
export type ListMethod = {
  [M in MethodName]: Operations[M]["kind"] extends "list" ? M : never
}[MethodName]

/**
 * The operations as an array, in the order of the interface's endpoint table.
 *
 * @since 0.1.0
 * @category operations
 */
export const all: ReadonlyArray<Operations[MethodName]> = internal.all

/**
 * The services, each with its methods.
 *
 * @since 0.1.0
 * @category operations
 */
export const services: ReadonlyMap<
  ServiceName,
  ReadonlyArray<Operations[MethodName]>
> = internal.services

/**
 * Finds an operation by its URL path (`/core.v1.ResourceService/GetResource`).
 *
 * @since 0.1.0
 * @category operations
 */
export const byPath: ReadonlyMap<string, Operations[MethodName]> = internal.byPath
