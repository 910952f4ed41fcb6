/** Static facts about the nodes of a described schema, probed once per node or function. */
import type { Node } from "../../Decoder.js"
import { ABSENT, FAIL, valueMap } from "./node.js"

/**
 * Whether the output of `node` may be an object that existed before this decode (a value of the
 * input, or one a transformation keeps somewhere), given whether its input may be. A primitive
 * counts as new: it has no identity to share. Only `Redacted` asks, to avoid making a second
 * redacted value where the parser's first one is new anyway.
 */
export const sharedAfter = (node: Node, shared: boolean): boolean => {
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
export const givesUpOnAbsent = (node: Node): boolean =>
  (node._tag === "Native" && node.absent === "fail") || node._tag === "Lazy"

/** Whether `map` returns every value, `ABSENT`, `undefined` and `null` included, as it is (probed). */
export const isIdentity = (map: (value: unknown) => unknown): boolean =>
  keepsPresent(map) &&
  memo(identity, map, (m) => [ABSENT, undefined, null].every((u) => m(u) === u))

const isPrimitive = (u: unknown): boolean =>
  (typeof u !== "object" && typeof u !== "function") || u === null

/**
 * Whether every value `map` makes for a key that is not there (`ABSENT`, and the `undefined` and
 * `null` a schema may read as not set) is new: a primitive, or a different object on each of two
 * calls (a default made per decode, not one kept by the schema).
 */
export const makesNew = (map: (value: unknown) => unknown): boolean =>
  memo(madeNew, map, probeMakesNew)

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
export const keepsPresent = (map: (value: unknown) => unknown): boolean =>
  memo(kept, map, probeKeepsPresent)

const probeKeepsPresent = (map: (value: unknown) => unknown): boolean => {
  try {
    return probes.every((probe) => map(probe) === probe)
  } catch {
    return false
  }
}
