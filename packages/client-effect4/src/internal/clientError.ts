/**
 * The code of the `ClientError` module, generated from `@data-access/client`'s
 * `internal/clientError.ts` (see `scripts/generate.mjs`).
 */
export * from "../generated/internal/clientError.js"
