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

/**
 * What a decoder returns for an input it rejects.
 *
 * @since 0.1.0
 * @category symbols
 */
export const FAIL: unique symbol = Symbol.for("@data-access/core/Decoder/FAIL")

/**
 * The value of a struct's key that is not there, as the steps of its field see it: most steps
 * pass it on; an `OptionalMap` may turn it into a value (a default). A field that ends `ABSENT` is
 * left out, or fails when it is not optional.
 *
 * @since 0.1.0
 * @category symbols
 */
export const ABSENT: unique symbol = Symbol.for("@data-access/core/Decoder/ABSENT")

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
export const taggedOption = (none: unknown, some: (value: unknown) => unknown): OptionKit => ({
  none,
  some,
  isNone: (o) => (o as { readonly _tag: string })._tag === "None",
  value: (o) => (o as { readonly value: unknown }).value
})

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
export const describer = <A extends object>(describe: (a: A) => Node): ((a: A) => Node) => {
  const cache = new WeakMap<A, Node>()
  return (a) => {
    let node = cache.get(a)
    if (node === undefined) {
      node = describe(a)
      cache.set(a, node)
    }
    return node
  }
}

type OptionalMap = Extract<Node, { readonly _tag: "OptionalMap" }>

const valueMaps = new WeakMap<OptionalMap, (value: unknown) => unknown>()

/** An `OptionalMap` over values: `ABSENT` or a value in, `ABSENT`, a value or `FAIL` out. */
const valueMap = (node: OptionalMap): ((value: unknown) => unknown) => {
  let f = valueMaps.get(node)
  if (f === undefined) {
    const { map, option } = node
    const none = node.none === "undefined" ? undefined : ABSENT
    f = (u) => {
      const o = map(u === ABSENT ? option.none : option.some(u))
      return o === FAIL ? FAIL : option.isNone(o) ? none : option.value(o)
    }
    valueMaps.set(node, f)
  }
  return f
}

/**
 * The steps of a node, `Pipe`s flattened.
 *
 * @since 0.1.0
 * @category models
 */
export const steps = (node: Node): ReadonlyArray<Node> =>
  node._tag === "Pipe" ? node.steps.flatMap(steps) : [node]

/**
 * A `Pipe` of the given nodes (the node itself when there is one).
 *
 * @since 0.1.0
 * @category constructors
 */
export const pipe = (...nodes: ReadonlyArray<Node>): Node => {
  const all = nodes.flatMap(steps)
  return all.length === 1 ? all[0]! : { _tag: "Pipe", steps: all }
}

// ---------------------------------------------------------------------------------------------
// Static facts about nodes
// ---------------------------------------------------------------------------------------------

/**
 * Whether the output of `node` may be an object that existed before this decode (a value of the
 * input, or one a transformation keeps somewhere), given whether its input may be. A primitive
 * counts as new: it has no identity to share. Only `Redacted` asks, to avoid making a second
 * redacted value where the parser's first one is new anyway.
 */
const sharedAfter = (node: Node, shared: boolean): boolean => {
  switch (node._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "BigInt":
    case "Null":
    case "Undefined":
    case "Literals":
    case "Array":
    case "Struct":
    case "Record":
    case "Redacted":
      return false
    case "Unknown":
    case "NotNullish":
    case "Refine":
      return shared
    case "Map":
      return !makesFresh(node.map)
    case "OptionalMap":
      // A kept value is the input; a made one went through `then`, which saw a possibly shared one.
      return shared || sharedAfter(node.then, !makesNew(valueMap(node)))
    case "Union":
      return node.members.some((member) => sharedAfter(member, shared))
    case "Pipe":
      return node.steps.reduce((s, step) => sharedAfter(step, s), shared)
    case "Lazy":
    case "Native":
      return true
  }
}

