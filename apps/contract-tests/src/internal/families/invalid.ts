/**
 * Invalid requests: each breaks exactly one must (a field rule, the body, a cursor, a filter) and
 * is rejected with invalid_argument; no error body carries a secret that was sent; a value outside
 * the formats seen in use that is accepted is a note.
 */
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import { type ContractRules, Filter, SchemaWalk, Secrets } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import * as Dimensions from "../dimensions.js"
import * as Mutations from "../mutations.js"
import {
  type Body,
  type Context,
  type Family,
  isWrite,
  type Op,
  requiredFieldsOf,
  send,
  skipped,
  type Suite,
  uniqueNames
} from "../context.js"
import * as Gen from "../generate.js"
import { type Exchange, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { unknownCursorRefused } from "../oracles/paging.js"
import { type Known, madeValid, refusalVerdict } from "../refusalVerdict.js"
import { secretsKept } from "../oracles/secrets.js"
import { note, type Outcome, type Verdict } from "../outcome.js"
import { requestPropertyNames } from "../pools.js"
import { requiredRefs } from "../listWalk.js"

/** An invalid request: the must it breaks, a label without values, the body (text or JSON). */
export interface Invalid {
  readonly rule: ContractRules.RuleId
  readonly label: string
  readonly body: unknown
  readonly text?: string
  /** The fields and dimensions of their inputs it exercises, counted in the run's coverage when sent. */
  readonly tags?: ReadonlyArray<Dimensions.Tag>
}

/** A mutation as an invalid request, citing the must its constraint states; none when no must backs it (it is not sent). */
const fromMutation = (m: Mutations.Mutation): Invalid | undefined =>
  m.ruleId === undefined
    ? undefined
    : {
        rule: m.ruleId,
        label: m.rule,
        body: m.body,
        tags: Dimensions.refused(Dimensions.fieldOf(m.path), ...m.dimensions)
      }

/** The runner's verdict on the answer to an invalid request, judged as every answer to a request that breaks a must is. */
export const rejected = (e: Exchange, c: Invalid, known: Known): Outcome | undefined =>
  c.rule === "lists.unknown-cursor"
    ? unknownCursorRefused(e, c.label, known)
    : refusalVerdict(e, [{ rule: c.rule, cause: c.label }], known)

const judge = (op: Op, ctx: Context, c: Invalid, known: Known) =>
  Effect.map(
    send(
      ctx,
      c.text !== undefined
        ? { ...post(op.path, undefined), body: c.text }
        : post(op.path, uniqueNames(op, c.body))
    ),
    (e): ReadonlyArray<Verdict> => {
      Dimensions.sent(ctx.dimensions, op.method, c.tags ?? [])
      return [
        Inspect.noServerErrors(e),
        Inspect.errorShape(e),
        rejected(e, c, known),
        secretsKept(c.body, e)
      ].filter((o): o is Outcome => o !== undefined)
    }
  )

const CHECKS: ReadonlyArray<CheckId> = [
  "no-server-errors",
  "error-shape",
  "invalid-rejected",
  "secrets"
]

const invalidSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op))
    return skipped("invalid", op.method, CHECKS, true, "read-only mode")
  const v = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
  // Without existing ids, a placeholder still lets every rule be broken on its own.
  const bodies = v._tag === "Ok" ? v.arbitrary : Gen.encodedRequests(op)
  // A placeholder id names nothing: not_found then answers another fault of the request.
  const known: Known = { ...madeValid, idsExist: v._tag === "Ok" }
  // The mutations a must backs; only the one drawn is made a request.
  const arbitrary = bodies
    .map((b) => Mutations.derive(op.request, b).filter((m) => m.ruleId !== undefined))
    .filter((ms) => ms.length > 0)
    .chain((ms) => fc.constantFrom(...ms))
    .map((m) => fromMutation(m)!)
  return {
    family: "invalid",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: { _tag: "Property", arbitrary, examples: ctx.examples },
    run: (c: Invalid) => judge(op, ctx, c, known)
  }
}

const SV = (value: string) => ({ "@type": Filter.STRING_VALUE_TYPE, value })

/** Cases no generated body reaches reliably: unknown cursors, filter keys and operators, empty groups. */
const listCases = (op: Op, ctx: Context): ReadonlyArray<Invalid> => {
  if (op.kind !== "list") return []
  const base = requiredRefs(op, ctx.pools, 0)
  if (base === undefined) return []
  const props = requestPropertyNames(op)
  const out: Array<Invalid> = [
    {
      rule: "lists.unknown-cursor",
      label: "cursor: unknown",
      body: { ...base, limit: 10, cursor: `ct-unknown-cursor-${ctx.runId}` }
    }
  ]
  if (props.includes("filter")) {
    out.push(
      {
        rule: "filter.unknown-key",
        label: "filter: unknown key",
        body: {
          ...base,
          limit: 10,
          filter: { field: { key: "ct_no_such_key", operator: "equals", value: SV("x") } }
        },
        tags: Dimensions.refused("filter.field.key", "enum")
      },
      {
        rule: "filter.unknown-key",
        label: "filter: unknown operator",
        body: {
          ...base,
          limit: 10,
          filter: { field: { key: "name", operator: "ct_like", value: SV("x") } }
        },
        tags: Dimensions.refused("filter.field.operator", "enum")
      },
      {
        rule: "filter.group-not-empty",
        label: "filter: empty group",
        body: { ...base, limit: 10, filter: { group: { operator: "and", filters: [] } } },
        tags: Dimensions.refused("filter.group.filters", "zero-value")
      }
    )
  }
  return out
}

