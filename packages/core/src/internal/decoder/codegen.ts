/** The compiled decoder as generated code: straight-line JavaScript per struct and pipe, made with `new Function`. */
import type { Decode, Node } from "../../Decoder.js"
import { givesUpOnAbsent, isIdentity, keepsPresent, makesNew, sharedAfter } from "./facts.js"
import { ABSENT, FAIL, hasOwn, steps, valueMap, type Decoders, type OptionalMap } from "./node.js"

/** Whether `new Function` is allowed here (a Content-Security-Policy may forbid it). */
let canGenerate: boolean | undefined

/** Generates `function (u) { body }` with the constants the body refers to; undefined when not allowed. */
const generate = (compiler: Decoders, write: (b: Builder) => void): Decode | undefined => {
  if (canGenerate === false) return undefined
  const b = new Builder(compiler)
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

/** A struct as one generated function: a block of straight-line code per field; undefined when not allowed. */
export const generateStruct = (
  compiler: Decoders,
  node: Extract<Node, { _tag: "Struct" }>
): Decode | undefined =>
  generate(compiler, (b) => {
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

/** A pipe as one generated function; undefined when not allowed. */
export const generatePipe = (
  compiler: Decoders,
  nodes: ReadonlyArray<Node>,
  shared: boolean
): Decode | undefined =>
  generate(compiler, (b) => {
    b.line("let v = u")
    b.steps(nodes, shared, true, "return F")
    b.line("return v")
  })

/** Straight-line code for the steps of a field or pipe, the value in `v`. */
class Builder {
  readonly constants: Array<unknown> = []
  private readonly lines: Array<string> = []
  private depth = 0

  constructor(private readonly compiler: Decoders) {}

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
