/**
 * Fault injection: latency, transient errors, proxy answers, dropped connections and a catalogue
 * of contract violations, switchable per method and deterministic under a seed.
 *
 * @since 0.1.0
 */
import { ContractChecks, ContractRules, Operations } from "@data-access/schema"
import * as Schema from "effect/Schema"
import { prng } from "./internal/random.js"

/**
 * The contract-test check that must catch a violation (`ContractChecks` of the schema package).
 *
 * @since 0.1.0
 * @category violations
 */
export const CheckId = ContractChecks.CheckIdSchema

/**
 * @since 0.1.0
 * @category violations
 */
export type CheckId = ContractChecks.CheckId

/**
 * One contract violation: the rule of `ContractRules` it breaks (and nothing else, as far as it
 * can), the contract-test check that reports it (the rule's check) and what it does.
 *
 * @since 0.2.0
 * @category violations
 */
export interface Violation<N extends string = string> {
  readonly name: N
  readonly rule: ContractRules.RuleId
  /** The check of `rule` (`ContractRules.get(rule).check`). */
  readonly check: CheckId
  readonly description: string
}

const violation = <const N extends string>(name: N, rule: ContractRules.RuleId, description: string): Violation<N> => ({
  name,
  rule,
  check: ContractRules.get(rule).check,
  description
})

/**
 * The catalogue of contract violations: each breaks one rule of `ContractRules.rules` where it
 * applies, and every rule names the violation that breaks it.
 *
 * @since 0.1.0
 * @category violations
 */
