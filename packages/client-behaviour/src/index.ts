/**
 * The clients' behaviour as data, for both Effect lines' tests: the cases, the scenarios, the
 * checks and the test doubles. This module only re-exports.
 */

export * from "./model.js"
export * from "./cases.js"
export * from "./verify.js"
export * from "./requests.js"
export * from "./capture.js"
export * from "./fake.js"
export * from "./integration.js"
export * from "./redaction.js"
export * from "./scenario.js"
export * from "./scenarios.js"
export * from "./testing.js"
