// Under the machine's Node only (scripts/node-lines): the compiled decoder and the wire format, pure data transforms.
// The compiler's own semantics, on small hand-written descriptions, for both of its outputs
// (generated code and closures). Each line's client tests hold its description of real schemas
// to the line's parser.
import { describe, expect, it } from "vitest"
import * as Decoder from "../src/Decoder.js"
import type { Node } from "../src/Decoder.js"

class Box {
  constructor(readonly content: unknown) {}
}
const redacted = (value: Node): Node => ({
  _tag: "Redacted",
  value,
  kit: {
    isRedacted: (u) => u instanceof Box,
    get: (u: Box) => u.content,
    make: (content) => new Box(content)
  }
})
const SHARED = new Box("")
const str: Node = { _tag: "String" }
const struct = (
  fields: Record<string, Node | [Node, "optional"]>,
  read: "own" | "in" | "always" = "own"
): Node => ({
  _tag: "Struct",
  fields: Object.entries(fields).map(([key, f]) =>
    Array.isArray(f)
      ? { key, read, node: f[0], optional: true }
      : { key, read, node: f, optional: false }
  )
})
/** A line's Option, for the test: `undefined` is none, `{ some }` a value. */
const option: Decoder.OptionKit = {
  none: undefined,
  some: (value) => ({ some: value }),
  isNone: (o) => o === undefined,
  value: (o) => (o as { some: unknown }).some
}
const NONE = undefined
/** An OptionalMap over the test's Option: `map` of the value, or of ABSENT for a none. */
const optionalMap = (
  map: (u: unknown) => unknown,
  then: Node,
  none?: "absent" | "undefined"
): Node => ({
  _tag: "OptionalMap",
  option,
  then,
  ...(none !== undefined ? { none } : {}),
  map: (o) => {
    const r = map(o === undefined ? Decoder.ABSENT : (o as { some: unknown }).some)
    return r === Decoder.FAIL ? r : r === Decoder.ABSENT ? NONE : { some: r }
  }
})
/** A default for an absent (or undefined) key, kept for a present value. */
const withDefault = (make: () => unknown, then: Node): Node =>
  optionalMap((u) => (u === Decoder.ABSENT || u === undefined ? make() : u), then)

