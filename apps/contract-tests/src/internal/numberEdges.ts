/** The numbers a valid request sends in its number fields: each field's edge values, where its schema accepts them. */
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { type Operations, SchemaWalk } from "@data-access/schema"
import { jsonSchemaOf } from "./ast.js"
import { asRecord } from "./json.js"

type Op = Operations.Operation
type Body = Record<string, unknown>

const INT32_MIN = -2147483648
const INT32_MAX = 2147483647

/** Numbers a number field is sent at, where its schema allows them: zero, one, the largest port, the int32 limits. */
const COMMON_EDGES: ReadonlyArray<number> = [0, 1, 65535, INT32_MIN, INT32_MAX]

/**
 * The edge values of a number shape: its bounds, read from the JSON Schema annotations of its
 * refinements (`minimum`, `maximum`; for an integer, the first integer inside an exclusive bound),
 * then 0, 1, 65535 and the int32 limits, each kept only where the schema accepts it. `undefined`
 * when the shape is not a number.
 */
const edgesOf = (shape: SchemaWalk.Shape): ReadonlyArray<number> | undefined => {
  if (shape._tag !== "Number") return undefined
  const bounds: Array<number> = []
  const exclusive: Array<[number, 1 | -1]> = []
  for (const refinement of shape.refinements) {
    const js = jsonSchemaOf(refinement)
    for (const k of ["minimum", "maximum"] as const)
      if (typeof js[k] === "number") bounds.push(js[k])
    if (typeof js.exclusiveMinimum === "number") exclusive.push([js.exclusiveMinimum, 1])
    if (typeof js.exclusiveMaximum === "number") exclusive.push([js.exclusiveMaximum, -1])
  }
  if (shape.int)
    for (const [bound, step] of exclusive)
      bounds.push(Math.floor(bound) + (step === 1 ? 1 : Number.isInteger(bound) ? -1 : 0))
  const accepts = Schema.is(Schema.make(shape.refinements[0] ?? shape.ast))
  return [...new Set([...bounds, ...COMMON_EDGES])].filter((n) => Number.isFinite(n) && accepts(n))
}

/** The edge values of a number schema (`edgesOf` its shape); `undefined` when it is not a number. */
export const numberEdges = (ast: AST.AST): ReadonlyArray<number> | undefined =>
  edgesOf(SchemaWalk.shapeOf(ast))

/** A number field of a request: where it sits (top level, or inside nested objects) and its edge values. */
export interface NumberField {
  readonly path: ReadonlyArray<string>
  readonly edges: ReadonlyArray<number>
}

const numberFieldCache = new WeakMap<Op["request"], ReadonlyArray<NumberField>>()

/** The number fields of a request, found in its shape (objects within objects, not arrays or recursive filters). */
export const numberFields = (op: Op): ReadonlyArray<NumberField> => {
  const cached = numberFieldCache.get(op.request)
  if (cached !== undefined) return cached
  const out: Array<NumberField> = []
  const go = (shape: SchemaWalk.Shape, path: ReadonlyArray<string>): void => {
    if (path.length > 8 || shape._tag !== "Object") return
    for (const field of shape.fields.values()) {
      const at = [...path, field.name]
      const type = SchemaWalk.nonNullish(field.shape)
      const edges = edgesOf(type)
      if (edges === undefined) go(type, at)
      else if (edges.length > 0) out.push({ path: at, edges })
    }
  }
  go(SchemaWalk.requestShape(op), [])
  numberFieldCache.set(op.request, out)
  return out
}

/** The body with a number at `path`, where the body already sends a number there. */
export const withNumber = (body: Body, path: ReadonlyArray<string>, value: number): Body => {
  const [head, ...rest] = path
  if (head === undefined) return body
  if (rest.length === 0) return typeof body[head] === "number" ? { ...body, [head]: value } : body
  const inner = asRecord(body[head])
  return inner === undefined ? body : { ...body, [head]: withNumber(inner, rest, value) }
}
