/**
 * The code of the `Filter` module, which re-exports it.
 */
import * as Schema from "effect/Schema"
import { states } from "./ruleAnnotations.js"
import { opt } from "./primitives.js"

/**
 * The ten comparison operators.
 *
 * @since 0.1.0
 * @category filters
 */
export const Operator = Schema.Literal(
  "equals",
  "not_equals",
  "contains",
  "not_contains",
  "empty",
  "not_empty",
  "starts_with",
  "ends_with",
  "lower_than",
  "greater_than"
  // decisions.md section 3: "An unknown key or operator is invalid_argument".
).annotations(states("filter.unknown-key"))
/**
 * @since 0.1.0
 * @category filters
 */
export type Operator = typeof Operator.Type

/**
 * @since 0.1.0
 * @category filters
 */
export const GroupOperator = Schema.Literal("and", "or")

/**
 * @since 0.1.0
 * @category filters
 */
export const STRING_VALUE_TYPE = "type.googleapis.com/google.protobuf.StringValue"

/**
 * A `google.protobuf.Any` holding a `StringValue`.
 *
 * @since 0.1.0
 * @category filters
 */
export const StringValue = Schema.Struct({
  "@type": Schema.Literal(STRING_VALUE_TYPE),
  value: Schema.optionalWith(Schema.String, { default: () => "" })
}).annotations({ identifier: "StringValue" })

/**
 * @since 0.1.0
 * @category filters
 */
export interface Condition<K extends string> {
  readonly key: K
  readonly operator: Operator
  readonly value?: { readonly "@type": typeof STRING_VALUE_TYPE; readonly value: string }
}
/**
 * @since 0.1.0
 * @category filters
 */
export interface ConditionEncoded<K extends string> {
  readonly key: K
  readonly operator: Operator
  readonly value?: {
    readonly "@type": typeof STRING_VALUE_TYPE
    readonly value?: string | undefined
  } | null
}

/**
 * @since 0.1.0
 * @category filters
 */
export type Filter<K extends string> =
  | { readonly field: Condition<K> }
  | Empty
  | {
      readonly group: {
        readonly operator: "and" | "or"
        readonly filters: readonly [Filter<K>, ...Array<Filter<K>>]
      }
    }

/**
 * @since 0.1.0
 * @category filters
 */
export type FilterEncoded<K extends string> =
  | { readonly field: ConditionEncoded<K>; readonly group?: null }
  | { readonly field?: null | undefined; readonly group?: null | undefined }
  | {
      readonly field?: null
      readonly group: {
        readonly operator: "and" | "or"
        readonly filters: readonly [FilterEncoded<K>, ...Array<FilterEncoded<K>>]
      }
    }

/**
 * An empty filter: `{}`, or `field` and `group` both absent or `null`. The documents leave its
 * meaning open (decisions.md section 10): a server may match every item or reject it.
 *
 * @since 0.2.0
 * @category filters
 */
export interface Empty {
  readonly field?: undefined
  readonly group?: undefined
}

/**
 * Whether a filter is empty (neither a condition nor a group).
 *
 * @since 0.2.0
 * @category filters
 */
export const isEmpty = <K extends string>(filter: Filter<K>): filter is Empty =>
  !("field" in filter && filter.field !== undefined) &&
  !("group" in filter && filter.group !== undefined)

/**
 * Operators that compare against no value.
 *
 * @since 0.1.0
 * @category filters
 */
export const valueless: ReadonlySet<Operator> = new Set(["empty", "not_empty"])

/**
 * The other member of a filter's one-of, beside a condition or a group: absent or `null` (not
 * set). A filter is either one condition or a group (decisions.md section 3), and two variants of
 * a one-of at once is invalid_argument (section 2), as proto3 JSON reads a `oneof`.
 */
const Unset = opt(
  Schema.Never.annotations({
    ...states("filter.one-of"),
    title: "not set",
    // Never drawn nor compared: a decoded filter never holds it.
    arbitrary: () => (fc) => fc.constant(null as never),
    equivalence: () => () => true,
    message: () => ({
      message: "a filter is either a condition or a group, not both",
      override: true
    })
  })
)

/**
 * The filter schema for a list whose objects have the given snake_case keys.
 *
 * @since 0.1.0
 * @category filters
 */
