/**
 * A request body the request schema refuses, read as the rule it breaks: the constraint that states
 * its must (`ContractRules.statedBy`), else the kind of the issue (a missing field, a wrong JSON
 * type, a value outside an enum). Messages name the rule, never a value.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import type * as AST from "effect/SchemaAST"
import { ContractRules, type Operations } from "@data-access/schema"
import { type RequestRule, requestRules } from "../oracles/invalid-rejected.js"
import type { Breach } from "../exchangeOracle.js"

type Op = Operations.Operation

/** One failed leaf of a decoding: where, what, and the rule the constraint it breaks states. */
interface Leaf {
  readonly path: ReadonlyArray<PropertyKey>
  readonly issue: ParseResult.ParseIssue
  readonly rule: RequestRule
  /** Whether the rule is the one a constraint's annotation states, not the reading by the issue's kind. */
  readonly stated: boolean
}

/** A stated rule as a request rule: every rule a request constraint states is one. */
const requestRule = (rule: ContractRules.RuleId | undefined): RequestRule | undefined =>
  rule !== undefined && (requestRules as ReadonlyArray<string>).includes(rule)
    ? (rule as RequestRule)
    : undefined

/** Whether a value of `actual`'s JSON type is one of an enum's values but not the right one: a union of literals of its type. */
const literalMembers = (ast: AST.AST, actual: unknown): boolean => {
  const members =
    ast._tag === "Literal"
      ? [ast].filter((t) => t.literal !== null)
      : ast._tag === "Union"
        ? ast.types.filter((t) => !(t._tag === "Literal" && t.literal === null))
        : []
  return (
    members.length > 0 &&
    members.every((t) => t._tag === "Literal" && typeof t.literal === typeof actual)
  )
}

/** The struct whose fields a composite issue's pointers name: the encoded side of a transformation or refinement. */
const encodedStruct = (ast: AST.AST): AST.TypeLiteral | undefined =>
  ast._tag === "TypeLiteral"
    ? ast
    : ast._tag === "Transformation" || ast._tag === "Refinement"
      ? encodedStruct(ast.from)
      : undefined

/**
 * The failed leaves of a decoding issue, each with the rule its constraint states
 * (`ContractRules.statedBy`); `field` is the schema of the struct field the walk is in, whose
 * absence rule a `null` (proto3 JSON's "not set") breaks.
 */
