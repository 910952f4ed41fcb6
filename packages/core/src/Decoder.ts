/**
 * A compiled decoder, written once for both Effect lines. Each line describes its schema as a
 * plain `Node` (the shapes its parser knows: strings, literals, structs with their optional keys
 * and defaults, arrays, unions, transformations, checks, redacted values, recursion) and hands
 * anything else to its own parser (`Native`). `compile` turns the description into functions,
 * one generated function per struct with a block of straight-line code per field, that return the
 * decoded value or `FAIL`. On `FAIL` the caller decodes again with the line's parser, which gives
 * the error; the description must make the fast path accept exactly what that parser accepts and
 * return an equal value.
 *
 * @since 0.1.0
 */
import * as compiler from "./internal/decoder/compiler.js"
import * as internal from "./internal/decoder/node.js"

/**
 * What a decoder returns for an input it rejects.
 *
 * @since 0.1.0
 * @category symbols
 */
export const FAIL: unique symbol = internal.FAIL

/**
 * The value of a struct's key that is not there, as the steps of its field see it: most steps
 * pass it on; an `OptionalMap` may turn it into a value (a default). A field that ends `ABSENT` is
 * left out, or fails when it is not optional.
 *
 * @since 0.1.0
 * @category symbols
 */
export const ABSENT: unique symbol = internal.ABSENT

/**
 * A compiled decoder: the decoded value, or `FAIL`.
 *
 * @since 0.1.0
 * @category models
 */
export type Decode = (input: unknown) => unknown

/**
 * A schema, described for the compiler. Every node decodes a present value; `Pipe` runs nodes in
 * order, each on the previous one's output.
 *
 * - `String`, `Number`, `Boolean`, `BigInt`, `Null`, `Undefined`: a value of that `typeof` (or `null`).
 * - `Unknown`: any value; `NotNullish`: any value but `null` and `undefined` (an empty struct).
 * - `Literals`: one of `values` (`===`).
 * - `Union`: the first member that accepts the value.
 * - `Array`: an array, each item decoded by `item`, into a new array.
 * - `Struct`: an object (not an array); each field's value read (see `Field`), decoded by its
 *   node, and written to a new object in the order of `fields`; other keys are left out.
 * - `Record`: an object; the value of each of its own enumerable string keys decoded by `value`,
 *   written to a new object (`assign`: `"set"` writes `out[key] = v`, `__proto__` included;
 *   `"define"` defines a `__proto__` key as a property).
 * - `Refine`: the value, when `test` holds for it.
 * - `Map`: `map(value)`, which returns `FAIL` to reject (or throws: the fast path gives up).
 * - `OptionalMap`: the line's transformation of an optional value (`map`, over the line's own
 *   `Option`, described by `option`): `option.none` for `ABSENT` (a field whose key is not there),
 *   `option.some(value)` for a value; it returns an `Option` (a none is `ABSENT`, or `undefined`
 *   when `none` is `"undefined"`) or `FAIL`. A present value other than `undefined` and `null` that `map` keeps (returns
 *   as it is) goes on without `then`; any other value it returns (a default) is decoded by `then`
 *   (`Unknown` when it needs no decoding). `then` is thus for what a kept value already satisfies.
 * - `Redacted`: a redacted value (`kit.isRedacted`) whose content (`kit.get`) `value` accepts; the
 *   result is a new redacted value (`kit.make(content, input)`), or the input itself when the
 *   compiler knows it was made during this decode (the schema's parser makes a new one either way:
 *   no two decodes share one).
 * - `Lazy`: the node `get()` returns (recursive schemas); for an absent key the fast path gives up.
 * - `Native`: the line's own parser (`decode`: the value or `FAIL`); `absent` says whether it
 *   passes `ABSENT` on (`"pass"`) or cannot decide for it (`"fail"`: the fast path gives up).
 *
 * @since 0.1.0
 * @category models
 */
