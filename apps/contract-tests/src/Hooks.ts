/**
 * Hooks: the user's own code in a run, beside the checks. A hooks file (`contract-tests --hooks
 * hooks.mjs`) is an ES module whose default export is `defineHooks({...})`; a library run takes
 * the same object as its `hooks` option.
 *
 * @since 0.6.0
 */
import type * as CheckIds from "./internal/checkIds.js"
import type * as CustomChecks from "./internal/customChecks.js"
import type * as Http from "./internal/requestHooks.js"
import type * as Types from "./internal/runner/types.js"

/**
 * What a run's hooks may do: `headers` (asked before each request: a token refreshed when it
 * expires), `beforeRequest` (headers from the request as it goes out: a signature over method,
 * URL and body), `filter` (which suites run; one left out is reported skipped) and `checks`
 * (checks of your own, reported like the built-in ones: see `CustomCheck`). The values of
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
 * A check of your own: a namespaced `id` (`acme.names-lowercase`; a built-in check's or rule's id
 * is refused), a `severity`, the `rule` it holds the server to in one sentence, and `check`, given
 * every exchange the run's cases make. Its failures are findings like the built-in checks': in
 * every report, with the rule, a curl line and a replay id, failing the run unless a baseline
 * accepts them (by the check's id); `--checks` and `--exclude-checks` name it by its id. A check
 * that throws ends the run (exit 2) with its message.
 *
 * @since 0.6.0
 * @category models
 */
export type CustomCheck = CustomChecks.CustomCheck

/**
 * An exchange as a custom check sees it: the operation, the family of the suite that sent it,
 * the request (its body as text and parsed) and the answer (status, headers, text and parsed
 * body), or why none came. The runner sends invalid requests on purpose: `family` and the answer's
 * status tell them apart.
 *
 * @since 0.6.0
 * @category models
 */
export type CheckedExchange = CustomChecks.CheckedExchange

/**
 * A request as a custom check sees it.
 *
 * @since 0.6.0
 * @category models
 */
export type CheckedRequest = CustomChecks.CheckedRequest

/**
 * An answer as a custom check sees it.
 *
 * @since 0.6.0
 * @category models
 */
export type CheckedResponse = CustomChecks.CheckedResponse

/**
 * What a custom check returns: nothing, `undefined` or `true` when its rule holds; a message,
 * `false`, or `{ message, cause?, detail? }` when it does not (`cause`, without values, tells
 * findings apart; by default one finding per operation).
 *
 * @since 0.6.0
 * @category models
 */
export type CheckResult = CustomChecks.CheckResult

/**
 * The id of a custom check in a report (`Report.Finding.check`, `Report.Cell.check`).
 *
 * @since 0.6.0
 * @category models
 */
export type CustomCheckId = CheckIds.CustomCheckId

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
 *   filter: (suite) => suite.operation !== "CreatePermission",
 *   checks: [
 *     {
 *       id: "acme.names-lowercase",
 *       severity: "minor",
 *       rule: "Every satellite name is lower case.",
 *       check: ({ operation, response }) => {
 *         if (operation !== "ListSatellites" || response?.status !== 200) return
 *         const { satellites = [] } = response.body as { satellites?: Array<{ name: string }> }
 *         const upper = satellites.find((s) => s.name !== s.name.toLowerCase())
 *         if (upper !== undefined) return `the name ${JSON.stringify(upper.name)} is not lower case`
 *       }
 *     }
 *   ]
 * })
 * ```
 *
 * @since 0.6.0
 * @category constructors
 */
export const defineHooks = (hooks: Hooks): Hooks => hooks
