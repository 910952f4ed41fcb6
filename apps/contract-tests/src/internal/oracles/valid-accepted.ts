/**
 * valid-accepted: a request that breaks no must, in any spelling a server must read like its plain
 * form, is not refused with invalid_argument.
 */
import * as Option from "effect/Option"
import { ContractRules, Filter } from "@data-access/schema"
import type { Body, Op } from "../context.js"
import { asRecord, snakeToCamel } from "../json.js"
import { jsonDifference, sortedAnswer } from "../objectDifference.js"
import { type Exchange, okJson } from "../http.js"
import { fail, type Outcome, pass, passes, type Verdict } from "../outcome.js"
import * as Shape from "../requestShape.js"
import * as TextLength from "../textLength.js"
import { itemsOf } from "../listWalk.js"
import {
  answerExcerpt,
  answeredFirst,
  codeOf,
  encodingLeftOut,
  excerpt,
  got,
  slowNotHung,
  statusOf,
  summary,
  tellsNothing
} from "../answerReading.js"
import { judgeable, OPERATORS } from "../filterReadings.js"
import { type Breach, type ExchangeOracle, oracle } from "../exchangeOracle.js"

/** A way of spelling a valid request that a server must read like its plain form, and the rule it tests. */
export interface Spelling {
  readonly rule: ContractRules.RuleId
  readonly label: string
  readonly has: (op: Op, body: Body) => boolean
}

/** The spellings of a valid request, in the order a refusal is put down to them. */
export const spellings: ReadonlyArray<Spelling> = [
  { rule: "wire.unknown-fields-ignored", label: "unknown field", has: Shape.hasUnknownFields },
  {
    rule: "wire.snake-case",
    label: "snake_case names",
    has: (_, body) => Shape.hasSnakeCase(body)
  },
  {
    rule: "wire.null-is-unset",
    label: "null for unset fields",
    has: (_, body) => Shape.hasNulls(body)
  }
]

/** The rule a refusal of a valid request in its plain form breaks: `limit` at a bound (1, 500) has its own. */
export const plainAcceptance = (
  body: Body
): { readonly rule: ContractRules.RuleId; readonly label: string } =>
  body.limit === 500 || body.limit === 1
    ? { rule: "lists.limit-accepted", label: `limit ${body.limit}` }
    : typeof body.name === "string" && body.name.length === TextLength.SAFE_STRING_LENGTH
      ? { rule: "fields.valid-accepted", label: `a name of ${body.name.length} characters` }
      : { rule: "fields.valid-accepted", label: "valid request" }

/** The rule a refusal of a valid request breaks, read from the request alone: its first spelling, else its plain form's. */
export const acceptanceRule = (
  op: Op,
  body: Body
): { readonly rule: ContractRules.RuleId; readonly label: string } =>
  spellings.find((s) => s.has(op, body)) ?? plainAcceptance(body)

/**
 * Why a faithful server may refuse a request that breaks no must (decisions.md section 10), or
 * `undefined` when every faithful server serves it: a form only a lenient server accepts, a cursor
 * (bound to its request, or never given), an enum left out, a field whose format a server may
 * validate, a filter outside what every reading decides.
 */
export const mayRefuse = (
  op: Op,
  body: Body,
  sent: Body,
  breaches: ReadonlyArray<Breach>,
  headers: Readonly<Record<string, string>>
): string | undefined => {
  if (breaches.length > 0) return breaches[0]!.cause
  // Headers outside what clients send (decisions.md section 1): the documents do not say how they are answered.
  const timeout = headers["connect-timeout-ms"]
  if (timeout !== undefined && !/^\d{1,10}$/.test(timeout)) return "a malformed Connect-Timeout-Ms"
  const version = headers["connect-protocol-version"]
  if (version !== undefined && version !== "1") return "a Connect-Protocol-Version other than 1"
  if (typeof sent.cursor === "string" && sent.cursor !== "") return "a cursor"
  for (const name of Shape.alwaysSentEnums(op).keys())
    if (sent[name] === undefined) return `${name} left out`
  const format = (v: unknown, depth: number): string | undefined => {
    if (depth > 16 || v === null || typeof v !== "object") return undefined
    for (const [k, x] of Object.entries(v)) {
      if (ContractRules.formatFields.has(snakeToCamel(k)) && typeof x === "string")
        return `${k}: a format a server may validate`
      const inner = k === "filter" ? undefined : format(x, depth + 1)
      if (inner !== undefined) return inner
    }
    return undefined
  }
  const formatted = format(body, 0)
  if (formatted !== undefined) return formatted
  const filter = asRecord(sent.filter) as Filter.Filter<string> | undefined
  if (
    filter !== undefined &&
    (!judgeable(filter) || !typedOperators(filter, Shape.booleanProperties(op.object)))
  )
    return "a filter some server may refuse"
  return undefined
}