export type Node =
  | {
      readonly _tag:
        "String" | "Number" | "Boolean" | "BigInt" | "Null" | "Undefined" | "Unknown" | "NotNullish"
    }
  | { readonly _tag: "Literals"; readonly values: ReadonlyArray<unknown> }
  | { readonly _tag: "Union"; readonly members: ReadonlyArray<Node> }
  | { readonly _tag: "Array"; readonly item: Node }
  | { readonly _tag: "Struct"; readonly fields: ReadonlyArray<Field> }
  | { readonly _tag: "Record"; readonly value: Node; readonly assign: "set" | "define" }
  | { readonly _tag: "Refine"; readonly test: (value: unknown) => boolean }
  | { readonly _tag: "Map"; readonly map: (value: unknown) => unknown }
  | {
      readonly _tag: "OptionalMap"
      readonly map: (option: unknown) => unknown
      readonly option: OptionKit
      readonly none?: "absent" | "undefined"
      readonly then: Node
    }
  | { readonly _tag: "Redacted"; readonly value: Node; readonly kit: RedactedKit }
  | { readonly _tag: "Pipe"; readonly steps: ReadonlyArray<Node> }
  | { readonly _tag: "Lazy"; readonly get: () => Node }
  | { readonly _tag: "Native"; readonly decode: Decode; readonly absent: "pass" | "fail" }

/**
 * A field of a `Struct`: its key; how its value is read (`read`: `"own"`, `ABSENT` unless it is an
 * own property; `"in"`, `ABSENT` unless the `in` operator sees it, inherited or own (an own one
 * for `__proto__`); `"always"`, the property's value, `undefined` when there is none); the node
 * that decodes the value (or `ABSENT`); and whether the key may be left out of the result
 * (`optional`): a required field that ends `ABSENT` fails.
 *
 * @since 0.1.0
 * @category models
 */
export interface Field {
  readonly key: string
  readonly read: "own" | "in" | "always"
  readonly node: Node
  readonly optional: boolean
}

/**
 * A line's `Option`: its none, how to make a some, and how to read one.
 *
 * @since 0.1.0
 * @category models
 */
export interface OptionKit {
  readonly none: unknown
  readonly some: (value: unknown) => unknown
  readonly isNone: (option: unknown) => boolean
  readonly value: (option: unknown) => unknown
}

/**
 * An `OptionKit` for an Option that is `none` or an object `{ _tag: "Some", value }`, as both
 * Effect lines' are.
 *
 * @since 0.1.0
 * @category constructors
 */
export const taggedOption: (none: unknown, some: (value: unknown) => unknown) => OptionKit =
  internal.taggedOption

/**
 * A line's redacted values: the guard, the content, and how a decode makes a new one from a
 * content and the redacted value it came from.
 *
 * @since 0.1.0
 * @category models
 */
export interface RedactedKit {
  readonly isRedacted: (u: unknown) => boolean
  readonly get: (redacted: any) => unknown
  readonly make: (content: unknown, from: any) => unknown
}

/**
 * A line's describer of its schema nodes, each node described once (cycles go through `Lazy`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const describer: <A extends object>(describe: (a: A) => Node) => (a: A) => Node =
  internal.describer

/**
 * The steps of a node, `Pipe`s flattened.
 *
 * @since 0.1.0
 * @category models
 */
export const steps: (node: Node) => ReadonlyArray<Node> = internal.steps

/**
 * A `Pipe` of the given nodes (the node itself when there is one).
 *
 * @since 0.1.0
 * @category constructors
 */
export const pipe: (...nodes: ReadonlyArray<Node>) => Node = internal.pipe

/**
 * Compiles a described schema to a decoder: the decoded value, or `FAIL` (then decode again with
 * the line's parser for its error). Compiles each node once; code is generated with
 * `new Function` where that is allowed, closures otherwise.
 *
 * @since 0.1.0
 * @category compiling
 */
export const compile: (node: Node) => Decode = compiler.compileGenerated

/**
 * The same compiler without code generation (closures only), for tests and for hosts that forbid
 * `new Function`.
 *
 * @since 0.1.0
 * @category compiling
 */
export const compileClosures: (node: Node) => Decode = compiler.compileClosures
