/** The implementation of `Mutations` (see that module's documentation). */
import { ContractRules, SchemaWalk } from "@data-access/schema"
import * as Arbitrary from "effect/Arbitrary"
import * as fc from "effect/FastCheck"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { jsonSchemaOf } from "./ast.js"
import { type Dimension, isZero } from "./dimensions.js"
import { accepts, isEncoded } from "./schemas.js"

/**
 * One invalid request: the rule it breaks and the body to send.
 *
 * @since 0.1.0
 * @category models
 */
export interface Mutation {
  /** A stable label of the broken rule (`limit: above maximum 500`); findings are deduplicated by it. */
  readonly rule: string
  /** What kind of rule it breaks. */
  readonly kind: MutationKind
  /** Where: the path of the changed value. */
  readonly path: ReadonlyArray<string | number>
  /**
   * The must it breaks, as the schema constraint it breaks states it (`ContractRules.RuleAnnotationId`);
   * `undefined` when no must backs the constraint (a format's pattern), so a server may take it.
   */
  readonly ruleId: ContractRules.RuleId | undefined
  /** The JSON body, one rule broken. */
  readonly body: unknown
  /** The dimensions of its field's inputs it exercises on the refused side (a bound, an explicit zero value...). */
  readonly dimensions: ReadonlyArray<Dimension>
}

/** The dimension a kind of mutation exercises, before what its value adds (an explicit zero). */
const dimensionOfKind: Readonly<Record<MutationKind, Dimension>> = {
  "min-length": "bound",
  "max-length": "bound",
  minimum: "bound",
  maximum: "bound",
  integer: "json-type",
  pattern: "pattern",
  "across-fields": "one-of",
  literal: "enum",
  enum: "enum",
  "empty-array": "zero-value",
  required: "required",
  "json-type": "json-type"
}

/** The dimensions of a candidate: its kind's, and an explicit zero value when it sends one. */
const dimensionsOf = (c: Candidate): ReadonlyArray<Dimension> => {
  const own = dimensionOfKind[c.kind]
  return c.remove !== true && own !== "zero-value" && isZero(c.value) ? [own, "zero-value"] : [own]
}

/**
 * The dimension of a field's inputs a mutation exercises (`bound`, `zero-value`, `one-of`...).
 *
 * @since 0.6.0
 * @category models
 */
export type { Dimension }

type Path = ReadonlyArray<string | number>

/**
 * The kinds of rules a mutation breaks.
 *
 * @since 0.2.0
 * @category models
 */
export type MutationKind =
  | "min-length"
  | "max-length"
  | "minimum"
  | "maximum"
  | "integer"
  | "pattern"
  | "across-fields"
  | "literal"
  | "enum"
  | "empty-array"
  | "required"
  | "json-type"

interface Candidate {
  readonly rule: string
  readonly kind: MutationKind
  readonly ruleId: ContractRules.RuleId | undefined
  readonly path: Path
  /** `undefined` with `remove: true` deletes the key. */
  readonly value: unknown
  readonly remove?: boolean
}

const BOGUS = "not-a-valid-value"

/**
 * A path as rules print it (`filter.group.filters[0].field`, `(body)` for the whole body), built a
 * step at a time as the walk goes down: the text of the root, of a field and of a list's first entry.
 */
const ROOT = "(body)"
const fieldText = (parent: string, name: string): string =>
  parent === ROOT ? name : `${parent}.${name}`
const itemText = (parent: string): string => (parent === ROOT ? "[0]" : `${parent}[0]`)

const jsonType = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v

/** A value of another JSON type than `v` (never `null`, which means "not set"). */
const wrongType = (v: unknown, shape: SchemaWalk.Shape): unknown => {
  switch (jsonType(v)) {
    case "string":
      return 12345
    case "number":
      return "not-a-number"
    case "boolean":
      return "yes"
    case "array":
      return "not-an-array"
    case "object":
      return "not-an-object"
    default:
      return isNumeric(shape) ? "not-a-number" : 12345
  }
}

