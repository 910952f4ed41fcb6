/**
 * The operation table (generated from `@data-access/schema`, in `../generated/Operations.ts`) with
 * the types of an entry, for Effect 4. Re-exported by `../Operations.ts`, with what is computed from
 * the table.
 *
 * @since 0.1.0
 */
import type * as Schema from "effect/Schema"

export * from "../generated/Operations.js"

/**
 * `get` and `list` read; `create` and `update` write.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind = "get" | "list" | "create" | "update"

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
