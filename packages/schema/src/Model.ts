/**
 * Every object type of the interface, as read from and written to the wire.
 *
 * Reading rules (decisions.md section 1): an absent zero-value field reads as its zero value,
 * unknown fields are ignored, `id` and the fields the interface marks min length 1 must be
 * present. Secret fields (decisions.md section 8) decode to `Redacted`.
 *
 * @since 0.1.0
 */
export * from "./internal/model/index.js"
