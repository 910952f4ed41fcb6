/**
 * The reference server of the data-access management API: every operation of the interface,
 * served faithfully over Connect (JSON), on a store in memory or in SQLite, with fixtures, demo
 * data and fault injection.
 *
 * @since 0.1.0
 */
export * from "./internal/referenceServer.js"
