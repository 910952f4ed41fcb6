/**
 * Hooks: the user's own code in a run, beside the checks. A hooks file (`contract-tests --hooks
 * hooks.mjs`) is an ES module whose default export is `defineHooks({...})`; a library run takes
 * the same object as its `hooks` option.
 *
 * @since 0.6.0
 */
import type * as Http from "./internal/http.js"
import type * as Types from "./internal/runner/types.js"

/**
 * What a run's hooks may do: `headers` (asked before each request: a token refreshed when it
 * expires), `beforeRequest` (headers from the request as it goes out: a signature over method,
 * URL and body) and `filter` (which suites run; one left out is reported skipped). The values of
 * the headers they set are masked in the HAR and never part of a finding; the headers the checks
 * set themselves (`X-API-KEY`, `Content-Type`, the Connect headers) are not theirs to set.
 *
 * @since 0.6.0
 * @category models
 */
export type Hooks = Types.Hooks

/**
 * A suite as `filter` sees it: its operation (`_` for the whole API's), family and checks.
 *
 * @since 0.6.0
 * @category models
 */
export type SuiteInfo = Types.SuiteInfo

/**
 * A request as `beforeRequest` sees it, about to be sent.
 *
 * @since 0.6.0
 * @category models
 */
export type OutgoingRequest = Http.OutgoingRequest

/**
 * Types a hooks object (the identity at run time).
 *
 * @example
 * ```ts
 * import { Hooks } from "@data-access/contract-tests"
 *
 * let token = { value: "", expires: 0 }
 * export default Hooks.defineHooks({
 *   headers: async () => {
 *     if (Date.now() > token.expires) token = { value: "fresh-token", expires: Date.now() + 60_000 }
 *     return { authorization: `Bearer ${token.value}` }
 *   },
 *   filter: (suite) => suite.operation !== "CreatePermission"
 * })
 * ```
 *
 * @since 0.6.0
 * @category constructors
 */
export const defineHooks = (hooks: Hooks): Hooks => hooks