export const make = <const K extends readonly [string, ...Array<string>]>(
  keys: K,
  identifier: string
): Schema.Schema<Filter<K[number]>, FilterEncoded<K[number]>> => {
  const Key = Schema.Literal(...keys).annotations({
    ...states("filter.unknown-key"),
    message: () => ({
      message: `must be one of the filter keys ${keys.join(", ")}`,
      override: true
    })
  })
  // `value` is absent for `empty` / `not_empty`; for the others the documents do not say that
  // it is required, so an absent value reads as the empty string.
  const ConditionSchema = Schema.Struct({
    key: Key,
    operator: Operator,
    value: opt(StringValue)
  }).annotations({ identifier: `${identifier}Condition` })
  const self: Schema.Schema<Filter<K[number]>, FilterEncoded<K[number]>> = Schema.Union(
    Schema.Struct({ field: ConditionSchema, group: Unset }),
    Schema.Struct({
      field: Unset,
      group: Schema.Struct({
        operator: GroupOperator,
        filters: Schema.NonEmptyArray(Schema.suspend(() => self)).annotations({
          ...states("filter.group-not-empty"),
          // Only an empty array gets this message; a bad filter inside keeps its own.
          message: (issue) => ({
            message: "a group needs at least one filter",
            override: Array.isArray(issue.actual) && issue.actual.length === 0
          })
        })
      })
    }),
    // Last: its type side (an object with no field) matches any object when encoding.
    Schema.Struct({
      field: Schema.optional(Schema.Null),
      group: Schema.optional(Schema.Null)
    }).pipe(
      Schema.transform(Schema.Struct({}), { strict: false, decode: () => ({}), encode: () => ({}) })
    )
  ).annotations({
    identifier,
    arbitrary: () => (fc) => {
      const condition = fc
        .record({
          key: fc.constantFrom(...keys),
          operator: fc.constantFrom(...Operator.literals),
          v: fc.string({ maxLength: 8 })
        })
        .map(({ key, operator, v }) => ({
          field: valueless.has(operator)
            ? { key, operator }
            : { key, operator, value: { "@type": STRING_VALUE_TYPE, value: v } as const }
        }))
      const tree = fc.letrec<{ f: Filter<K[number]> }>((tie) => ({
        f: fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          condition,
          fc.record({
            group: fc.record({
              operator: fc.constantFrom("and" as const, "or" as const),
              filters: fc.array(tie("f"), {
                minLength: 1,
                maxLength: 3
              }) as unknown as import("effect/FastCheck").Arbitrary<
                readonly [Filter<K[number]>, ...Array<Filter<K[number]>>]
              >
            })
          })
        )
      }))
      return tree.f
    }
  })
  return self
}

/**
 * Options of `evaluate`.
 *
 * @since 0.2.0
 * @category filters
 */
export interface EvaluateOptions {
  /**
   * Compare the string operators (`equals`, `not_equals`, `contains`, `not_contains`,
   * `starts_with`, `ends_with`) without regard to case. Default false: case-sensitive. The
   * documents leave the case open (decisions.md section 10); `search` is always case-insensitive.
   */
  readonly caseInsensitive?: boolean | undefined
}

/**
 * A string operator (`equals`, `not_equals`, `contains`, `not_contains`, `starts_with`,
 * `ends_with`) on a field's text and the filter's value, both already in the case compared;
 * `undefined` for the other operators.
 *
 * @since 0.5.0
 * @category filters
 */
export const textHolds = (
  operator: Operator,
  actual: string,
  expected: string
): boolean | undefined => {
  switch (operator) {
    case "equals":
      return actual === expected
    case "not_equals":
      return actual !== expected
    case "contains":
      return actual.includes(expected)
    case "not_contains":
      return !actual.includes(expected)
    case "starts_with":
      return actual.startsWith(expected)
    case "ends_with":
      return actual.endsWith(expected)
    default:
      return undefined
  }
}

/**
 * Evaluates a filter against an object's snake_case field values (strings; timestamps as their
 * RFC 3339 text). The string operators compare case-sensitively unless `options.caseInsensitive`;
 * `lower_than` / `greater_than` compare strings, or instants where `compareTimestamps` says how.
 * An empty filter matches every object.
 *
 * @since 0.1.0
 * @category filters
 */
export const evaluate = <K extends string>(
  filter: Filter<K>,
  get: (key: K) => string,
  compareTimestamps: (key: K, a: string, b: string) => number | undefined = () => undefined,
  options?: EvaluateOptions
): boolean => {
  if (isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined) {
    const results = filter.group.filters.map((f) => evaluate(f, get, compareTimestamps, options))
    return filter.group.operator === "and" ? results.every(Boolean) : results.some(Boolean)
  }
  const { key, operator } = filter.field
  const actual = get(key)
  const expected = filter.field.value?.value ?? ""
  const compare = () =>
    compareTimestamps(key, actual, expected) ?? (actual < expected ? -1 : actual > expected ? 1 : 0)
  switch (operator) {
    case "empty":
      return actual === ""
    case "not_empty":
      return actual !== ""
    case "lower_than":
      return compare() < 0
    case "greater_than":
      return compare() > 0
    default:
      return options?.caseInsensitive === true
        ? textHolds(operator, actual.toLowerCase(), expected.toLowerCase()) === true
        : textHolds(operator, actual, expected) === true
  }
}