const isNumeric = (shape: SchemaWalk.Shape): boolean =>
  shape._tag === "Number" || (shape._tag === "Union" && shape.members.some(isNumeric))

const isNullish = (shape: SchemaWalk.Shape): boolean =>
  shape._tag === "Undefined" || (shape._tag === "Literal" && shape.value === null)

/** The value of a shape read from one literal (`undefined` for any other shape). */
const literalOf = (shape: SchemaWalk.Shape): { readonly value: AST.LiteralValue } | undefined =>
  shape._tag === "Literal"
    ? { value: shape.value }
    : shape._tag === "String" && shape.ast._tag === "Literal"
      ? { value: shape.ast.literal }
      : undefined

/** Each schema pattern compiled once (`null`: not a pattern here); a derive runs on every draw. */
const patterns = new Map<string, RegExp | null>()
const patternOf = (pattern: string): RegExp | undefined => {
  let re = patterns.get(pattern)
  if (re === undefined) {
    try {
      re = new RegExp(pattern, "u")
    } catch {
      re = null
    }
    patterns.set(pattern, re)
  }
  return re ?? undefined
}

/**
 * Strings next to a pattern's valid value `s` that the pattern refuses: the readings a server
 * might take instead of it (case folded, one more character class, a length quantifier's bounds
 * off by one), so that a check of a neighbouring rule answers differently. Lengths are of ASCII
 * characters the value uses, so they cross the bound under every count.
 */
const patternNeighbours = (
  pattern: string,
  s: string
): ReadonlyArray<readonly [string, string]> => {
  const re = patternOf(pattern)
  if (re === undefined) return []
  const base = re.test(s) ? s : ""
  const out: Array<readonly [string, string]> = []
  if (base !== "") {
    const mid = Math.floor(base.length / 2)
    const at = (c: string) => base.slice(0, mid) + c + base.slice(mid + 1)
    out.push(
      ["upper case", base.toUpperCase()],
      ["an underscore", at("_")],
      ["a space", at(" ")],
      ["a dot", at(".")],
      ["a letter beyond ASCII", at("\u00e9")]
    )
  }
  const fill =
    [...base].find((c) => c < "\u0080" && re.test(c.repeat(Math.max(1, base.length)))) ??
    [...base].find((c) => c < "\u0080") ??
    "a"
  for (const q of pattern.matchAll(/\{(\d+),(\d+)\}/g)) {
    const min = Number(q[1])
    const max = Number(q[2])
    if (min > 0) out.push([`${min - 1} characters`, fill.repeat(min - 1)])
    out.push([`${max + 1} characters`, fill.repeat(max + 1)])
  }
  return out.filter(([, v]) => !re.test(v))
}