const madeNew = new WeakMap<object, boolean>()
const fresh = new WeakMap<object, boolean>()
const identity = new WeakMap<object, boolean>()
const kept = new WeakMap<object, boolean>()
const memo = <K extends object>(
  table: WeakMap<object, boolean>,
  key: K,
  probe: (key: K) => boolean
): boolean => {
  let known = table.get(key)
  if (known === undefined) table.set(key, (known = probe(key)))
  return known
}

/**
 * Whether the fast path gives up on `ABSENT` before this node: the line's parser that cannot
 * decide for an absent key, and a recursive node (whose target may have defaults of its own).
 */
const givesUpOnAbsent = (node: Node): boolean =>
  (node._tag === "Native" && node.absent === "fail") || node._tag === "Lazy"

/** Whether `map` returns every value, `ABSENT`, `undefined` and `null` included, as it is (probed). */
const isIdentity = (map: (value: unknown) => unknown): boolean =>
  keepsPresent(map) &&
  memo(identity, map, (m) => [ABSENT, undefined, null].every((u) => m(u) === u))

const isPrimitive = (u: unknown): boolean =>
  (typeof u !== "object" && typeof u !== "function") || u === null

/**
 * Whether every value `map` makes for a key that is not there (`ABSENT`, and the `undefined` and
 * `null` a schema may read as not set) is new: a primitive, or a different object on each of two
 * calls (a default made per decode, not one kept by the schema).
 */
const makesNew = (map: (value: unknown) => unknown): boolean => memo(madeNew, map, probeMakesNew)

const probeMakesNew = (map: (value: unknown) => unknown): boolean => {
  try {
    return [ABSENT, undefined, null].every((input) => {
      const a = map(input)
      if (a === FAIL || a === ABSENT || isPrimitive(a)) return true
      return a !== map(input)
    })
  } catch {
    return false
  }
}

/**
 * Whether `map` makes a new object (or a primitive) of each value it accepts, probed twice with a
 * value of each kind: a transformation into a redacted value (`Redacted.make`), not one that
 * returns a value it keeps.
 */
const makesFresh = (map: (value: unknown) => unknown): boolean => memo(fresh, map, probeMakesFresh)

const probeMakesFresh = (map: (value: unknown) => unknown): boolean => {
  let objects = 0
  for (const probe of probes) {
    try {
      const a = map(probe)
      if (a === FAIL || isPrimitive(a)) continue
      if (a === map(probe) || a === probe) return false
      objects++
    } catch {
      // A value the transformation does not take.
    }
  }
  return objects > 0
}

const probes: ReadonlyArray<unknown> = [
  "probe",
  "",
  7,
  0,
  -1,
  0.5,
  true,
  false,
  { probe: 1 },
  [1],
  10n
]

/**
 * Whether `map` returns every present value other than `undefined` and `null` as it is (as a
 * default does), probed with a value of each kind. The property tests of each line check the
 * compiled decoder against the line's parser on the schemas that use it.
 */
const keepsPresent = (map: (value: unknown) => unknown): boolean =>
  memo(kept, map, probeKeepsPresent)

const probeKeepsPresent = (map: (value: unknown) => unknown): boolean => {
  try {
    return probes.every((probe) => map(probe) === probe)
  } catch {
    return false
  }
}

// ---------------------------------------------------------------------------------------------
// Compilation
// ---------------------------------------------------------------------------------------------

/** Whether `new Function` is allowed here (a Content-Security-Policy may forbid it). */
let canGenerate: boolean | undefined

const hasOwn = Object.prototype.hasOwnProperty
const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** The functions compiled for each node, by whether its input may be shared. */
interface Compiled {
  readonly shared?: Decode
  readonly fresh?: Decode
}

class Compiler {
  private readonly cache = new Map<Node, Compiled>()

  constructor(private readonly codegen: boolean) {}

