/**
 * The code of the `Faults` module, which re-exports it.
 */
import { ContractChecks, ContractRules, Operations } from "@data-access/schema"
import * as Schema from "effect/Schema"
import { prng } from "./random.js"
import * as Catalogue from "./violations/index.js"

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

/**
 * The catalogue of contract violations: each breaks one rule of `ContractRules.rules` where it
 * applies, and every rule names the violation that breaks it. One record per violation, with the
 * hooks that make it, lives in the server's internal catalogue; this is its public part.
 *
 * @since 0.1.0
 * @category violations
 */
export const violations: ReadonlyArray<Violation<ViolationName>> = Catalogue.records.map(
  ({ description, name, rule }) => ({
    name,
    rule,
    check: ContractRules.get(rule).check,
    description
  })
)

/**
 * A violation's name.
 *
 * @since 0.1.0
 * @category violations
 */
export type ViolationName = Catalogue.ViolationName

/**
 * @since 0.1.0
 * @category violations
 */
export const ViolationName = Schema.Literal(
  ...violations.map((v) => v.name)
) as Schema.Schema<ViolationName>

const MethodName = Schema.Literal(
  ...(Operations.all.map((o) => o.method) as [
    Operations.MethodName,
    ...Array<Operations.MethodName>
  ])
)

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
  Schema.TaggedStruct("DropConnection", {
    when: Schema.Literal("before-handling", "after-handling")
  }),
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
        if (rule.probability !== undefined && rule.probability < 1 && random() >= rule.probability)
          return
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
