/** What the parts of a compiled decoder share: its symbols, the steps of a node and an optional value's map. */
import type { Decode, Node, OptionKit } from "../../Decoder.js"
import type * as Decoder from "../../Decoder.js"

export const FAIL: typeof Decoder.FAIL = Symbol.for(
  "@data-access/core/Decoder/FAIL"
) as typeof Decoder.FAIL

export const ABSENT: typeof Decoder.ABSENT = Symbol.for(
  "@data-access/core/Decoder/ABSENT"
) as typeof Decoder.ABSENT

export const hasOwn = Object.prototype.hasOwnProperty

export type OptionalMap = Extract<Node, { readonly _tag: "OptionalMap" }>

/** The compiler as its parts see it: a decoder of any node, compiled once. */
export interface Decoders {
  readonly decoder: (node: Node, shared: boolean) => Decode
}

const valueMaps = new WeakMap<OptionalMap, (value: unknown) => unknown>()

/** An `OptionalMap` over values: `ABSENT` or a value in, `ABSENT`, a value or `FAIL` out. */
export const valueMap = (node: OptionalMap): ((value: unknown) => unknown) => {
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

/** The steps of a node, `Pipe`s flattened. */
export const steps = (node: Node): ReadonlyArray<Node> =>
  node._tag === "Pipe" ? node.steps.flatMap(steps) : [node]

export const taggedOption = (none: unknown, some: (value: unknown) => unknown): OptionKit => ({
  none,
  some,
  isNone: (o) => (o as { readonly _tag: string })._tag === "None",
  value: (o) => (o as { readonly value: unknown }).value
})

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

export const pipe = (...nodes: ReadonlyArray<Node>): Node => {
  const all = nodes.flatMap(steps)
  return all.length === 1 ? all[0]! : { _tag: "Pipe", steps: all }
}
