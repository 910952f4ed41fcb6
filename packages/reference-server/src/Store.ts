/**
 * Where the reference server keeps its objects: one `Store` service, two layers. `layerMemory`
 * keeps everything in process; `layerSqlite` keeps it in a SQLite file so that data survives a
 * restart. Objects are stored in their wire (encoded) form, ordered by `createdAt` then `id`.
 *
 * @since 0.1.0
 */
export * from "./internal/store.js"