const leaves = (
  issue: ParseResult.ParseIssue,
  path: ReadonlyArray<PropertyKey>,
  out: Array<Leaf>,
  field?: AST.AST
): void => {
  switch (issue._tag) {
    case "Pointer":
      return leaves(
        issue.issue,
        [...path, ...(Array.isArray(issue.path) ? issue.path : [issue.path])],
        out,
        field
      )
    case "Refinement": {
      if (issue.kind === "From") return leaves(issue.issue, path, out, field)
      const stated = requestRule(ContractRules.statedBy(issue.ast))
      // A refinement that states no must of its own (an integer, an int32 range) is the field's JSON type.
      out.push({ path, issue, rule: stated ?? "fields.json-type", stated: stated !== undefined })
      return
    }
    case "Transformation":
      return leaves(issue.issue, path, out, field)
    case "Composite": {
      if (literalMembers(issue.ast, issue.actual)) {
        const stated = requestRule(ContractRules.statedBy(issue.ast))
        out.push({ path, issue, rule: stated ?? "fields.enum", stated: stated !== undefined })
        return
      }
      if (
        issue.ast._tag === "TupleType" &&
        Array.isArray(issue.actual) &&
        issue.actual.length < issue.ast.elements.length
      ) {
        // Fewer items than a non-empty array's first elements: the rule its constraint states.
        const stated = requestRule(ContractRules.statedBy(issue.ast))
        out.push({ path, issue, rule: stated ?? "fields.json-type", stated: stated !== undefined })
        return
      }
      const struct = encodedStruct(issue.ast)
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues]
      const inner: Array<Leaf> = []
      for (const i of issues) {
        const name = i._tag === "Pointer" && !Array.isArray(i.path) ? i.path : undefined
        const p = struct?.propertySignatures.find((s) => s.name === name)
        leaves(i, path, inner, p === undefined ? field : p.isOptional ? undefined : p.type)
      }
      // A one-of's member whose own key is missing was not the one meant: a value in another
      // member's key (which it takes only as unset) breaks no one-of there.
      const meant = !issues.some((i) => i._tag === "Pointer" && i.issue._tag === "Missing")
      for (const l of inner)
        out.push(
          meant || l.issue._tag !== "Type" || l.issue.ast._tag !== "NeverKeyword"
            ? l
            : { ...l, rule: "fields.json-type", stated: false }
        )
      return
    }
    case "Missing": {
      // A struct's missing key carries its property signature (no `_tag`), typed as the property's type.
      const ast = issue.ast as AST.AST | AST.PropertySignature
      const rule =
        requestRule(ContractRules.missingRuleOf("_tag" in ast ? ast : ast.type)) ??
        "fields.required"
      out.push({ path, issue, rule, stated: rule !== "fields.required" })
      return
    }
    case "Type": {
      if (issue.actual === null && field !== undefined) {
        // `null` on a required field is the field not set (decisions.md section 1).
        const rule = requestRule(ContractRules.missingRuleOf(field)) ?? "fields.required"
        out.push({ path, issue, rule, stated: rule !== "fields.required" })
        return
      }
      // An array's stated rule (a group's filters not empty) is for arrays; another JSON type is the wrong type.
      const typed = issue.ast._tag !== "TupleType" || Array.isArray(issue.actual)
      const stated = typed ? requestRule(ContractRules.statedBy(issue.ast)) : undefined
      out.push({
        path,
        issue,
        rule:
          stated ?? (literalMembers(issue.ast, issue.actual) ? "fields.enum" : "fields.json-type"),
        stated: stated !== undefined
      })
      return
    }
    default:
      out.push({ path, issue, rule: "fields.json-type", stated: false })
  }
}

/** Bodies that decoded, and what they decoded to: the oracles reuse it (decoding is a proxy's largest cost). */
export const decodedBodies = new WeakMap<Record<string, unknown>, unknown>()

/** The request schema's first issue, as a breach; `undefined` when the body decodes. */
export const decodeBreach = (op: Op, body: Record<string, unknown>): Breach | undefined => {
  // The issue, not a ParseError: an Error captures a stack, and most refused requests reach here.
  const decoded = ParseResult.decodeUnknownEither(op.request, { errors: "all" })(body)
  if (Either.isRight(decoded)) {
    decodedBodies.set(body, decoded.right)
    return undefined
  }
  const found: Array<Leaf> = []
  leaves(decoded.left, [], found)
  // A constraint that states its must (a range, a one-of, a filter rule) says more than the members
  // of a union that did not match (`Expected null`, `is missing`); of those, the member that read
  // deepest into the body is the one it was meant as.
  const deepest = Math.max(0, ...found.map((l) => l.path.length))
  const leaf =
    found.find((l) => l.stated) ??
    found.find((l) => l.path.length === deepest && l.issue._tag !== "Missing") ??
    found.find((l) => l.path.length === deepest)
  if (leaf === undefined)
    return {
      rule: "fields.json-type",
      cause: "body: invalid",
      message: "the request does not decode"
    }
  const at = leaf.path.map(String).join(".") || "(body)"
  const text = ParseResult.ArrayFormatter.formatIssueSync(leaf.issue)[0]?.message ?? "invalid"
  // The message names the rule, never a value: values may be secrets.
  const message = text
    .replace(/, actual .*$/s, "")
    .replace(/"[^"]*"/g, (s) => (s.length > 40 ? '"…"' : s))
  // The label says the rule in words (the schema's message without a value), not the issue's kind.
  const key = String(leaf.path.at(-1) ?? "")
  const rule = key !== "" && message.startsWith(`${key} `) ? message.slice(key.length + 1) : message
  const words = rule.length > 80 ? `${rule.slice(0, 79)}…` : rule
  return {
    rule: leaf.rule,
    cause: `${at}: ${words}`,
    message: `request ${at}: ${message}`
  }
}