/** The invalid values of the constraints one refinement states (bounds, a pattern, a rule across fields). */
const refinementCandidates = (
  refinement: AST.Refinement,
  shape: SchemaWalk.Shape,
  value: unknown,
  path: Path,
  text: string,
  out: Array<Candidate>
): void => {
  const js = jsonSchemaOf(refinement)
  const s = typeof value === "string" ? value : ""
  // The must this constraint states, if any (a constraint without one is not sent as invalid).
  const ruleId = ContractRules.statedBy(refinement)
  if (typeof js.minLength === "number" && js.minLength >= 1) {
    // ASCII: one short of the limit under every count a server may use (code points, UTF-16 units, UTF-8 bytes).
    out.push({
      kind: "min-length",
      ruleId,
      rule: `${text}: shorter than min length ${js.minLength}`,
      path,
      value: "a".repeat(js.minLength - 1)
    })
  }
  if (typeof js.maxLength === "number") {
    out.push({
      kind: "max-length",
      ruleId,
      rule: `${text}: longer than max length ${js.maxLength}`,
      path,
      value: "a".repeat(js.maxLength + 1)
    })
  }
  if (typeof js.minimum === "number" && js.minimum > -2147483648) {
    out.push({
      kind: "minimum",
      ruleId,
      rule: `${text}: below minimum ${js.minimum}`,
      path,
      value: js.minimum - 1
    })
  }
  if (typeof js.maximum === "number" && js.maximum < 2147483647) {
    out.push({
      kind: "maximum",
      ruleId,
      rule: `${text}: above maximum ${js.maximum}`,
      path,
      value: js.maximum + 1
    })
  }
  if (js.type === "integer") {
    // A fraction is not an integer's JSON (proto3 JSON refuses it for every integer type).
    out.push({
      kind: "integer",
      ruleId: "fields.json-type",
      rule: `${text}: not an integer`,
      path,
      value: (typeof value === "number" ? value : 1) + 0.5
    })
  }
  if (typeof js.pattern === "string") {
    for (const v of ["", "NOT VALID!", "a"])
      out.push({
        kind: "pattern",
        ruleId,
        rule: `${text}: does not match ${js.pattern}`,
        path,
        value: v
      })
    for (const [label, v] of patternNeighbours(js.pattern, s))
      out.push({
        kind: "pattern",
        ruleId,
        rule: `${text}: does not match ${js.pattern} (${label})`,
        path,
        value: v
      })
  }
  if (
    shape._tag === "Object" &&
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value)
  ) {
    // A rule across fields (one-of): try each optional field removed and each absent one set.
    const obj = value as Record<string, unknown>
    const setValue = Object.values(obj).find((v) => typeof v === "string" && v !== "") ?? "ct-extra"
    for (const name of shape.fields.keys()) {
      if (name in obj)
        out.push({
          kind: "across-fields",
          ruleId,
          rule: `${text}: ${name} removed (rule across fields)`,
          path: [...path, name],
          value: undefined,
          remove: true
        })
      else
        out.push({
          kind: "across-fields",
          ruleId,
          rule: `${text}: ${name} set too (rule across fields)`,
          path: [...path, name],
          value: setValue
        })
    }
  }
}

/** Whether a field carries nothing but absent or `null`: the other members' key in a one-of's member (the filter's `group` beside `field`). */
const unsetOnly = (shape: SchemaWalk.Shape): boolean => {
  const s = SchemaWalk.nonNullish(shape)
  return s._tag === "Other" && s.ast._tag === "NeverKeyword"
}

const validValues = new WeakMap<AST.AST, { readonly value: unknown }>()

/** One valid wire value of a field's schema, drawn once per schema (the same every time). */
const validValue = (ast: AST.AST): unknown => {
  let drawn = validValues.get(ast)
  if (drawn === undefined) {
    const schema = Schema.make(ast)
    const [value] = fc.sample(Arbitrary.make(schema), { seed: 1, numRuns: 1 })
    drawn = { value: Schema.encodeSync(schema)(value) }
    validValues.set(ast, drawn)
  }
  return drawn.value
}

/**
 * A one-of at any depth (a union of objects, each member's key only absent or `null` in the
 * others, as proto3 reads a `oneof`: the filter's condition or group): for the member `value` is,
 * each other member's key set beside its own, to a valid value of that key, breaking the rule the
 * unset key states.
 */
const oneOfCandidates = (
  member: SchemaWalk.Shape,
  members: ReadonlyArray<SchemaWalk.Shape>,
  value: unknown,
  path: Path,
  text: string,
  out: Array<Candidate>
): void => {
  if (member._tag !== "Object" || value === null || typeof value !== "object") return
  const obj = value as Record<string, unknown>
  const own = [...member.fields.values()].filter((f) => f.required).map((f) => f.name)
  for (const f of member.fields.values()) {
    if (!unsetOnly(f.shape) || (obj[f.name] !== undefined && obj[f.name] !== null)) continue
    const set = members
      .map((m) => (m._tag === "Object" ? m.fields.get(f.name) : undefined))
      .find((g) => g !== undefined && !unsetOnly(g.shape))
    if (set === undefined) continue
    out.push({
      kind: "across-fields",
      ruleId: ContractRules.statedBy(SchemaWalk.nonNullish(f.shape).ast),
      rule: `${text}: ${[...own, f.name].join(" and ")} at once (one of)`,
      path: [...path, f.name],
      value: validValue(set.signature.type)
    })
  }
}

