// The tags of the API services: generated from `@data-access/client`'s `internal/services.ts`
// (see `scripts/generate.mjs`).
export * from "../generated/internal/services.js"
