/**
 * Fixtures: the objects the interface cannot create (decisions.md section 9), and any other
 * object a test wants the server to hold. A fixtures file is one JSON object whose keys are
 * collection names and whose values are arrays of objects in their wire form (see the README).
 *
 * @since 0.1.0
 */
export * from "./internal/fixtures.js"