/**
 * An enum's candidates by node and path, which no value changes: derived once, not per body
 * (emptied when full).
 */
const enumsDerived = new WeakMap<AST.AST, Map<string, ReadonlyArray<Candidate>>>()
const MAX_ENUM_PATHS = 256

/** `enumCandidates`, derived once per node and path. */
const enumCandidatesOnce = (
  node: AST.AST,
  literals: ReadonlyArray<AST.LiteralValue>,
  path: Path,
  text: string,
  out: Array<Candidate>
): void => {
  let byPath = enumsDerived.get(node)
  if (byPath === undefined) enumsDerived.set(node, (byPath = new Map()))
  let known = byPath.get(text)
  if (known === undefined) {
    const own: Array<Candidate> = []
    enumCandidates(node, literals, path, text, own)
    if (byPath.size >= MAX_ENUM_PATHS) byPath.clear()
    byPath.set(text, (known = own))
  }
  for (const c of known) out.push(c)
}

/** The invalid values of a literal's or an enum's values, each breaking the rule the node states. */
const enumCandidates = (
  node: AST.AST,
  literals: ReadonlyArray<AST.LiteralValue>,
  path: Path,
  text: string,
  out: Array<Candidate>
): void => {
  // A value outside an enum breaks `fields.enum` unless the enum states another rule (a filter key).
  const ruleId = ContractRules.statedBy(node) ?? "fields.enum"
  out.push({
    kind: "enum",
    ruleId,
    rule: `${text}: not one of the allowed values`,
    path,
    value: BOGUS
  })
  // An allowed value in another case is another value: enums compare exactly.
  const shouted = literals
    .map((l) => (typeof l === "string" ? l.toUpperCase() : l))
    .find((u) => typeof u === "string" && !literals.includes(u))
  if (shouted !== undefined)
    out.push({
      kind: "enum",
      ruleId,
      rule: `${text}: an allowed value in upper case`,
      path,
      value: shouted
    })
  // The readings next to an exact comparison: a prefix, a trimmed or a contained value.
  const strings = literals.filter((l): l is string => typeof l === "string" && l.length > 1)
  const near: ReadonlyArray<readonly [string, (l: string) => string]> = [
    ["cut short", (l) => l.slice(0, -1)],
    ["with a trailing space", (l) => `${l} `],
    ["inside a longer word", (l) => `x${l}`]
  ]
  for (const [label, f] of near) {
    const v = strings.map(f).find((x) => !literals.includes(x))
    if (v !== undefined)
      out.push({
        kind: "enum",
        ruleId,
        rule: `${text}: an allowed value ${label}`,
        path,
        value: v
      })
  }
}

