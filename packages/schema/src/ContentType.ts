/**
 * The `Content-Type` of Connect unary calls: the JSON codec every peer speaks, the binary codec a
 * server may serve or answer 415 (decisions.md section 10), and the reading of a header into its
 * media type and codec.
 *
 * The module is `@data-access/core/ContentType` (no `effect`), re-exported here: both Effect lines read
 * and write the wire through the same code.
 *
 * @since 0.3.0
 */
export * from "@data-access/core/ContentType"