  /** A decoder of `node`, compiled once per node and input kind (`shared`: may be a shared object). */
  decoder(node: Node, shared: boolean): Decode {
    const entry = this.cache.get(node) ?? {}
    const found = shared ? entry.shared : entry.fresh
    if (found !== undefined) return found
    // A placeholder first, for cycles (through `Lazy`).
    const ref: { current?: Decode } = {}
    const placeholder: Decode = (u) => ref.current!(u)
    this.cache.set(
      node,
      shared ? { ...entry, shared: placeholder } : { ...entry, fresh: placeholder }
    )
    const current = (ref.current = this.build(node, shared))
    const after = this.cache.get(node)!
    this.cache.set(node, shared ? { ...after, shared: current } : { ...after, fresh: current })
    return current
  }

  private build(node: Node, shared: boolean): Decode {
    switch (node._tag) {
      case "Struct":
        return this.struct(node) ?? this.closureStep(node, shared)
      case "Pipe": {
        const generated = this.generate((b) => {
          b.line("let v = u")
          b.steps(node.steps, shared, true, "return F")
          b.line("return v")
        })
        return generated ?? this.closurePipe(node.steps, shared)
      }
      default:
        // Nodes without code of their own (or one check) are closures.
        return this.closureStep(node, shared)
    }
  }

  /** Generates `function (u) { body }` with the constants the body refers to; undefined when not allowed. */
  private generate(write: (b: Builder) => void): Decode | undefined {
    if (!this.codegen || canGenerate === false) return undefined
    const b = new Builder(this)
    write(b)
    try {
      const factory = new Function(
        "F",
        "A",
        "K",
        "hasOwn",
        `"use strict"\nreturn function decode(u) {\n${b.code()}\n}`
      )
      canGenerate = true
      return factory(FAIL, ABSENT, b.constants, hasOwn) as Decode
    } catch {
      canGenerate = false
      return undefined
    }
  }

  private struct(node: Extract<Node, { _tag: "Struct" }>): Decode | undefined {
    return this.generate((b) => {
      b.line("if (typeof u !== 'object' || u === null || Array.isArray(u)) return F")
      const needsPlain = node.fields.some((f) => f.read === "own" && !(f.key in Object.prototype))
      if (needsPlain) {
        // On a plain object a defined value proves an own property without `hasOwnProperty`.
        b.line("const proto = Object.getPrototypeOf(u)")
        b.line("const plain = proto === Object.prototype || proto === null")
      }
      b.line("const out = {}")
      b.line("let v")
      for (const field of node.fields) {
        const key = JSON.stringify(field.key)
        b.line(`v = u[${key}]`)
        if (field.read === "always") {
          // The value as it is.
        } else if (field.read === "in") {
          b.line(
            field.key === "__proto__"
              ? `if (!hasOwn.call(u, ${key})) v = A`
              : `if (v === undefined && !(${key} in u)) v = A`
          )
        } else if (field.key in Object.prototype) {
          b.line(`if (!hasOwn.call(u, ${key})) v = A`)
        } else {
          b.line(
            `if (v === undefined ? !hasOwn.call(u, ${key}) : !plain && !hasOwn.call(u, ${key})) v = A`
          )
        }
        const mayBeAbsent = b.steps(steps(field.node), true, field.read !== "always", "return F")
        const write =
          field.key === "__proto__"
            ? `Object.defineProperty(out, ${key}, { value: v, writable: true, enumerable: true, configurable: true })`
            : `out[${key}] = v`
        if (!mayBeAbsent) b.line(write)
        else if (field.optional) b.line(`if (v !== A) ${write}`)
        else b.line(`if (v === A) return F; ${write}`)
      }
      b.line("return out")
    })
  }

