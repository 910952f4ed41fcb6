/**
 * Fault injection: latency, transient errors, proxy answers, dropped connections and a catalogue
 * of contract violations, switchable per method and deterministic under a seed.
 *
 * @since 0.1.0
 */
import { ContractChecks, Operations } from "@data-access/schema"
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
 * The catalogue of contract violations: each breaks one rule, where it applies, and names the
 * check that must catch it.
 *
 * @since 0.1.0
 * @category violations
 */
export const violations = [
  { name: "wrong-field-type", check: "response-schema", description: "The returned object's `id` (HumanUserPassword: `username`) is a JSON number." },
  { name: "missing-required-field", check: "response-schema", description: "The returned object has no `id` (HumanUserPassword: no `password`)." },
  { name: "non-utc-timestamp", check: "response-schema", description: "`createdAt` is written with a `+02:00` offset instead of `Z`." },
  { name: "wrong-status-for-code", check: "error-shape", description: "Errors carry an HTTP status that disagrees with their code (400 becomes 409, anything else 400)." },
  { name: "invalid-error-body", check: "error-shape", description: "Error bodies are `{\"error\": \"...\"}` without a Connect `code`." },
  { name: "server-error-on-unknown-field", check: "no-server-errors", description: "A request with a field the operation does not know gets 500 internal." },
  { name: "rejects-unknown-field", check: "valid-accepted", description: "A request with a field the operation does not know gets invalid_argument." },
  { name: "ignored-min-length", check: "invalid-rejected", description: "Empty strings are accepted where the interface requires min length 1." },
  { name: "ignored-limit-range", check: "invalid-rejected", description: "List `limit` outside 1 to 500 (or absent) is clamped instead of rejected." },
  { name: "auth-ignored", check: "auth", description: "A missing, empty or unknown `X-API-KEY` is accepted." },
  { name: "wrong-method-accepted", check: "protocol", description: "Other HTTP methods than POST are served instead of answered 405." },
  { name: "success-content-type", check: "success-shape", description: "Successful responses say `Content-Type: text/plain`." },
  { name: "created-at-in-future", check: "timestamps", description: "`createdAt` of returned objects is one day after the response time." },
  { name: "expires-at-in-past", check: "timestamps", description: "CreateHumanUserPassword's `expiresAt` is one hour before the response time." },
  { name: "create-not-echoed", check: "create-echo", description: "A create's response changes a string field it was sent (`name`, `description`, ...)." },
  { name: "echo-secret", check: "create-echo", description: "CreateBIIntegration and CreateIntegrationMDM return the secrets they were sent." },
  { name: "update-ignored", check: "update-semantics", description: "Updates change nothing and return the object as it was." },
  { name: "updated-at-not-moved", check: "update-semantics", description: "Updates keep the old `updatedAt`." },
  { name: "paging-duplicates", check: "paging", description: "`nextCursor` points one item back, so the next page repeats the last item." },
  { name: "paging-count-mismatch", check: "paging", description: "`listMetadata.count` is one more than the number of items." },
  { name: "order-ignored", check: "paging", description: "`order: desc` is ignored; pages are always ascending." },
  { name: "search-ignored", check: "search-filter", description: "`search` is ignored." },
  { name: "filter-ignored", check: "search-filter", description: "`filter` is ignored." },
  { name: "unstable-read", check: "stable-reads", description: "Each Get returns a fresh `updatedAt`, so two reads differ." }
] as const satisfies ReadonlyArray<{ readonly name: string; readonly check: CheckId; readonly description: string }>

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
  readonly decide: (method: Operations.MethodName) => Decision
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
        if (rule.methods && !rule.methods.includes(method)) return
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
