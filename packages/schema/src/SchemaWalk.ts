/**
 * Walks over schema ASTs: every property signature reachable from a schema, through
 * transformations, refinements, unions, tuples, declarations and (a bounded number of levels of)
 * suspended, recursive schemas. `Secrets` finds the secret fields with it; the contract runner finds
 * the fields it generates, searches and checks.
 *
 * `shapeOf` reads a schema's wire side once into a `Shape` (the JSON types, fields, enums and
 * bounds a reader of a request or an answer needs, and the refinements that state them), memoised
 * per schema node; `requestShape` is that of an operation's request. `Decode`, the contract
 * runner's generator, mutation engine and oracles read it.
 *
 * @since 0.4.0
 */
import * as AST from "effect/SchemaAST"
import * as internal from "./internal/schemaWalk.js"

/**
 * How a walk goes.
 *
 * @since 0.4.0
 * @category models
 */
export interface Options {
  /**
   * Nodes already visited, skipped: pass the same set to several walks to visit each node once
   * across all of them. Default: a set of this walk's own.
   */
  readonly seen?: Set<AST.AST> | undefined
  /**
   * How many suspended schemas deep the walk follows a recursive schema (the filter of
   * ListSatellites). Default 2, which shows every property of the interface's recursive schemas.
   */
  readonly suspendDepth?: number | undefined
}

/**
 * Calls `f` with every property signature reachable from `root`, each AST node visited once.
 *
 * @example
 * ```ts
 * import { Model, SchemaWalk } from "@data-access/schema"
 *
 * const names: Array<string> = []
 * SchemaWalk.forEachProperty(Model.Satellite.ast, (p) => names.push(String(p.name)))
 * ```
 *
 * @since 0.4.0
 * @category walks
 */
export const forEachProperty: (
  root: AST.AST,
  f: (p: AST.PropertySignature) => void,
  options?: Options
) => void = internal.forEachProperty

/**
 * The wire (encoded) side of a schema: its JSON types, fields, enum values and bounds. Each shape
 * holds the node it was read from (`ast`) and the refinements over that node (`refinements`,
 * outermost first), with the annotations of each: the bounds, patterns and rules across fields
 * they state, and the rule each one states (`ContractRules.statedBy`).
 *
 * - `String`: a string, its min length, its JSON Schema format and, for an enum, its values;
 * - `Number`: a number, `int` when it must be an integer;
 * - `Literal`: one value that is not a string (`null`, a number, a boolean);
 * - `Object`: named fields, and `values` for the keys of a record;
 * - `Array`: its items and how many it must have (`NonEmptyArray`: 1);
 * - `Lazy`: a recursive schema, read when `get` is called;
 * - `Other`: what a JSON reader cannot say more of (a declaration, `unknown`).
 *
 * @since 0.5.0
 * @category shapes
 */
export type Shape = Refined &
  (
    | {
        readonly _tag: "String"
        readonly minLength: number
        readonly literals: ReadonlyArray<string> | undefined
        /** Its JSON Schema format (`date-time` for a timestamp). */
        readonly format: string | undefined
      }
    | { readonly _tag: "Number"; readonly int: boolean }
    | { readonly _tag: "Boolean" }
    | { readonly _tag: "BigInt" }
    | { readonly _tag: "Undefined" }
    | { readonly _tag: "Literal"; readonly value: AST.LiteralValue }
    | {
        readonly _tag: "Object"
        readonly fields: ReadonlyMap<string, Field>
        readonly values: Shape | undefined
      }
    | { readonly _tag: "Array"; readonly item: Shape; readonly minItems: number }
    | { readonly _tag: "Union"; readonly members: ReadonlyArray<Shape> }
    | { readonly _tag: "Lazy"; readonly get: () => Shape }
    | { readonly _tag: "Other" }
  )

/**
 * What every shape holds: the node it was read from, and the refinements over it.
 *
 * @since 0.5.0
 * @category shapes
 */
export interface Refined {
  /** The node read (for a transformation, the node of its wire side). */
  readonly ast: AST.AST
  /** The refinements over `ast`, outermost first (a transformation's type side's included). */
  readonly refinements: ReadonlyArray<AST.Refinement>
}

/**
 * A named field of an `Object` shape.
 *
 * @since 0.5.0
 * @category shapes
 */
export interface Field {
  readonly name: string
  /** Whether the key must be present. */
  readonly required: boolean
  readonly shape: Shape
  readonly signature: AST.PropertySignature
}

/**
 * The shape of a schema's wire side (transformations read as what they decode from, the bounds of
 * refinements kept as `AST.encodedBoundAST` keeps them), read once per schema node.
 *
 * @example
 * ```ts
 * import { Requests, SchemaWalk } from "@data-access/schema"
 *
 * const shape = SchemaWalk.shapeOf(Requests.CreatePermissionRequest.ast)
 * const names = shape._tag === "Object" ? [...shape.fields.keys()] : []
 * ```
 *
 * @since 0.5.0
 * @category shapes
 */
export const shapeOf: (ast: AST.AST) => Shape = internal.shapeOf

/**
 * The shape of an operation's request (an entry of `Operations.all`), read once per operation.
 *
 * @since 0.5.0
 * @category shapes
 */
export const requestShape: (operation: {
  readonly request: {
    readonly ast: AST.AST
  }
}) => Shape = internal.requestShape

/**
 * The fields of an operation's request, by name (none when the request is not an object).
 *
 * @since 0.5.0
 * @category shapes
 */
export const requestFields: (operation: {
  readonly request: {
    readonly ast: AST.AST
  }
}) => ReadonlyMap<string, Field> = internal.requestFields

/**
 * A shape without its `null` and `undefined` members, the way optional request fields are
 * written: the one member left, the enum of the string literals left, or the union of the rest;
 * read once per shape.
 *
 * @since 0.5.0
 * @category shapes
 */
export const nonNullish: (shape: Shape) => Shape = internal.nonNullish

/**
 * Calls `f` with every named field reachable from a shape, through objects, records, arrays,
 * unions and (`lazyDepth` levels deep, default 2) recursive shapes, each shape visited once.
 *
 * @example
 * ```ts
 * import { Operations, SchemaWalk } from "@data-access/schema"
 *
 * const timestamps = new Set<string>()
 * for (const op of Operations.all)
 *   SchemaWalk.forEachField(SchemaWalk.shapeOf(op.response.ast), (field) => {
 *     if (field.shape._tag === "String" && field.shape.format === "date-time")
 *       timestamps.add(field.name)
 *   })
 * ```
 *
 * @since 0.5.0
 * @category shapes
 */
export const forEachField: (
  root: Shape,
  f: (field: Field) => void,
  options?: {
    readonly lazyDepth?: number | undefined
  }
) => void = internal.forEachField

/**
 * Whether a value of this shape may be a JSON object or array (anything but a string, number,
 * boolean, bigint, `undefined` or literal).
 *
 * @since 0.5.0
 * @category shapes
 */
export const mayBeObject: (shape: Shape) => boolean = internal.mayBeObject
