/** The compiled decoder as closures: where code cannot be generated, and for the nodes that need no code of their own. */
import type { Decode, Field, Node } from "../../Decoder.js"
import { givesUpOnAbsent, makesNew, sharedAfter } from "./facts.js"
import { ABSENT, FAIL, hasOwn, steps, valueMap, type Decoders } from "./node.js"

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/** The closures of a pipe, when code cannot be generated. */
export const closurePipe = (
  compiler: Decoders,
  nodes: ReadonlyArray<Node>,
  shared: boolean
): Decode => {
  const decoders: Array<Decode> = []
  let s = shared
  for (const node of nodes) {
    const decode = closureStep(compiler, node, s)
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
export const closureStep = (compiler: Decoders, node: Node, shared: boolean): Decode => {
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
      const then = compiler.decoder(node.then, !makesNew(map))
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
      const members = node.members.map((m) => compiler.decoder(m, shared))
      return (u) => {
        for (const member of members) {
          const r = member(u)
          if (r !== FAIL) return r
        }
        return FAIL
      }
    }
    case "Array": {
      const item = compiler.decoder(node.item, true)
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
        decode: closurePipe(compiler, steps(f.node), true)
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
      const value = compiler.decoder(node.value, true)
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
      const value = compiler.decoder(node.value, true)
      return (u) => {
        if (!isRedacted(u)) return FAIL
        const content = get(u)
        const r = value(content)
        if (r === FAIL) return FAIL
        return !shared && r === content ? u : make(r, u)
      }
    }
    case "Pipe":
      return closurePipe(compiler, node.steps, shared)
    case "Lazy": {
      let inner: Decode | undefined
      return (u) => (inner ??= compiler.decoder(node.get(), shared))(u)
    }
    case "Native":
      return node.decode
  }
}