/** Whether every condition on a boolean key uses only the operators booleans have (a server may refuse the others: strict-filter-types). */
const typedOperators = (filter: Filter.Filter<string>, booleans: ReadonlySet<string>): boolean => {
  if (Filter.isEmpty(filter)) return true
  if ("group" in filter && filter.group !== undefined)
    return filter.group.filters.every((f) => typedOperators(f, booleans))
  const field = filter.field
  return (
    field === undefined ||
    !booleans.has(snakeToCamel(field.key)) ||
    OPERATORS.boolean.includes(field.operator)
  )
}

/**
 * valid-accepted: a request that breaks no must and that every faithful server serves is not
 * refused with invalid_argument. (The runner's valid requests are such by construction and judged
 * more widely there: any refusal, told apart by a second request.)
 */
const validAccepted = oracle({
  name: "valid-accepted",
  rules: [
    "fields.valid-accepted",
    "wire.unknown-fields-ignored",
    "wire.snake-case",
    "wire.null-is-unset",
    "lists.limit-accepted"
  ],
  judge: ({ body, breaches, exchange: e, headers, op, sent }) => {
    if (op === undefined || body === undefined || sent === undefined) return []
    const status = statusOf(e)
    if (status === 200) return [passes([acceptanceRule(op, body).rule])]
    if (
      status !== 400 ||
      codeOf(e) !== "invalid_argument" ||
      mayRefuse(op, body, sent, breaches, headers) !== undefined
    )
      return []
    const { label, rule } = acceptanceRule(op, body)
    return [
      fail(
        rule,
        `${label}: rejected with invalid_argument`,
        `a valid request (${label}) was rejected with invalid_argument`,
        e,
        Option.match(e.response, {
          onNone: () => undefined,
          onSome: (r) => excerpt(r, 300)
        })
      )
    ]
  }
})

/** Whether the answer refuses the request: a 4xx that no rate limit or overload gave first. */
export const rejectedBy = (e: Exchange): boolean => {
  const status = statusOf(e)
  // A rate limit or an overload may answer any request first: no refusal of the request.
  return status !== undefined && status !== 200 && status < 500 && !answeredFirst(e)
}

/**
 * The trace of a valid request the runner made (every choice of decisions.md section 10
 * satisfied, its ids known to exist, its names fresh), and, when it was refused, the rule the
 * refusal breaks as its plain form told (`diagnosed`; `undefined` for a refusal that a create
 * naming a taken link explains): a 200 passes the rule the request tests, any refusal fails it.
 * Live traffic: the proxy knows neither the key nor the ids, and whether the request relies on a
 * choice of section 10; it judges only an invalid_argument to a request that relies on none
 * (`validAccepted`).
 */
export const accepted = (
  op: Op,
  body: Body,
  e: Exchange,
  diagnosed: { readonly rule: ContractRules.RuleId; readonly label: string } | undefined
): ReadonlyArray<Outcome> => {
  if (statusOf(e) === 200) return [passes([acceptanceRule(op, body).rule])]
  if (diagnosed === undefined) return []
  const got = codeOf(e) ?? `HTTP ${statusOf(e) ?? "none"}`
  return [
    fail(
      diagnosed.rule,
      `${diagnosed.label}: rejected with ${got}`,
      `a valid request (${diagnosed.label}) was rejected with ${got}`,
      e,
      Option.match(e.response, { onNone: () => undefined, onSome: (r) => excerpt(r, 300) })
    )
  ]
}

/**
 * The rules the spellings of one request that the standards make the same request tell: its JSON
 * with escapes or whitespace between all its tokens (RFC 8259), and an optional field it leaves
 * out sent as its zero value (proto3). A spelling of its media type tells protocol.content-type.
 */
export const sameRequestRules = {
  escapes: "wire.json-spellings",
  whitespace: "wire.json-spellings",
  zeroValues: "wire.zero-is-unset"
} as const satisfies Record<string, ContractRules.RuleId>

/** What a read's answer says: a List's items (its cursor is opaque and may differ), a Get's whole body. */
const readOf = (op: Op, json: unknown): unknown =>
  op.kind === "list" ? itemsOf(op, json) : sortedAnswer(json)

