/** The compiler of a described schema: each node compiled once per input kind, as generated code or closures. */
import type { Decode, Node } from "../../Decoder.js"
import { closurePipe, closureStep } from "./closures.js"
import { generatePipe, generateStruct } from "./codegen.js"
import { ABSENT, FAIL } from "./node.js"

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
        return (
          (this.codegen ? generateStruct(this, node) : undefined) ?? closureStep(this, node, shared)
        )
      case "Pipe":
        return (
          (this.codegen ? generatePipe(this, node.steps, shared) : undefined) ??
          closurePipe(this, node.steps, shared)
        )
      default:
        // Nodes without code of their own (or one check) are closures.
        return closureStep(this, node, shared)
    }
  }
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

/** Compiles `node` to a root decoder: with generated code where `codegen` allows it, closures otherwise. */
export const compile = (node: Node, codegen: boolean): Decode =>
  run(new Compiler(codegen).decoder(node, true))

/** Compiles with code generation where `new Function` is allowed. */
export const compileGenerated = (node: Node): Decode => compile(node, true)

/** Compiles to closures only. */
export const compileClosures = (node: Node): Decode => compile(node, false)
