/**
 * Request schemas of the 22 operations, with every rule of the interface and decisions.md.
 * Optional fields accept `null` as "not set"; update requests carry only the fields that change.
 *
 * @since 0.1.0
 */
export * from "./internal/requests.js"