  /** The closures of a pipe, when code cannot be generated. */
  private closurePipe(nodes: ReadonlyArray<Node>, shared: boolean): Decode {
    const decoders: Array<Decode> = []
    let s = shared
    for (const node of nodes) {
      const decode = this.closureStep(node, s)
      decoders.push(
        node._tag === "OptionalMap" || node._tag === "Unknown"
          ? decode
          : givesUpOnAbsent(node)
            ? (u) => (u === ABSENT ? FAIL : decode(u))
            : (u) => (u === ABSENT ? u : decode(u))
      )
      s = sharedAfter(node, s)
    }
    return (u) => {
      let v = u
      for (const decode of decoders) {
        v = decode(v)
        if (v === FAIL) return FAIL
      }
      return v
    }
  }

  /**
   * One node as a closure, of a present value (`ABSENT` is for `OptionalMap` only: a pipe passes
   * it on, or gives up, around the others).
   */
  closureStep(node: Node, shared: boolean): Decode {
    switch (node._tag) {
      case "String":
      case "Number":
      case "Boolean":
      case "BigInt": {
        const type = node._tag.toLowerCase()
        return (u) => (typeof u === type ? u : FAIL)
      }
      case "Null":
        return (u) => (u === null ? u : FAIL)
      case "Undefined":
        return (u) => (u === undefined ? u : FAIL)
      case "Unknown":
        return (u) => u
      case "NotNullish":
        return (u) => (u === null || u === undefined ? FAIL : u)
      case "Literals": {
        const values = new Set(node.values)
        return (u) => (values.has(u) ? u : FAIL)
      }
      case "Refine": {
        const test = node.test
        return (u) => (test(u) ? u : FAIL)
      }
      case "Map": {
        const map = node.map
        return map
      }
      case "OptionalMap": {
        const map = valueMap(node)
        const then = this.decoder(node.then, !makesNew(map))
        return (u) => {
          const r = map(u)
          if (
            r === FAIL ||
            r === ABSENT ||
            (r === u && u !== ABSENT && u !== undefined && u !== null)
          )
            return r
          return then(r)
        }
      }
      case "Union": {
        const members = node.members.map((m) => this.decoder(m, shared))
        return (u) => {
          for (const member of members) {
            const r = member(u)
            if (r !== FAIL) return r
          }
          return FAIL
        }
      }
      case "Array": {
        const item = this.decoder(node.item, true)
        return (u) => {
          if (!Array.isArray(u)) return FAIL
          const out = new Array(u.length)
          for (let i = 0; i < u.length; i++) {
            const r = item(u[i])
            if (r === FAIL || r === ABSENT) return FAIL
            out[i] = r
          }
          return out
        }
      }
      case "Struct": {
        const fields = node.fields.map((f) => ({
          key: f.key,
          read: f.read,
          optional: f.optional,
          decode: this.closurePipe(steps(f.node), true)
        }))
        const has = (u: object, k: string, read: Field["read"]) =>
          read === "always" || (read === "in" && k !== "__proto__" ? k in u : hasOwn.call(u, k))
        return (u) => {
          if (!isRecord(u)) return FAIL
          const out: Record<string, unknown> = {}
          for (const field of fields) {
            const v = field.decode(has(u, field.key, field.read) ? u[field.key] : ABSENT)
            if (v === FAIL) return FAIL
            if (v === ABSENT) {
              if (field.optional) continue
              return FAIL
            }
            if (field.key === "__proto__")
              Object.defineProperty(out, field.key, {
                value: v,
                writable: true,
                enumerable: true,
                configurable: true
              })
            else out[field.key] = v
          }
          return out
        }
      }
      case "Record": {
        const value = this.decoder(node.value, true)
        const define = node.assign === "define"
        return (u) => {
          if (!isRecord(u)) return FAIL
          const out: Record<string, unknown> = {}
          for (const key of Object.keys(u)) {
            const r = value(u[key])
            if (r === FAIL || r === ABSENT) return FAIL
            if (define && key === "__proto__")
              Object.defineProperty(out, key, {
                value: r,
                writable: true,
                enumerable: true,
                configurable: true
              })
            else out[key] = r
          }
          return out
        }
      }
      case "Redacted": {
        const { get, isRedacted, make } = node.kit
        const value = this.decoder(node.value, true)
        return (u) => {
          if (!isRedacted(u)) return FAIL
          const content = get(u)
          const r = value(content)
          if (r === FAIL) return FAIL
          return !shared && r === content ? u : make(r, u)
        }
      }
      case "Pipe":
        return this.closurePipe(node.steps, shared)
      case "Lazy": {
        let inner: Decode | undefined
        return (u) => (inner ??= this.decoder(node.get(), shared))(u)
      }
      case "Native":
        return node.decode
    }
  }
}