/** A character of one UTF-16 unit and three UTF-8 bytes, the same in every normal form. */
const WIDE = "\u4e2d"

/**
 * Each string field's min length broken by characters of three UTF-8 bytes each: one character
 * short under every count but bytes, long enough in bytes (a server that counts bytes serves it).
 */
const wideShort = (op: Op, valid: Body): ReadonlyArray<Invalid> =>
  [...SchemaWalk.requestFields(op)].flatMap(([name, field]): ReadonlyArray<Invalid> => {
    const shape = SchemaWalk.nonNullish(field.shape)
    if (shape._tag !== "String" || shape.minLength < 2 || shape.literals !== undefined) return []
    const body = { ...valid, [name]: WIDE.repeat(shape.minLength - 1) }
    return !Gen.isValid(op, body) &&
      Gen.isValid(op, { ...valid, [name]: WIDE.repeat(shape.minLength) })
      ? [
          {
            rule: "fields.min-length",
            label: `${name}: ${shape.minLength - 1} characters of 3 UTF-8 bytes (min ${shape.minLength})`,
            body,
            tags: Dimensions.refused(name, "bound-bytes", "multi-byte")
          }
        ]
      : []
  })

/**
 * The spellings of a value of one JSON type that a lenient server coerces to it and the official
 * codec (protobuf-es) refuses: a boolean as the string `"true"` / `"false"`, a string as a boolean,
 * a number as a boolean, an object as its JSON text, a list as its one item or as an object of
 * indexes. (protobuf-es takes an int32 as a numeric string: that is never sent here.)
 */
const coercedSpellings = (
  shape: SchemaWalk.Shape,
  value: unknown
): ReadonlyArray<{ readonly wrong: unknown; readonly what: string }> => {
  switch (shape._tag) {
    case "Boolean":
      return typeof value === "boolean"
        ? [String(value), String(!value)].map((wrong) => ({
            wrong,
            what: `a boolean as the string ${JSON.stringify(wrong)}`
          }))
        : []
    case "String":
      return typeof value === "string" ? [{ wrong: true, what: "a string as a boolean" }] : []
    case "Number":
      return typeof value === "number"
        ? [{ wrong: value !== 0, what: "a number as a boolean" }]
        : []
    case "Object":
      return isPlainObject(value) && shape.values === undefined
        ? [{ wrong: JSON.stringify(value, unsecret), what: "an object as its JSON text" }]
        : []
    case "Array":
      return Array.isArray(value) && value.length > 0
        ? [
            { wrong: value[0], what: "a list as its one item" },
            { wrong: { ...value }, what: "a list as an object of indexes" }
          ]
        : []
    default:
      return []
  }
}

/**
 * An object's JSON text with its secret fields' values replaced: inside a string they would escape
 * the masking of secret fields in reports and HAR files, and any non-empty text tells the fault.
 */
const unsecret = (key: string, value: unknown): unknown =>
  Secrets.fieldNames.has(key) && typeof value === "string" ? "not-a-secret" : value

const isPlainObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Each field of the valid bodies (at any depth of nested objects, but not inside a filter), in the
 * first body that has it, spelled as each coercion a lenient server makes to its type
 * (`coercedSpellings`): the official codec refuses each (decisions.md section 2: a wrong JSON type
 * is invalid_argument).
 */
const coerced = (op: Op, valids: ReadonlyArray<Body>): ReadonlyArray<Invalid> => {
  const out: Array<Invalid> = []
  const done = new Set<string>()
  const visit = (
    fields: ReadonlyMap<string, SchemaWalk.Field>,
    obj: Record<string, unknown>,
    path: ReadonlyArray<string>,
    set: (inner: Record<string, unknown>) => Body
  ) => {
    for (const [name, field] of fields) {
      if (path.length === 0 && name === "filter") continue
      const v = obj[name]
      if (v === undefined || v === null) continue
      const shape = SchemaWalk.nonNullish(field.shape)
      const at = Dimensions.fieldOf([...path, name])
      coercedSpellings(shape, v).forEach(({ what, wrong }, i) => {
        const body = set({ ...obj, [name]: wrong })
        if (done.has(`${at} ${i}`)) return
        if (!Gen.isValid(op, body)) {
          out.push({
            rule: "fields.json-type",
            label: `${at}: ${what}`,
            body,
            tags: Dimensions.refused(at, "json-type")
          })
          done.add(`${at} ${i}`)
        }
      })
      if (shape._tag === "Object" && shape.values === undefined && isPlainObject(v))
        visit(shape.fields, v, [...path, name], (inner) => set({ ...obj, [name]: inner }))
    }
  }
  for (const valid of valids) visit(SchemaWalk.requestFields(op), valid, [], (inner) => inner)
  return out
}

