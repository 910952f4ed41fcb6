/**
 * Every object type of the interface, as read from and written to the wire: the schemas of
 * `@data-access/schema/Model`, generated for Effect 4 (see `scripts/generate.mjs`).
 *
 * @since 0.1.0
 */
export * from "./generated/Model.js"
