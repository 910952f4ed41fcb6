/**
 * The operation table: one entry per operation of the interface, generated from
 * `@data-access/schema/Operations` (service, method, path, kind, request and response schemas,
 * wrapper key, item field, retry safety, required headers). The client's methods are computed
 * from it.
 *
 * @since 0.1.0
 */
import type * as Schema from "effect/Schema"
import { operations } from "./generated/Operations.js"

export * from "./generated/Operations.js"

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
 * One operation of the interface.
 *
 * @since 0.1.0
 * @category models
 */
export interface Operation {
  readonly service: string
  readonly method: string
  readonly path: string
  readonly kind: Kind
  readonly request: Schema.Codec<any, any>
  readonly response: Schema.Codec<any, any>
  readonly wrapperKey: string | undefined
  readonly itemField: string | undefined
  readonly object: Schema.Codec<any, any>
  readonly safeToRetry: boolean
  readonly requiredHeaders: Readonly<Record<string, string>>
}

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
export const all: ReadonlyArray<Operations[MethodName]> = Object.values(operations)

/**
 * The services, each with its methods.
 *
 * @since 0.1.0
 * @category operations
 */
export const services: ReadonlyMap<ServiceName, ReadonlyArray<Operations[MethodName]>> = (() => {
  const map = new Map<ServiceName, Array<Operations[MethodName]>>()
  for (const o of all) map.set(o.service, [...(map.get(o.service) ?? []), o])
  return map
})()

/**
 * Finds an operation by its URL path (`/core.v1.ResourceService/GetResource`).
 *
 * @since 0.1.0
 * @category operations
 */
export const byPath: ReadonlyMap<string, Operations[MethodName]> = new Map(all.map((o) => [o.path, o]))
