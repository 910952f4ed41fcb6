// The options, the resolved configuration, the effect operations of `@data-access/core/Attempts`
// and the paging stream of a List operation: generated from `@data-access/client`'s
// `internal/calls.ts` (see `scripts/generate.mjs`).
export * from "../generated/internal/calls.js"
