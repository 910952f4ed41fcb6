/**
 * The object types of the `Model` module, which re-exports them.
 */
export * from "./enums.js"
export * from "./shared.js"
export * from "./connectors.js"
export * from "./resources.js"
export * from "./nativeUsers.js"
export * from "./policies.js"
export * from "./integrations.js"
export * from "./logs.js"
export * from "./users.js"