export const violations = [
  // no-server-errors
  violation("server-error-on-unknown-field", "errors.no-internal-for-client-faults", "A request with a field the operation does not know gets 500 internal."),
  // success-shape
  violation("success-content-type", "wire.success", "Successful responses say `Content-Type: text/plain`."),
  // error-shape
  violation("invalid-error-body", "errors.connect-body", "Error bodies are `{\"error\": \"...\"}` without a Connect `code`."),
  violation("wrong-status-for-code", "errors.status-agrees", "Errors carry an HTTP status that disagrees with their code (400 becomes 409, anything else 400)."),
  violation("rate-limit-without-retry-after", "errors.retry-after", "Every 20th request to a known route is rate limited: resource_exhausted (429) without `Retry-After`."),
  violation("unknown-id-invalid", "errors.unknown-id", "A Get or Update whose `id` names nothing answers invalid_argument instead of not_found."),
  violation(
    "unknown-reference-accepted",
    "errors.unknown-reference",
    "Referenced ids that name nothing are accepted (CreateConnector `spaceId`, CreateDataDiscoveryConfiguration `resourceId` / `nativeUserId`, CreateNativeUserIdentityLink `nativeUserId` / `identityId`, UpdateSatellite `spaceId`); CreateHumanUserPassword for an unknown user answers for the first user."
  ),
  // secrets
  violation("secret-in-error", "secrets.not-in-errors", "invalid_argument error messages quote the request body as received, secret fields (`apiKey`, `apiSecret`, `certificate`, `privateKey`, `password`...) included."),
  // response-schema
  violation("missing-required-field", "response.schema", "The returned object has no `id` (HumanUserPassword: no `password`)."),
  violation("wrong-field-type", "response.field-types", "The returned object's `id` (HumanUserPassword: `username`) is a JSON number."),
  violation("non-utc-timestamp", "timestamps.utc-z", "`createdAt` is written with a `+02:00` offset instead of `Z`."),
  violation("timestamp-fraction-digits", "timestamps.fraction-digits", "`createdAt` of the object a Get, create or update returns is written with 2 fractional digits (`...:00.12Z`)."),
  violation("int64-as-number", "int64.as-string", "`relativeTime` of saved log queries is written as a JSON number."),
  // timestamps
  violation("created-at-in-future", "timestamps.past", "`createdAt` of returned objects is one day after the response time."),
  violation("expires-at-in-past", "timestamps.expires-future", "CreateHumanUserPassword's `expiresAt` is one hour before the response time."),
  // valid-accepted
  violation("rejects-unknown-field", "wire.unknown-fields-ignored", "A request with a field the operation does not know gets invalid_argument."),
  violation("rejects-snake-case", "wire.snake-case", "A request that names one of its fields in snake_case (`resource_id`) gets invalid_argument."),
  violation("rejects-null", "wire.null-is-unset", "A request with `null` for a field gets invalid_argument."),
  violation("requires-optional-field", "fields.valid-accepted", "A create or update that leaves out an optional field gets invalid_argument."),
  violation("limit-off-by-one", "lists.limit-accepted", "`limit: 500` gets invalid_argument."),
  // invalid-rejected
  violation("ignored-min-length", "fields.min-length", "Strings under their min length (1; 9 for `workerSchedule`) are accepted, padded with `x`."),
  violation("ignored-limit-range", "lists.limit-range", "List `limit` outside 1 to 500 (or absent) is clamped instead of rejected."),
  violation("ignored-enum", "fields.enum", "A request enum value outside its list (`status`, `workerRuntime`, `deletionPolicy`, `identityType`, `order`, `searchFields` entries) is taken as the first listed value."),
  violation("ignored-json-type", "fields.json-type", "An optional request field of the wrong JSON type is taken as not set, and a fractional `limit` is truncated."),
  violation("ignored-required", "fields.required", "A missing or `null` required string field is taken as `\"missing\"` (a required object as `{}`, a missing `limit` as 100)."),
  violation("ignored-one-of", "fields.one-of", "CreateHumanUserPassword with two or none of `email`, `username`, `id` uses the first one set (none: the first user)."),
  violation("ignored-connector-name-pattern", "fields.connector-name", "CreateConnector accepts any non-empty `name`."),
  violation("empty-body-accepted", "wire.empty-body", "A zero-length body is read as `{}`, its required fields taken as `ignored-required` takes them."),
  violation("non-object-body-accepted", "wire.json-object-body", "A body that is malformed JSON, an array or a string is read as `{}`, its required fields taken as `ignored-required` takes them."),
  violation("unknown-cursor-accepted", "lists.unknown-cursor", "A cursor the server never gave starts at the first page."),
  violation("unknown-filter-key-accepted", "filter.unknown-key", "A filter condition with an unknown key or operator matches every item."),
  violation("empty-group-accepted", "filter.group-not-empty", "A filter group with no filters matches every item."),
  // auth
  violation("auth-ignored", "auth.key-required", "A missing, empty or unknown `X-API-KEY` is accepted."),
  // protocol
  violation("wrong-method-accepted", "protocol.method", "Other HTTP methods than POST are served instead of answered 405."),
  violation("unknown-route-wrong-code", "protocol.unknown-route", "Unknown routes get 404 with the code not_found instead of unimplemented."),
  violation("content-type-ignored", "protocol.content-type", "Requests with another content type than `application/json` are served as JSON instead of answered 415."),
  violation("version-header-ignored", "protocol.version-header", "CreatePermission is served without `Connect-Protocol-Version` (or with another value)."),
  violation("small-body-limit", "protocol.body-limit", "Bodies over 64 KiB get resource_exhausted."),
  violation("deadline-wrong-code", "protocol.deadline", "A call with `Connect-Timeout-Ms` under 100 answers canceled (499) at once; a passed deadline answers canceled instead of deadline_exceeded."),
  // create-echo
  violation("create-not-echoed", "echo.create", "A create's response changes a string field it was sent (`name`, `description`, ...)."),
  violation("identity-link-wrong-group", "echo.identity-group", "CreateNativeUserIdentityLink with `identityType: group` returns the link without its `group`."),
  // update-semantics
  violation("update-ignored", "updates.apply", "Updates change nothing and return the object as it was."),
  violation("update-clears-unsent", "updates.partial", "An update that sends a field resets every field it was not sent to its zero value (`id`, `createdAt`, `updatedAt` and nested objects aside); one that sends only its id changes nothing."),
  violation("update-null-clears", "updates.null-unchanged", "A field sent as `null` in an update is reset to its zero value."),
  violation("update-not-stored", "updates.stored", "An update returns the changed object but stores nothing."),
  violation("updated-at-not-moved", "updates.updated-at", "Updates keep the old `updatedAt`."),
  // paging
  violation("paging-count-mismatch", "lists.count", "`listMetadata.count` is one more than the number of items."),
  violation("limit-exceeded", "lists.limit-respected", "Pages hold `limit` + 1 items when there are that many."),
  violation("paging-duplicates", "lists.walk-once", "`nextCursor` points one item back, so the next page repeats the last item."),
  violation("paging-skips", "lists.walk-complete", "`nextCursor` points one item ahead, so each next page skips an item."),
  violation("next-cursor-on-last-page", "lists.next-cursor", "The last page carries a `nextCursor`, which leads to an empty page."),
  violation("after-before-swapped", "lists.after-before", "`listMetadata.after` and `before` are swapped."),
  violation("order-ignored", "lists.order", "`order: desc` is ignored; pages are always ascending."),
  // search-filter
  violation("search-ignored", "search.match", "`search` is ignored."),
  violation("search-case-sensitive", "search.case-insensitive", "`search` compares case-sensitively."),
  violation("search-fields-ignored", "search.fields", "`search` looks only in `name`, whatever `searchFields` says."),
  violation("filter-ignored", "filter.match", "`filter` is ignored."),
  violation("filter-or-as-and", "filter.group-operator", "A filter group with `operator: or` is evaluated as `and`."),
  violation("space-filter-ignored", "lists.space-scope", "ListSatellites ignores `spaceId`."),
  violation("key-id-ignored", "keys.by-key-id", "GetEncryptionKeysByKeyId returns every key, whatever `keyId` says."),
  // stable-reads
  violation("get-wrong-object", "reads.named-object", "A Get of an existing id returns another object of the same collection (the first one that is not it)."),
  violation("unstable-read", "reads.stable", "Each Get returns a fresh `updatedAt`, so two reads differ.")
] as const

