/**
 * The contract checks a server of this API is held to: one id per check, its one-line meaning and
 * its severity. The contract-test runner reports findings under these ids, and the reference
 * server's violation catalogue names the check that must catch each violation.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * How much a failed check matters to a user of the API.
 *
 * - `critical`: calls fail or data is wrong or leaks (5xx, secrets echoed, wrong auth).
 * - `major`: a client written against the contract breaks (shapes, codes, paging).
 * - `minor`: the contract is bent in a way most clients survive.
 *
 * @since 0.1.0
 * @category models
 */
export type Severity = "critical" | "major" | "minor"

/**
 * One check of the catalogue.
 *
 * @since 0.1.0
 * @category models
 */
export interface Check {
  readonly id: CheckId
  readonly meaning: string
  readonly severity: Severity
}

/**
 * Every check, in report order.
 *
 * @since 0.1.0
 * @category checks
 */
export const checks = [
  {
    id: "no-server-errors",
    meaning: "no input, valid or not, gets a 5xx (or a dropped connection)",
    severity: "critical"
  },
  {
    id: "success-shape",
    meaning: "success is 200 with `application/json` and a JSON object body",
    severity: "major"
  },
  {
    id: "error-shape",
    meaning:
      "every error is a valid Connect error body whose code and HTTP status agree; an unknown id is not_found; a rate limit carries `Retry-After`; rate-limit headers, when sent, are numbers and a reset in Unix seconds",
    severity: "major"
  },
  {
    id: "response-schema",
    meaning:
      "responses match the schemas strictly (types, enums, ranges, required fields, timestamps with `Z`), reported with the JSON path",
    severity: "major"
  },
  {
    id: "timestamps",
    meaning:
      "`createdAt` / `updatedAt` not after the response time (with clock skew), `expiresAt` after it",
    severity: "minor"
  },
  {
    id: "valid-accepted",
    meaning:
      "valid generated requests (also with unknown fields, referencing existing objects) are accepted with 200, never rejected",
    severity: "major"
  },
  {
    id: "invalid-rejected",
    meaning: "requests breaking one rule of the interface are rejected with invalid_argument",
    severity: "major"
  },
  {
    id: "auth",
    meaning: "a missing, empty or wrong key is unauthenticated on every operation",
    severity: "critical"
  },
  {
    id: "protocol",
    meaning:
      "other methods 405 with `Allow: POST`, unknown routes 404 unimplemented, CreatePermission without `Connect-Protocol-Version` invalid_argument, 415 for other content types, bodies up to 1 MiB served, deadlines as Connect says",
    severity: "major"
  },
  {
    id: "create-echo",
    meaning:
      "creates return the complete object made from what was sent (the linked identity and native user included, `createdAt` set, a password for the user named), and later reads (the Lists of its kind, its Get) show that object",
    severity: "critical"
  },
  {
    id: "secrets",
    meaning: "no error body carries the value of a secret field that was sent",
    severity: "critical"
  },
  {
    id: "update-semantics",
    meaning:
      "only sent fields change, `updatedAt` moves forward, a later read shows the change; the Lists show the updated object whole and select it by its new values, not its old ones",
    severity: "major"
  },
  {
    id: "paging",
    meaning:
      "`count` equals the items and never exceeds `limit`; walking all pages returns every item once and ends; `nextCursor`, `after` / `before` and `order` as decided",
    severity: "major"
  },
  {
    id: "search-filter",
    meaning:
      "`search`, `filter`, `spaceId`, `resourceId` and `keyId` return only (and all) matching items, under any choice a faithful server may make",
    severity: "major"
  },
  {
    id: "stable-reads",
    meaning: "a Get returns the object it names, the same twice",
    severity: "minor"
  }
] as const satisfies ReadonlyArray<{
  readonly id: string
  readonly meaning: string
  readonly severity: Severity
}>

/**
 * A check id (`response-schema`).
 *
 * @since 0.1.0
 * @category models
 */
export type CheckId = (typeof checks)[number]["id"]

/**
 * The check ids, in report order.
 *
 * @since 0.1.0
 * @category checks
 */
export const ids: ReadonlyArray<CheckId> = checks.map((c) => c.id)

/**
 * Finds a check by id.
 *
 * @since 0.1.0
 * @category checks
 */
export const byId: ReadonlyMap<CheckId, Check> = new Map(checks.map((c) => [c.id, c as Check]))

/**
 * Whether a string is a check id.
 *
 * @since 0.1.0
 * @category guards
 */
export const isCheckId = (s: string): s is CheckId => byId.has(s as CheckId)

/**
 * A check id as a schema.
 *
 * @since 0.1.0
 * @category checks
 */
export const CheckIdSchema: Schema.Schema<CheckId> = Schema.Literal(
  ...(ids as [CheckId, ...Array<CheckId>])
).annotations({
  identifier: "CheckId"
})