describe.each([
  ["generated code", Decoder.compile],
  ["closures", Decoder.compileClosures]
] as const)("%s", (_, compile) => {
  const ok = (node: Node, input: unknown) => {
    const r = compile(node)(input)
    expect(r).not.toBe(Decoder.FAIL)
    return r
  }
  const rejects = (node: Node, input: unknown) => expect(compile(node)(input)).toBe(Decoder.FAIL)

  it("type checks and literals", () => {
    expect(ok(str, "a")).toBe("a")
    rejects(str, 1)
    expect(ok({ _tag: "BigInt" }, 1n)).toBe(1n)
    rejects({ _tag: "Null" }, undefined)
    rejects({ _tag: "NotNullish" }, null)
    expect(ok({ _tag: "NotNullish" }, 0)).toBe(0)
    const many: Node = {
      _tag: "Literals",
      values: ["a", "b", "c", "d", "e", "f", "g", "h", "i", 1n]
    }
    expect(ok(many, "i")).toBe("i")
    expect(ok(many, 1n)).toBe(1n)
    rejects(many, "z")
    rejects({ _tag: "Literals", values: [] }, "a")
    rejects({ _tag: "Literals", values: [0] }, -0 + 1)
  })

  it("a union takes its first member that accepts the value", () => {
    const node: Node = {
      _tag: "Union",
      members: [{ _tag: "Pipe", steps: [str, { _tag: "Map", map: (s) => `first ${s}` }] }, str]
    }
    expect(ok(node, "x")).toBe("first x")
    expect(
      ok(Decoder.pipe({ _tag: "Union", members: [str, { _tag: "Undefined" }] }), undefined)
    ).toBe(undefined)
    rejects({ _tag: "Union", members: [str, { _tag: "Number" }] }, true)
  })

  it("a struct: declared keys in order, others left out; absent optional keys left out, required ones fail", () => {
    const node = struct({ b: str, a: [str, "optional"] })
    expect(JSON.stringify(ok(node, { a: "1", b: "2", c: "3" }))).toBe('{"b":"2","a":"1"}')
    expect(ok(node, { b: "2" })).toEqual({ b: "2" })
    rejects(node, { a: "1" })
    rejects(node, [])
    rejects(node, null)
    // A present `undefined` is a value, decoded as such.
    rejects(node, { b: "2", a: undefined })
  })

  it("own keys (Effect 3) or any key the `in` operator sees (Effect 4)", () => {
    const inherited = Object.create({ b: "inherited" }) as object
    rejects(struct({ b: str }, "own"), inherited)
    expect(ok(struct({ b: str }, "in"), inherited)).toEqual({ b: "inherited" })
    // A key of Object.prototype is not an own key of a plain object.
    const anything: [Node, "optional"] = [{ _tag: "Unknown" }, "optional"]
    expect(ok(struct({ toString: anything }, "own"), {})).toEqual({})
    expect(ok(struct({ k: [{ _tag: "Undefined" }, "optional"] }, "own"), { k: undefined })).toEqual(
      { k: undefined }
    )
    // Effect 3 reads a required key's value whether or not it is an own property.
    expect(ok(struct({ b: str }, "always"), inherited)).toEqual({ b: "inherited" })
    expect(Object.keys(ok(struct({ b: { _tag: "Unknown" } }, "always"), {}) as object)).toEqual([
      "b"
    ])
  })

  it("a __proto__ key is written as a property", () => {
    const input = JSON.parse('{"__proto__": "x"}') as unknown
    const out = ok(
      struct(Object.fromEntries([["__proto__", str]]) as Record<string, Node>),
      input
    ) as object
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toBe("x")
    const record = ok(
      { _tag: "Record", value: { _tag: "Unknown" }, assign: "define" },
      JSON.parse('{"__proto__": {"a": 1}, "b": 2}')
    ) as object
    expect(Object.keys(record)).toEqual(["__proto__", "b"])
  })

  it("an OptionalMap's default is decoded by `then`; a value it keeps is not", () => {
    let thenRuns = 0
    const counted: Node = { _tag: "Refine", test: () => (thenRuns++, true) }
    const node = struct({
      a: Decoder.pipe(
        { _tag: "Union", members: [str, { _tag: "Undefined" }] },
        withDefault(() => "zero", counted)
      )
    })
    expect(ok(node, {})).toEqual({ a: "zero" })
    expect(ok(node, { a: undefined })).toEqual({ a: "zero" })
    expect(thenRuns).toBe(2)
    expect(ok(node, { a: "set" })).toEqual({ a: "set" })
    expect(thenRuns).toBe(2)
    // A default `then` rejects fails the decode.
    rejects(struct({ a: withDefault(() => 1, str) }), {})
    // A map that leaves the key out, or fails.
    expect(
      ok(struct({ a: [optionalMap(() => Decoder.ABSENT, str), "optional"] }), { a: "x" })
    ).toEqual({})
    rejects(struct({ a: optionalMap(() => Decoder.ABSENT, str) }), { a: "x" })
    rejects(struct({ a: optionalMap(() => Decoder.FAIL, str) }), { a: "x" })
    // A none read as `undefined` (Effect 3's required keys), decoded by `then`.
    rejects(struct({ a: optionalMap(() => Decoder.ABSENT, str, "undefined") }), { a: "x" })
    expect(
      Object.keys(
        ok(struct({ a: optionalMap(() => Decoder.ABSENT, { _tag: "Undefined" }, "undefined") }), {
          a: "x"
        }) as object
      )
    ).toEqual(["a"])
    // A map that keeps every value (none included) sends only `undefined` and `null` to `then`.
    const kept = optionalMap((u) => u, str)
    expect(ok(struct({ a: [kept, "optional"] }), {})).toEqual({})
    expect(ok(struct({ a: kept }), { a: "x" })).toEqual({ a: "x" })
    rejects(struct({ a: [kept, "optional"] }), { a: undefined })
  })

  it("a redacted value: a new one per decode, unless the decode just made it", () => {
    const node = struct({
      shared: withDefault(() => SHARED, redacted(str)),
      fresh: withDefault(() => new Box(""), redacted(str))
    })
    const a = ok(node, {}) as { shared: Box; fresh: Box }
    const b = ok(node, {}) as { shared: Box; fresh: Box }
    expect(a.shared).not.toBe(SHARED)
    expect(a.shared).not.toBe(b.shared)
    expect(a.shared.content).toBe("")
    expect(a.fresh).not.toBe(b.fresh)
    // A redacted value of the input is copied, one made from a string is kept.
    const input = new Box("s")
    expect(ok(redacted(str), input)).not.toBe(input)
    expect(
      (ok(Decoder.pipe(str, { _tag: "Map", map: (s) => new Box(s) }, redacted(str)), "s") as Box)
        .content
    ).toBe("s")
    rejects(redacted(str), new Box(1))
    rejects(redacted(str), "s")
  })

  it("arrays, records and recursion", () => {
    expect(ok({ _tag: "Array", item: str }, ["a", "b"])).toEqual(["a", "b"])
    rejects({ _tag: "Array", item: str }, ["a", 1])
    rejects({ _tag: "Array", item: str }, { length: 0 })
    expect(ok({ _tag: "Record", value: str, assign: "set" }, { a: "1" })).toEqual({ a: "1" })
    rejects({ _tag: "Record", value: str, assign: "set" }, { a: 1 })
    const tree: Node = struct({
      name: str,
      children: [{ _tag: "Lazy", get: () => ({ _tag: "Array", item: tree }) }, "optional"]
    })
    expect(ok(tree, { name: "a", children: [{ name: "b", children: [] }] })).toEqual({
      name: "a",
      children: [{ name: "b", children: [] }]
    })
    rejects(tree, { name: "a", children: [{ name: 1 }] })
  })

  it("the line's parser: its answer, and an absent key it cannot decide for", () => {
    const native: Node = {
      _tag: "Native",
      absent: "fail",
      decode: (u) => (u === "ok" ? "decoded" : Decoder.FAIL)
    }
    expect(ok(struct({ a: native }), { a: "ok" })).toEqual({ a: "decoded" })
    rejects(struct({ a: native }), { a: "no" })
    rejects(struct({ a: [native, "optional"] }), {})
    const passes: Node = { ...native, absent: "pass" }
    expect(ok(struct({ a: [passes, "optional"] }), {})).toEqual({})
  })

  it("a transformation that throws, or an item left out, gives up", () => {
    rejects(
      {
        _tag: "Map",
        map: () => {
          throw new Error("boom")
        }
      },
      "a"
    )
    rejects({ _tag: "Array", item: optionalMap(() => Decoder.ABSENT, str) }, ["a"])
  })
})