/**
 * A violation's name.
 *
 * @since 0.1.0
 * @category violations
 */
export type ViolationName = (typeof violations)[number]["name"]

/**
 * @since 0.1.0
 * @category violations
 */
export const ViolationName = Schema.Literal(...violations.map((v) => v.name)) as Schema.Schema<ViolationName>

const MethodName = Schema.Literal(...(Operations.all.map((o) => o.method) as [Operations.MethodName, ...Array<Operations.MethodName>]))

/**
 * One fault.
 *
 * @since 0.1.0
 * @category models
 */
export const Fault = Schema.Union(
  Schema.TaggedStruct("Latency", { millis: Schema.NonNegative }),
  Schema.TaggedStruct("Unavailable", {}),
  Schema.TaggedStruct("RateLimited", { retryAfterSeconds: Schema.NonNegativeInt }),
  Schema.TaggedStruct("BareStatus", { status: Schema.Int.pipe(Schema.between(100, 599)) }),
  Schema.TaggedStruct("DropConnection", { when: Schema.Literal("before-handling", "after-handling") }),
  Schema.TaggedStruct("Violation", { name: ViolationName })
).annotations({ identifier: "Fault" })

/**
 * @since 0.1.0
 * @category models
 */
export type Fault = typeof Fault.Type

/**
 * When a fault fires: for some methods (all when absent), with a probability drawn from the
 * plan's seeded generator, at most `times` times.
 *
 * @since 0.1.0
 * @category models
 */
export const FaultRule = Schema.Struct({
  methods: Schema.optional(Schema.Array(MethodName)),
  fault: Fault,
  probability: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))),
  times: Schema.optional(Schema.NonNegativeInt)
}).annotations({ identifier: "FaultRule" })

