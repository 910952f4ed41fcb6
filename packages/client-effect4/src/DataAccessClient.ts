/**
 * The data-access client: one object with every operation (`DataAccessClient`) and one service
 * per API service (`Services`), built from the operation table over the abstract
 * `HttpClient.HttpClient`, with its layers. Generated from `@data-access/client`'s
 * `DataAccessClient.ts` (see `scripts/generate.mjs`).
 *
 * @since 0.1.0
 */
export * from "./generated/DataAccessClient.js"
