/**
 * The object collections the reference server stores: one per object type, each with its
 * schema (from `@data-access/schema`'s `Model`), the prefix of its ids and the operations that
 * serve it. The operation table is the source of the operations; this table only says where each
 * operation's object lives.
 *
 * @since 0.1.0
 */
export * from "./internal/collections.js"