/** Straight-line code for the steps of a field or pipe, the value in `v`. */
class Builder {
  readonly constants: Array<unknown> = []
  private readonly lines: Array<string> = []
  private depth = 0

  constructor(private readonly compiler: Compiler) {}

  code(): string {
    return this.lines.join("\n")
  }

  line(text: string): void {
    this.lines.push("  ".repeat(this.depth + 1) + text)
  }

  constant(value: unknown): string {
    this.constants.push(value)
    return `K[${this.constants.length - 1}]`
  }

  /**
   * Writes `steps`, run on `v`: `shared` whether `v` may be a shared object, `mayBeAbsent` whether
   * it may be `ABSENT`. Returns whether `v` may be `ABSENT` after them. Steps that pass `ABSENT`
   * on are grouped under one `if (v !== A)`.
   */
  steps(nodes: ReadonlyArray<Node>, shared: boolean, mayBeAbsent: boolean, fail: string): boolean {
    let open = false
    const close = () => {
      if (open) {
        this.depth--
        this.line("}")
        open = false
      }
    }
    let s = shared
    let absent = mayBeAbsent
    for (const node of nodes) {
      if (node._tag === "Unknown") continue
      if (node._tag === "OptionalMap") {
        close()
        this.optionalMap(node, fail)
        absent = true
      } else if (givesUpOnAbsent(node) && absent) {
        close()
        this.line(`if (v === A) ${fail}`)
        absent = false
        this.step(node, s, fail)
      } else {
        if (absent && !open) {
          this.line("if (v !== A) {")
          this.depth++
          open = true
        }
        this.step(node, s, fail)
      }
      s = sharedAfter(node, s)
    }
    close()
    return absent
  }

  private optionalMap(node: OptionalMap, fail: string): void {
    const values = valueMap(node)
    if (isIdentity(values)) {
      // Nothing to call: only a present `undefined` or `null` goes through `then`.
      const then = steps(node.then)
      if (then.every((step) => step._tag === "Unknown")) return
      this.line("if (v === undefined || v === null) {")
      this.depth++
      this.steps(then, true, false, fail)
      this.depth--
      this.line("}")
      return
    }
    // The line's map, called with its Option: one call site per field, as the line's own parser has.
    const map = this.constant(node.map)
    const none = this.constant(node.option.none)
    const some = this.constant(node.option.some)
    const isNone = this.constant(node.option.isNone)
    const value = this.constant(node.option.value)
    const empty = node.none === "undefined" ? "undefined" : "A"
    const call = (input: string) => [
      `v = ${map}(${input})`,
      `if (v === F) ${fail}`,
      `v = ${isNone}(v) ? ${empty} : ${value}(v)`
    ]
    // A made value (a default) may be one the schema keeps: then `then` must not keep it.
    const thenShared = !makesNew(values)
    const then = () => {
      this.depth++
      this.steps(steps(node.then), thenShared, false, fail)
      this.depth--
      this.line("}")
    }
    if (keepsPresent(values)) {
      // Only `ABSENT`, `undefined` and `null` go to `map`; any other value is kept.
      this.line("if (v === A || v === undefined || v === null) {")
      this.depth++
      for (const line of call(`v === A ? ${none} : ${some}(v)`)) this.line(line)
      this.line("if (v !== A) {")
      then()
      this.depth--
      this.line("}")
      return
    }
    this.line("{")
    this.depth++
    this.line("const before = v")
    for (const line of call(`v === A ? ${none} : ${some}(v)`)) this.line(line)
    // Kept: a present value other than `undefined` and `null` that `map` returned as it is.
    this.line(
      "if (v !== A && (v !== before || before === A || before === undefined || before === null)) {"
    )
    then()
    this.depth--
    this.line("}")
  }

