// The client's constructors and layers: generated from `@data-access/client`'s
// `internal/dataAccessClient.ts` (see `scripts/generate.mjs`).
export * from "../generated/internal/dataAccessClient.js"