/** Fields whose format a server may validate or not (decisions.md section 10), and a value outside the formats seen in use. */
const formatProbes: Readonly<Record<string, string>> = {
  workerSchedule: "ct: not a cron schedule",
  schedule: "ct-weekly"
}

interface FormatProbe {
  readonly probe: string
  readonly body: Body
}

/**
 * Every rule once: the distinct mutations (by rule) of a few valid requests, each sent once, so
 * that no rule depends on the luck of the random invalid examples; then the list cases and the
 * format probes.
 */
const rulesSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op))
    return skipped("rules", op.method, CHECKS, true, "read-only mode")
  let cases: ReadonlyArray<Invalid | FormatProbe> | undefined
  let sender: Known = madeValid
  const all = () => {
    if (cases !== undefined) return cases
    const g = Gen.valid(op, ctx.pools, ctx.runId, { unknownFields: false })
    // A placeholder id names nothing: not_found then answers another fault of the request.
    sender = { ...madeValid, idsExist: g._tag === "Ok" }
    const bodies = fc.sample(g._tag === "Ok" ? g.arbitrary : Gen.encodedRequests(op), {
      seed: ctx.seed,
      numRuns: 25
    })
    // Bodies with only their required fields first: the mutations of those are minimal.
    const required = new Set(requiredFieldsOf(op))
    const minimal = bodies
      .map((b) => Object.fromEntries(Object.entries(b).filter(([k]) => required.has(k))))
      .filter((b) => Gen.isValid(op, b))
    const byRule = new Map<string, Invalid>()
    // A variant of a label already kept, or of no must, is left out before it is decoded.
    const known = (v: Omit<Mutations.Mutation, "body" | "dimensions">) =>
      byRule.has(v.rule) || v.ruleId === undefined
    for (const b of [...minimal, ...bodies]) {
      for (const m of Mutations.derive(op.request, b, { skip: known })) {
        const c = fromMutation(m)
        if (c !== undefined && !byRule.has(c.label)) byRule.set(c.label, c)
      }
    }
    const probes: Array<FormatProbe> = []
    if (g._tag === "Ok" && bodies[0] !== undefined && op.kind === "create") {
      for (const [field, value] of Object.entries(formatProbes)) {
        const body = { ...bodies[0], [field]: value }
        if (field in bodies[0] && Gen.isValid(op, body)) probes.push({ probe: field, body })
      }
    }
    const first = g._tag === "Ok" ? bodies[0] : undefined
    const wide = first !== undefined ? wideShort(op, first) : []
    const spelled = g._tag === "Ok" ? coerced(op, bodies) : []
    cases = [...byRule.values(), ...wide, ...spelled, ...listCases(op, ctx), ...probes]
    return cases
  }
  return {
    family: "rules",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: {
      _tag: "Enumerated",
      get count() {
        return all().length
      },
      at: (i) => all()[i]
    },
    run: (c: Invalid | FormatProbe) =>
      "probe" in c
        ? Effect.map(
            send(ctx, post(op.path, uniqueNames(op, c.body))),
            (e): ReadonlyArray<Verdict> => [
              Inspect.noServerErrors(e),
              ...(Inspect.statusOf(e) === 200
                ? [
                    note(
                      "format-not-validated",
                      `${c.probe} ${JSON.stringify(c.body[c.probe])} was accepted (the format seen in use is not enforced)`,
                      e
                    )
                  ]
                : [])
            ]
          )
        : judge(op, ctx, c, sender)
  }
}

/** Bodies that are not a valid request at all: empty, not JSON, not an object, `{}` when something is required. */
const bodySuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op)) return skipped("body", op.method, CHECKS, true, "read-only mode")
  const notAnObject = Dimensions.refused("(body)", "json-type")
  const cases: Array<Invalid> = [
    { rule: "wire.empty-body", label: "empty body", body: undefined, text: "", tags: notAnObject },
    {
      rule: "wire.json-object-body",
      label: "malformed JSON",
      body: undefined,
      text: "{",
      tags: notAnObject
    },
    {
      rule: "wire.json-object-body",
      label: "JSON array body",
      body: undefined,
      text: "[]",
      tags: notAnObject
    },
    {
      rule: "wire.json-object-body",
      label: "JSON string body",
      body: undefined,
      text: JSON.stringify("text"),
      tags: notAnObject
    }
  ]
  if (!Gen.isValid(op, {}))
    cases.push({
      rule: op.kind === "list" ? "lists.limit-range" : "fields.required",
      label: "empty object",
      body: undefined,
      text: "{}",
      tags: Dimensions.refused("(body)", "zero-value")
    })
  return {
    family: "body",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: Invalid) => judge(op, ctx, c, madeValid)
  }
}

export const invalid: Family = {
  name: "invalid",
  checks: CHECKS,
  suites: (op, ctx) => [invalidSuite(op, ctx), rulesSuite(op, ctx), bodySuite(op, ctx)]
}
