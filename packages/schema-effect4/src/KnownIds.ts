/**
 * The ids the reference server holds (`--write-ids`), generated from `@data-access/schema/KnownIds`.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { KnownIds } from "./generated/KnownIds.js"

export * from "./generated/KnownIds.js"

/**
 * Decodes the JSON text the reference server writes.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeJson = Schema.decodeUnknownEffect(Schema.fromJsonString(KnownIds))