  /** One step on a present `v`. */
  private step(node: Node, shared: boolean, fail: string): void {
    switch (node._tag) {
      case "String":
      case "Number":
      case "Boolean":
      case "BigInt":
        this.line(`if (typeof v !== "${node._tag.toLowerCase()}") ${fail}`)
        return
      case "Null":
        this.line(`if (v !== null) ${fail}`)
        return
      case "Undefined":
        this.line(`if (v !== undefined) ${fail}`)
        return
      case "NotNullish":
        this.line(`if (v === null || v === undefined) ${fail}`)
        return
      case "Unknown":
        return
      case "Literals":
        this.line(`if (!(${this.test(node)})) ${fail}`)
        return
      case "Union": {
        // A union of type checks (`string | undefined`, `string | number`) is one test.
        const tests = node.members.map((member) => this.test(member))
        if (tests.every((t) => t !== undefined)) {
          this.line(`if (!(${tests.map((t) => `(${t})`).join(" || ")})) ${fail}`)
          return
        }
        break
      }
      case "Refine":
        this.line(`if (!${this.constant(node.test)}(v)) ${fail}`)
        return
      case "Map":
        this.line(`v = ${this.constant(node.map)}(v)`)
        this.line(`if (v === F) ${fail}`)
        return
      case "Pipe":
        // Flattened by `steps`; a nested one (from a Lazy) is one call.
        break
      default:
        break
    }
    this.line(`v = ${this.constant(this.compiler.decoder(node, shared))}(v)`)
    this.line(`if (v === F) ${fail}`)
  }

  /** A test of `v` for a node that only checks a present value's type, or undefined. */
  private test(node: Node): string | undefined {
    switch (node._tag) {
      case "String":
      case "Number":
      case "Boolean":
      case "BigInt":
        return `typeof v === "${node._tag.toLowerCase()}"`
      case "Null":
        return "v === null"
      case "Undefined":
        return "v === undefined"
      case "Literals":
        if (node.values.length > 8) return `${this.constant(new Set(node.values))}.has(v)`
        return node.values.length === 0
          ? "false"
          : node.values.map((value) => `v === ${this.literal(value)}`).join(" || ")
      default:
        return undefined
    }
  }

  private literal(value: unknown): string {
    if (typeof value === "string" || typeof value === "boolean" || value === null)
      return JSON.stringify(value)
    if (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0))
      return String(value)
    return this.constant(value)
  }
}

/**
 * Compiles a described schema to a decoder: the decoded value, or `FAIL` (then decode again with
 * the line's parser for its error). Compiles each node once; code is generated with
 * `new Function` where that is allowed, closures otherwise.
 *
 * @since 0.1.0
 * @category compiling
 */
export const compile = (node: Node): Decode => {
  return run(new Compiler(true).decoder(node, true))
}

/**
 * The same compiler without code generation (closures only), for tests and for hosts that forbid
 * `new Function`.
 *
 * @since 0.1.0
 * @category compiling
 */
export const compileClosures = (node: Node): Decode => {
  return run(new Compiler(false).decoder(node, true))
}

/** A root decoder: `ABSENT` (an item a transformation left out) and a thrown error are `FAIL`: the line's parser decides. */
const run =
  (decode: Decode): Decode =>
  (u) => {
    try {
      const r = decode(u)
      return r === ABSENT ? FAIL : r
    } catch {
      return FAIL
    }
  }