/**
 * Whether the answer refuses the request itself: not a rate limit or an overload answered first,
 * not a 5xx (judged as such), not already_exists (a create of the same link twice, which no must
 * says a server accepts).
 */
const refusedItself = (e: Exchange): boolean => {
  const status = statusOf(e)
  return (
    status !== undefined &&
    status !== 200 &&
    status < 500 &&
    !answeredFirst(e) &&
    codeOf(e) !== "already_exists"
  )
}

/**
 * The trace of a request sent in one spelling (`spelled`, `label` naming it, `rule` the rule it
 * tells) beside its plainest spelling (`plain`), and for a create, create-echo's verdicts on both
 * (`echoes`).
 */
export interface SpellingTrace {
  readonly op: Op
  readonly rule: ContractRules.RuleId
  readonly label: string
  readonly plain: Exchange
  readonly spelled: Exchange
  readonly echoes:
    { readonly spelled: ReadonlyArray<Verdict>; readonly plain: ReadonlyArray<Verdict> } | undefined
}

const isFail = (v: Verdict): v is Outcome => "ok" in v && !v.ok

/**
 * A spelling of a request whose plainest spelling was answered 200 is not refused; a read answers
 * it with the same items or object, and a create makes what it was sent as the plainest one does.
 * A plainest spelling not answered 200 tells nothing. Live traffic: the proxy never sees the same
 * request in two spellings, so it judges only what a request breaks (`validAccepted`).
 */
export const spelledAlike = (t: SpellingTrace): Outcome | undefined => {
  const { op, plain: p, spelled: e } = t
  if (statusOf(p) !== 200) return undefined
  const problem = (cause: string, what: string, detail?: string): Outcome =>
    fail(
      t.rule,
      `${t.label}: ${cause}`,
      `the same request with ${t.label} ${what}; its plainest spelling was answered 200`,
      e,
      detail
    )
  if (refusedItself(e))
    return problem(
      "refused",
      `was refused with ${summary(e)}`,
      Option.match(e.response, {
        onNone: () => undefined,
        onSome: (r) => excerpt(r, 300)
      })
    )
  if (statusOf(e) !== 200) return undefined
  if (op.kind === "get" || op.kind === "list") {
    const d = jsonDifference(readOf(op, okJson(p)), readOf(op, okJson(e)))
    if (d !== undefined)
      return problem(
        "answered differently",
        `was answered with another ${op.kind === "list" ? "page" : "object"} (first difference at ${d})`,
        `at ${d}`
      )
  }
  if (op.kind === "create" && t.echoes !== undefined) {
    // The create returns what it was sent, as it does in the plainest spelling.
    const echoed = t.echoes.spelled.find(isFail)
    if (echoed !== undefined && !t.echoes.plain.some(isFail))
      return problem(
        "made another object",
        `made an object other than it was sent (${echoed.message})`
      )
  }
  return passes([t.rule])
}

/** A bound of a List's request: `limit` at 1 or 500, or a required parent id of one character. */
export type Bound = { readonly limit: number } | { readonly field: string; readonly value: string }

/**
 * lists.limit-accepted, fields.valid-accepted: a List with `limit` at a bound (1, 500) is accepted,
 * and one with a required parent id of one character too (an id that names nothing may be
 * not_found, decisions.md section 10); no answer, one answered first, a slow target or a 5xx (judged
 * as such) tells nothing. Live traffic: the proxy judges any refusal of a valid request by
 * `validAccepted`, `limit` at a bound included.
 */
export const boundAccepted = (bound: Bound, e: Exchange): Outcome | undefined => {
  const r = Option.getOrUndefined(e.response)
  if (r === undefined || answeredFirst(e) || slowNotHung(e) || r.status >= 500) return undefined
  const code = codeOf(e)
  if ("field" in bound && code === "not_found") return passes(["fields.valid-accepted"])
  const rule = "field" in bound ? "fields.valid-accepted" : "lists.limit-accepted"
  if (r.status === 200) return passes([rule])
  const got = code ?? `HTTP ${r.status}`
  const what =
    "field" in bound
      ? `${bound.field} ${JSON.stringify(bound.value)} (one character)`
      : `limit ${bound.limit} (a bound of 1 to 500)`
  return fail(
    rule,
    `${"field" in bound ? `${bound.field} of one character` : `limit ${bound.limit}`}: rejected with ${got}`,
    `a List with ${what} was rejected with ${got}`,
    e,
    excerpt(r, 300)
  )
}