/** The candidates of a value read by a shape (the schema's `SchemaWalk` shape): its refinements' first, then its own. */
const candidates = (
  shape: SchemaWalk.Shape,
  value: unknown,
  path: Path,
  text: string,
  out: Array<Candidate>,
  depth: number
): void => {
  if (depth > 64) return
  const present = value !== undefined
  for (const refinement of shape.refinements)
    refinementCandidates(refinement, shape, present ? value : undefined, path, text, out)
  switch (shape._tag) {
    case "String":
    case "Literal": {
      const literal = literalOf(shape)
      if (literal !== undefined) {
        if (literal.value !== null)
          out.push({
            kind: "literal",
            ruleId: ContractRules.statedBy(shape.ast),
            rule: `${text}: not the literal ${JSON.stringify(literal.value)}`,
            path,
            value: BOGUS
          })
      } else if (shape._tag === "String" && shape.literals !== undefined)
        enumCandidatesOnce(shape.ast, shape.literals, path, text, out)
      return
    }
    case "Union": {
      const members = shape.members.filter((m) => !isNullish(m))
      // An enum: every member one literal, unrefined.
      const literals = members.map((m) => (m.refinements.length === 0 ? literalOf(m) : undefined))
      if (members.length > 0 && literals.every((l) => l !== undefined))
        return enumCandidatesOnce(
          shape.ast,
          literals.map((l) => l!.value),
          path,
          text,
          out
        )
      for (const m of members) {
        const encoded = present && isEncoded(m.ast)(value)
        if (!present || encoded) candidates(m, value, path, text, out, depth + 1)
        if (encoded) oneOfCandidates(m, members, value, path, text, out)
      }
      return
    }
    case "Lazy":
      if (present) candidates(shape.get(), value, path, text, out, depth + 1)
      return
    case "Array": {
      if (!present || !Array.isArray(value)) return
      const item = itemText(text)
      if (shape.minItems > 0)
        out.push({
          kind: "empty-array",
          ruleId: ContractRules.statedBy(shape.ast),
          rule: `${text}: empty array`,
          path,
          value: []
        })
      // An entry of another JSON type than the list's (`searchFields: [12345]`), beside its own entries' rules.
      if (!unsetOnly(shape.item))
        out.push({
          kind: "json-type",
          ruleId: "fields.json-type",
          rule: `${item}: wrong JSON type`,
          path: [...path, 0],
          value: wrongType(value[0], shape.item)
        })
      if (value.length > 0) candidates(shape.item, value[0], [...path, 0], item, out, depth + 1)
      else {
        const inner: Array<Candidate> = []
        candidates(shape.item, undefined, [...path, 0], item, inner, depth + 1)
        out.push(...inner)
      }
      return
    }
    case "Object": {
      if (!present || value === null || typeof value !== "object" || Array.isArray(value)) return
      const obj = value as Record<string, unknown>
      for (const field of shape.fields.values()) {
        const name = field.name
        const at = [...path, name]
        const atText = fieldText(text, name)
        const v = obj[name]
        if (field.required) {
          const ruleId = ContractRules.missingRuleOf(field.signature.type)
          out.push({
            kind: "required",
            ruleId,
            rule: `${atText}: required field missing`,
            path: at,
            value: undefined,
            remove: true
          })
          out.push({
            kind: "required",
            ruleId,
            rule: `${atText}: required field null`,
            path: at,
            value: null
          })
        }
        // A key only absent or null here is a one-of's other member: set, it breaks the one-of.
        if (unsetOnly(field.shape)) continue
        out.push({
          kind: "json-type",
          ruleId: "fields.json-type",
          rule: `${atText}: wrong JSON type`,
          path: at,
          value: wrongType(v, field.shape)
        })
        candidates(field.shape, v, at, atText, out, depth + 1)
      }
      return
    }
    default:
      return
  }
}

const setAt = (root: unknown, path: Path, value: unknown, remove: boolean): unknown => {
  if (path.length === 0) return value
  const [head, ...rest] = path
  if (Array.isArray(root)) {
    const copy = [...root]
    const i = head as number
    if (rest.length === 0 && remove) copy.splice(i, 1)
    else copy[i] = setAt(copy[i], rest, value, remove)
    return copy
  }
  const obj =
    root !== null && typeof root === "object" ? { ...(root as Record<string, unknown>) } : {}
  const key = String(head)
  if (rest.length === 0 && remove) delete obj[key]
  else obj[key] = setAt(obj[key], rest, value, remove)
  return obj
}

/**
 * Every invalid variant of a valid encoded request, each breaking one rule, each rejected by
 * the schema. Deterministic: the same input gives the same list in the same order.
 *
 * `options.skip` leaves out the variants it names (by rule, kind and path) without decoding
 * them, for a caller that has no use for them: the others are the same as without it (a variant
 * left out still hides a later one with the same body). It is asked of every variant, so it must
 * answer each on its own (not by the others).
 *
 * @since 0.1.0
 * @category derivation
 */
