/**
 * Primitive schemas of the interface and the field helpers that encode decisions.md's reading
 * rules once: an absent zero-value field reads as its zero value, `null` on input means "not set",
 * secrets decode to `Redacted`.
 *
 * @since 0.1.0
 */
export * from "./internal/primitives.js"
