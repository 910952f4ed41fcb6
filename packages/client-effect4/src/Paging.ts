/**
 * Paging: a `Stream` of every item of a List operation, following `listMetadata.nextCursor`
 * until it is empty or absent, and failing with `CursorRepeatedError` if a cursor comes back.
 * Generated from `@data-access/client`'s `Paging.ts` (see `scripts/generate.mjs`).
 *
 * @since 0.1.0
 */
export * from "./generated/Paging.js"