export const derive = (
  schema: Schema.Schema.AnyNoContext,
  encoded: unknown,
  options?: {
    readonly skip?: ((variant: Omit<Mutation, "body" | "dimensions">) => boolean) | undefined
  }
): ReadonlyArray<Mutation> => {
  if (options?.skip !== undefined) return variants(schema, encoded, options.skip)
  let bySchema = derived.get(schema)
  if (bySchema === undefined) derived.set(schema, (bySchema = new Map()))
  const key = fc.stringify(encoded)
  let known = bySchema.get(key)
  if (known === undefined) {
    known = variants(schema, encoded, undefined)
    if (bySchema.size >= MAX_DERIVED) bySchema.clear()
    bySchema.set(key, known)
  }
  return [...known]
}

/**
 * The variants already derived, by schema and by input as fast-check prints it (which tells a key
 * set to `undefined` from one left out): repeated draws and shrinks derive the same body again.
 * Emptied when full.
 */
const derived = new WeakMap<Schema.Schema.AnyNoContext, Map<string, ReadonlyArray<Mutation>>>()
const MAX_DERIVED = 1024

/**
 * A key per variant body, equal exactly when two bodies' JSON texts are (a variant of an object
 * changes one top-level entry: the same text as the input, or the same key changed alike), from
 * that entry's text rather than the whole body's; `entry` names the entry a variant's key is of
 * (`undefined`: the whole body's text, every key comparable with every other).
 */
const bodyKeys = (
  encoded: unknown,
  out: ReadonlyArray<Candidate>
): {
  readonly of: (c: Candidate, body: unknown) => string
  readonly entry: (c: Candidate) => string | undefined
} => {
  if (
    encoded === null ||
    typeof encoded !== "object" ||
    Array.isArray(encoded) ||
    out.some((c) => c.path.length === 0)
  )
    return { of: (_, body) => JSON.stringify(body), entry: () => undefined }
  const entryText = (o: object, key: string): string | undefined =>
    Object.hasOwn(o, key) ? JSON.stringify((o as Record<string, unknown>)[key]) : undefined
  const inputTexts = new Map<string, string | undefined>()
  return {
    of: (c, body) => {
      const key = String(c.path[0])
      let input = inputTexts.get(key)
      if (input === undefined && !inputTexts.has(key))
        inputTexts.set(key, (input = entryText(encoded, key)))
      const text = entryText(body as object, key)
      if (text === input) return ""
      return `${JSON.stringify(key)}${text === undefined ? "!" : `:${text}`}`
    },
    entry: (c) => String(c.path[0])
  }
}

const variants = (
  schema: Schema.Schema.AnyNoContext,
  encoded: unknown,
  skip: ((variant: Omit<Mutation, "body" | "dimensions">) => boolean) | undefined
): ReadonlyArray<Mutation> => {
  const out: Array<Candidate> = []
  candidates(SchemaWalk.shapeOf(schema.ast), encoded, [], ROOT, out, 0)
  const decodes = accepts(schema)
  const keys = bodyKeys(encoded, out)
  const seen = new Set<string>()
  // The variants left out, by entry: each one's key made only once a later variant's key may
  // equal it (the same entry changed, or the input's key: nothing changed).
  const pending = new Map<string | undefined, Array<Candidate>>()
  const settle = (entry: string | undefined) => {
    for (const [e, cs] of pending) {
      if (entry !== undefined && e !== entry) continue
      for (const c of cs) seen.add(keys.of(c, setAt(encoded, c.path, c.value, c.remove === true)))
      pending.delete(e)
    }
  }
  const result: Array<Mutation> = []
  for (const c of out) {
    if (skip !== undefined && skip(c)) {
      const entry = keys.entry(c)
      const cs = pending.get(entry)
      if (cs === undefined) pending.set(entry, [c])
      else cs.push(c)
      continue
    }
    const body = setAt(encoded, c.path, c.value, c.remove === true)
    const key = keys.of(c, body)
    if (pending.size > 0) settle(key === "" ? undefined : keys.entry(c))
    if (seen.has(key)) continue
    seen.add(key)
    if (!decodes(body))
      result.push({
        rule: c.rule,
        kind: c.kind,
        ruleId: c.ruleId,
        path: c.path,
        body,
        dimensions: dimensionsOf(c)
      })
  }
  return result
}
