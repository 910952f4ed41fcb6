/**
 * One service per API service, each a `Context.Service` whose methods are computed from the
 * operation table: every operation of the service becomes a lowerCamelCase method
 * (`getResource`), and every List operation also gets a paging stream (`listNativeUsersStream`).
 * Generated from `@data-access/client`'s `Services.ts` (see `scripts/generate.mjs`).
 *
 * @since 0.1.0
 */
export * from "./generated/Services.js"