/**
 * @since 0.1.0
 * @category models
 */
export interface FaultRule extends Schema.Schema.Type<typeof FaultRule> {}

/**
 * A fault plan: rules checked in order on every request to a known operation.
 *
 * @example
 * ```ts
 * import { Faults, ReferenceServer } from "@data-access/reference-server"
 * import { Effect } from "effect"
 *
 * // GetResource answers 300 ms late; ListNativeUsers repeats an item across pages, twice
 * const plan: Faults.FaultPlan = {
 *   rules: [
 *     { methods: ["GetResource"], fault: { _tag: "Latency", millis: 300 } },
 *     { methods: ["ListNativeUsers"], fault: { _tag: "Violation", name: "paging-duplicates" }, times: 2 }
 *   ]
 * }
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const server = yield* ReferenceServer.start({ faults: plan })
 *   yield* server.setFaults(Faults.none) // a faithful server again
 * }))
 * ```
 *
 * @since 0.1.0
 * @category models
 */
export const FaultPlan = Schema.Struct({
  seed: Schema.optional(Schema.Int),
  rules: Schema.Array(FaultRule)
}).annotations({ identifier: "FaultPlan" })

/**
 * @since 0.1.0
 * @category models
 */
export interface FaultPlan extends Schema.Schema.Type<typeof FaultPlan> {}

/**
 * No faults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const none: FaultPlan = { rules: [] }

/**
 * Reads a fault plan from JSON text.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeJson = Schema.decodeUnknown(Schema.parseJson(FaultPlan), { errors: "all" })

/**
 * What fires on one request.
 *
 * @since 0.1.0
 * @category models
 */
export interface Decision {
  readonly latencyMillis: number
  /** The first transient, proxy or drop fault that fired. */
  readonly terminal: Exclude<Fault, { readonly _tag: "Latency" | "Violation" }> | undefined
  readonly violations: ReadonlySet<ViolationName>
}

const noViolations: ReadonlySet<ViolationName> = new Set()

/**
 * No fault fires.
 *
 * @since 0.1.0
 * @category models
 */
export const nothing: Decision = { latencyMillis: 0, terminal: undefined, violations: noViolations }

/**
 * A fault plan in action: its generator and how often each rule fired.
 *
 * @since 0.1.0
 * @category models
 */
export interface Injector {
  /**
   * What fires on a request to an operation. For a path that names no operation (`undefined`),
   * only the violations of rules without `methods` fire (`unknown-route-wrong-code`).
   */
  readonly decide: (method: Operations.MethodName | undefined) => Decision
}

/**
 * Starts a fault plan. Under the same seed, the same sequence of requests gets the same faults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeInjector = (plan: FaultPlan): Injector => {
  if (plan.rules.length === 0) return { decide: () => nothing }
  const random = prng(plan.seed ?? 1)
  const fired = plan.rules.map(() => 0)
  return {
    decide: (method) => {
      let latencyMillis = 0
      let terminal: Decision["terminal"] = undefined
      let active: Set<ViolationName> | undefined
      plan.rules.forEach((rule, i) => {
        if (rule.methods && (method === undefined || !rule.methods.includes(method))) return
        if (method === undefined && rule.fault._tag !== "Violation") return
        if (rule.times !== undefined && fired[i]! >= rule.times) return
        if (rule.probability !== undefined && rule.probability < 1 && random() >= rule.probability) return
        const fault = rule.fault
        switch (fault._tag) {
          case "Latency":
            latencyMillis += fault.millis
            break
          case "Violation":
            ;(active ??= new Set()).add(fault.name)
            break
          default:
            if (terminal !== undefined) return
            terminal = fault
        }
        fired[i] = fired[i]! + 1
      })
      return { latencyMillis, terminal, violations: active ?? noViolations }
    }
  }
}