/**
 * fields.valid-accepted where decisions.md section 10 lets a server refuse a valid request (`what`;
 * `sent`, what was sent and where): served, or refused with invalid_argument; any other answer
 * breaks it (a server `served` it or refuses it). No answer, a 5xx (judged as such) or one answered
 * first tells nothing. Live traffic: the proxy does not know that a request is one a server may
 * refuse, so it judges it as any valid request (`validAccepted`).
 */
export const servedOrInvalid = (
  e: Exchange,
  what: string,
  sent: string,
  served: "accepts" | "serves"
): Outcome | undefined => {
  if (tellsNothing(e)) return undefined
  const status = statusOf(e)!
  return status === 200 || (status === 400 && codeOf(e) === "invalid_argument")
    ? passes(["fields.valid-accepted"])
    : fail(
        "fields.valid-accepted",
        `${what}: got ${codeOf(e) ?? `HTTP ${status}`}`,
        `${sent} got ${got(e)}; a server ${served} it or refuses it with invalid_argument`,
        e,
        answerExcerpt(e)
      )
}

/**
 * fields.valid-accepted: a create with a name taken by the create before it (`what`) is accepted
 * or refused with already_exists (decisions.md section 10). Live traffic: the proxy does not know
 * the name was taken just before, so it judges such a refusal by `refusal`.
 */
export const duplicateNameAnswered = (e: Exchange, what: string): Outcome | undefined => {
  if (tellsNothing(e)) return undefined
  const status = statusOf(e)!
  return status === 200 || (status === 409 && codeOf(e) === "already_exists")
    ? passes(["fields.valid-accepted"])
    : fail(
        "fields.valid-accepted",
        `${what}: got ${codeOf(e) ?? `HTTP ${status}`}`,
        `${what} got ${got(e)}; a server accepts duplicates or refuses them with already_exists`,
        e,
        answerExcerpt(e)
      )
}

/**
 * fields.valid-accepted: an update's reference sent as `""` (`what`) is served: a server takes the
 * object out of it or treats the field as not set. Live traffic: the proxy judges it as any valid
 * request (`validAccepted`).
 */
export const emptyReferenceServed = (e: Exchange, what: string): Outcome | undefined =>
  tellsNothing(e) || statusOf(e) === 200
    ? undefined
    : fail(
        "fields.valid-accepted",
        `${what}: got ${codeOf(e) ?? `HTTP ${statusOf(e)}`}`,
        `${what} got ${got(e)}; a server takes the object out of it or treats the field as not set`,
        e,
        answerExcerpt(e)
      )

/**
 * fields.valid-accepted: a valid read with a compressed body (`encoding`) is served, or the
 * encoding refused as a server that leaves compression out does (415, unimplemented). Live
 * traffic: the proxy does not judge a compressed body it cannot read.
 */
export const compressedBodyServed = (
  op: Op,
  e: Exchange,
  encoding: string
): Outcome | undefined => {
  if (tellsNothing(e) || statusOf(e) === 200) return undefined
  if (encodingLeftOut(e)) return pass("protocol")
  return fail(
    "fields.valid-accepted",
    `a ${encoding} body: got ${codeOf(e) ?? `HTTP ${statusOf(e)}`}`,
    `a valid ${op.method} with a ${encoding} body got ${got(e)}; a server serves it or refuses the encoding (415, unimplemented)`,
    e,
    answerExcerpt(e)
  )
}

/**
 * fields.valid-accepted: a valid read offering `Accept-Encoding: encoding` (`what`) is served; an
 * encoding offered changes nothing but the answer's encoding. Live traffic: the proxy judges it as
 * any valid request (`validAccepted`).
 */
export const encodingOfferServed = (
  op: Op,
  e: Exchange,
  what: string,
  encoding: string
): Outcome | undefined =>
  tellsNothing(e) || statusOf(e) === 200
    ? undefined
    : fail(
        "fields.valid-accepted",
        `${what}: got ${codeOf(e) ?? `HTTP ${statusOf(e)}`}`,
        `a valid ${op.method} offering Accept-Encoding: ${encoding} got ${got(e)}; an encoding offered changes nothing but the answer's encoding`,
        e,
        answerExcerpt(e)
      )

/** The oracles of this check, in the order the registry applies them. */
export const oracles: ReadonlyArray<ExchangeOracle> = [validAccepted]
