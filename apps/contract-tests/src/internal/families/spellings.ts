/**
 * Spellings of one valid request that the standards make the same request, sent beside its
 * plainest spelling: the body's JSON with escapes (`\u0061` for `a`, `\/` for `/`, in every name and
 * string), with whitespace between all its tokens, and with each optional field it leaves out sent
 * as its zero value (`""`, `false`, `0`, `[]`; not in an update, whose absent fields stay as they
 * are, and not where proto3 or decisions.md section 10 lets the two differ: enums, ids, one-of
 * variants, secrets, formats, cursors). Each spelling is accepted when the plainest is, a read
 * answers it with the same object or items, and a create returns what it was sent.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as AST from "effect/SchemaAST"
import { ContractRules, Secrets } from "@data-access/schema"
import type { CheckId } from "@data-access/schema/ContractChecks"
import {
  type Body,
  type Context,
  type Family,
  isWrite,
  type Op,
  send,
  skipped,
  type Suite,
  uniqueNames
} from "../context.js"
import * as Gen from "../generate.js"
import { type Exchange, post } from "../http.js"
import * as Inspect from "../inspect.js"
import { asRecord, canonical, firstDifference } from "../json.js"
import { createEcho } from "../oracles/create-echo.js"
import { fail, type Outcome, pass, type Verdict } from "../outcome.js"
import { encodedFields } from "../schemas.js"
import { itemsOf } from "../walk.js"
import { sampleBody } from "./shared/bodies.js"
import { latitudeCreates } from "./latitude/probes.js"
import { relationCreates } from "./shared/readers.js"
import { successionCreates } from "./succession.js"

/** A JSON string literal with its first ASCII letter as a `\u` escape and every `/` as `\/`. */
const escapedString = (s: string): string => {
  let escaped = false
  let out = ""
  for (const c of s) {
    if (!escaped && /^[A-Za-z]$/.test(c)) {
      out += `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
      escaped = true
    } else if (c === "/") out += "\\/"
    else out += JSON.stringify(c).slice(1, -1)
  }
  return `"${out}"`
}

/** JSON text of a value with every name and string escaped (`escapedString`). */
export const escapedJson = (v: unknown): string => {
  if (typeof v === "string") return escapedString(v)
  if (Array.isArray(v)) return `[${v.map(escapedJson).join(",")}]`
  if (v !== null && typeof v === "object") {
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${escapedString(k)}:${escapedJson(x)}`)
      .join(",")}}`
  }
  return JSON.stringify(v)
}

/** The whitespace JSON allows between tokens: space, tab, line feed, carriage return. */
const WS = " \t\r\n"

/** JSON text of a value with whitespace before and after every token. */
export const spacedJson = (v: unknown): string => {
  if (Array.isArray(v)) return `[${WS}${v.map(spacedJson).join(`${WS},${WS}`)}${WS}]`
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined)
    return `{${WS}${entries.map(([k, x]) => `${JSON.stringify(k)}${WS}:${WS}${spacedJson(x)}`).join(`${WS},${WS}`)}${WS}}`
  }
  return JSON.stringify(v)
}

/** The zero value of a field's wire type, when it is a scalar or an array; `undefined` for an enum, an object or a one-of. */
const zeroOfType = (ast: AST.AST): unknown => {
  switch (ast._tag) {
    case "StringKeyword":
      return ""
    case "BooleanKeyword":
      return false
    case "NumberKeyword":
      return 0
    case "TupleType":
      return ast.elements.length === 0 && ast.rest.length === 1 ? [] : undefined
    case "Refinement":
      return zeroOfType(ast.from)
    case "Union": {
      const members = ast.types.filter(
        (t) => !(t._tag === "Literal" && t.literal === null) && t._tag !== "UndefinedKeyword"
      )
      return members.length === 1 ? zeroOfType(members[0]!) : undefined
    }
    default:
      return undefined
  }
}

/**
 * Optional fields whose zero value and absence are one value for every faithful server: not in an
 * update (absent leaves a field as it is, decisions.md section 4), not an enum (a server may default
 * an absent one, section 10), an id (`spaceId: ""` may name no space), a one-of variant (proto3
 * tracks which is set), a secret, a format a server may validate (section 10) or the cursor (proto3
 * `optional` tracks its presence).
 */
export const zeroValueFields = (
  op: Op,
  body: Body
): { readonly absent: Body; readonly zeros: Body } => {
  const none = { absent: body, zeros: {} }
  if (op.kind === "update") return none
  const zeros: Body = {}
  for (const p of encodedFields(op.request)) {
    const k = String(p.name)
    if (
      !p.isOptional ||
      /(^id|Id)$/.test(k) ||
      k === "cursor" ||
      Secrets.fieldNames.has(k) ||
      (op.oneOf ?? []).includes(k) ||
      ContractRules.formatFields.has(k)
    )
      continue
    const zero = zeroOfType(p.type)
    if (zero !== undefined) zeros[k] = zero
  }
  const absent = Object.fromEntries(Object.entries(body).filter(([k]) => !(k in zeros)))
  return Object.keys(zeros).length > 0 &&
    Gen.isValid(op, absent) &&
    Gen.isValid(op, { ...absent, ...zeros })
    ? { absent, zeros }
    : none
}

interface Spelling {
  readonly label: string
  readonly rule: ContractRules.RuleId
  /** The request in its plainest spelling. */
  readonly plain: Body
  /** The request's text in this spelling. */
  readonly text: (body: Body) => string
}

const spellingsOf = (op: Op, body: Body): ReadonlyArray<Spelling> => {
  const { absent, zeros } = zeroValueFields(op, body)
  return [
    {
      label: "JSON escapes (\\u0061, \\/)",
      rule: "wire.json-spellings",
      plain: body,
      text: escapedJson
    },
    {
      label: "whitespace between every token",
      rule: "wire.json-spellings",
      plain: body,
      text: spacedJson
    },
    ...(Object.keys(zeros).length === 0
      ? []
      : [
          {
            label: `${Object.keys(zeros).join(", ")} sent as zero values`,
            rule: "wire.zero-is-unset",
            plain: absent,
            text: (b: Body) => JSON.stringify({ ...b, ...zeros })
          } satisfies Spelling
        ])
  ]
}

const okJson = (e: Exchange): unknown =>
  Option.getOrUndefined(
    Option.flatMap(e.response, (r) => (r.status === 200 ? r.json : Option.none()))
  )

/** Arrays whose order no rule fixes (the keys of GetEncryptionKeysByKeyId) compare as sets. */
const sorted = (v: unknown): unknown =>
  Array.isArray(v)
    ? [...v.map(sorted)].sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1))
    : asRecord(v)
      ? Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, sorted(x)]))
      : v

/** What a read's answer says: a List's items (its cursor is opaque and may differ), a Get's whole body. */
const readOf = (op: Op, json: unknown): unknown =>
  op.kind === "list" ? itemsOf(op, json) : sorted(json)

/**
 * Whether the answer refuses the request itself: not a rate limit or an overload answered first,
 * not a 5xx (judged as such), not already_exists (a create of the same link twice, which no must
 * says a server accepts).
 */
const refused = (e: Exchange): boolean => {
  const status = Inspect.statusOf(e)
  return (
    status !== undefined &&
    status !== 200 &&
    status < 500 &&
    !Inspect.answeredFirst(e) &&
    Inspect.codeOf(e) !== "already_exists"
  )
}

const isFail = (v: Verdict): v is Outcome => "ok" in v && !v.ok

const CHECKS: ReadonlyArray<CheckId> = ["valid-accepted", "no-server-errors", "error-shape"]

/**
 * The spellings a suite sends: every one to a read; to a Create, those whose objects (one for the
 * spelling, one for a plain body not yet sent) fit in `--creates-per-operation` once the
 * relations', the latitude family's and the quick-succession creates and one valid example are
 * taken, so that the run never makes more objects than it was allowed.
 */
const spellingsSent = (
  op: Op,
  ctx: Context,
  all: ReadonlyArray<Spelling>
): ReadonlyArray<Spelling> => {
  if (op.kind !== "create") return all
  let left =
    ctx.createExamples -
    relationCreates(op, ctx) -
    latitudeCreates(op, ctx) -
    successionCreates(op, ctx) -
    1
  const plains = new Set<Body>()
  const out: Array<Spelling> = []
  // Each rule's first spelling before the others, so that a small allowance still tells every rule.
  const firsts = all.filter((s, i) => all.findIndex((t) => t.rule === s.rule) === i)
  for (const s of [...firsts, ...all.filter((s) => !firsts.includes(s))]) {
    const cost = plains.has(s.plain) ? 1 : 2
    if (cost > left) break
    left -= cost
    plains.add(s.plain)
    out.push(s)
  }
  return out
}

const sentCounts = new WeakMap<Context, Map<Op, number>>()

/** How many objects the spellings suite of a Create makes (0 for another operation or in read-only mode). */
export const spellingCreates = (op: Op, ctx: Context): number => {
  if (op.kind !== "create" || ctx.readOnly) return 0
  let counts = sentCounts.get(ctx)
  if (counts === undefined) sentCounts.set(ctx, (counts = new Map()))
  let n = counts.get(op)
  if (n === undefined) {
    const { body, valid } = sampleBody(op, ctx)
    const sent = valid ? spellingsSent(op, ctx, spellingsOf(op, body)) : []
    n = sent.length + new Set(sent.map((s) => s.plain)).size
    counts.set(op, n)
  }
  return n
}

const spellingSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op))
    return skipped("spellings", op.method, CHECKS, true, "read-only mode")
  const { body, valid } = sampleBody(op, ctx)
  if (!valid)
    return skipped(
      "spellings",
      op.method,
      CHECKS,
      isWrite(op),
      "no valid request can be made (nothing to reference)"
    )
  const spellings = spellingsSent(op, ctx, spellingsOf(op, body))
  // The plainest spelling's answer, sent once for each plain body (a create makes one object for every spelling).
  const plains = new Map<Body, Exchange>()
  return {
    family: "spellings",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: spellings.length, at: (i) => spellings[i] },
    run: (s: Spelling) =>
      Effect.gen(function* () {
        let p = plains.get(s.plain)
        if (p === undefined)
          plains.set(s.plain, (p = yield* send(ctx, post(op.path, uniqueNames(op, s.plain)))))
        // Only a spelling of a request served in its plainest spelling is judged.
        if (Inspect.statusOf(p) !== 200) return []
        const sent = uniqueNames(op, s.plain) as Body
        const text = s.text(sent)
        const e = yield* send(ctx, { ...post(op.path, undefined), body: text })
        const out: Array<Verdict> = [Inspect.noServerErrors(e)]
        const shape = Inspect.errorShape(e)
        if (shape !== undefined) out.push(shape)
        const problem = (cause: string, what: string, detail?: string): Outcome =>
          fail(
            s.rule,
            `${s.label}: ${cause}`,
            `the same request with ${s.label} ${what}; its plainest spelling was answered 200`,
            e,
            detail
          )
        if (refused(e))
          return [
            ...out,
            problem(
              "refused",
              `was refused with ${Inspect.summary(e)}`,
              Option.match(e.response, {
                onNone: () => undefined,
                onSome: (r) => Inspect.excerpt(r, 300)
              })
            )
          ]
        if (Inspect.statusOf(e) !== 200) return out
        if (op.kind === "get" || op.kind === "list") {
          const d = firstDifference(readOf(op, okJson(p)), readOf(op, okJson(e)))
          if (d !== undefined)
            return [
              ...out,
              problem(
                "answered differently",
                `was answered with another ${op.kind === "list" ? "page" : "object"} (first difference at ${d})`,
                `at ${d}`
              )
            ]
        }
        if (op.kind === "create") {
          // The create returns what it was sent, as it does in the plainest spelling.
          const echoed = createEcho(op, Gen.normalizeKeys(JSON.parse(text)) as Body, e).find(isFail)
          if (
            echoed !== undefined &&
            !createEcho(op, Gen.normalizeKeys(JSON.parse(p.request.body ?? "{}")) as Body, p).some(
              isFail
            )
          ) {
            return [
              ...out,
              problem(
                "made another object",
                `made an object other than it was sent (${echoed.message})`
              )
            ]
          }
        }
        return [...out, pass("valid-accepted", [s.rule])]
      })
  }
}

export const spellings: Family = {
  name: "spellings",
  checks: CHECKS,
  suites: (op, ctx) => [spellingSuite(op, ctx)]
}
