/**
 * An OpenAPI 3.1 document of the whole API, generated from the operation table: one path per
 * operation, request and response bodies as JSON Schema (their wire form), the Connect error as
 * the error response, and `X-API-KEY` security.
 *
 * @since 0.1.0
 */
import * as internal from "./internal/openApi.js"

/**
 * @since 0.1.0
 * @category models
 */
export interface Document {
  readonly openapi: "3.1.0"
  readonly info: { readonly title: string; readonly version: string; readonly description: string }
  readonly servers: ReadonlyArray<{ readonly url: string }>
  readonly paths: Record<string, unknown>
  readonly components: {
    readonly schemas: Record<string, unknown>
    readonly securitySchemes: Record<string, unknown>
  }
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
}

/**
 * Builds the document.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: (options: {
  readonly version: string
  readonly serverUrl?: string
}) => Document = internal.make
