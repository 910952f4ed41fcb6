/**
 * The protocol's own answers: other HTTP methods, other content types (and the spellings of the
 * JSON one), the version header of CreatePermission, unknown routes (and near misses of every
 * known one), body sizes and deadlines (and a success long after one).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type ContractRules, Deadline, Operations } from "@data-access/schema"
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
import { type BudgetExhausted, type Exchange, post, type RawRequest } from "../http.js"
import * as Inspect from "../inspect.js"
import { deadlineElapsed } from "../oracles/protocol.js"
import { madeValid, refusal } from "../oracles/refusal.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { sampleBody } from "./shared/bodies.js"
import { MEDIA_TYPE_SPELLINGS } from "./shared/mediaTypes.js"
import { MiB, padded, plainList } from "./shared/sizes.js"

interface ProtocolCase {
  readonly name: string
  /** A server may refuse the body before reading it and close the connection: no answer is not judged. */
  readonly mayDrop?: boolean
  readonly rule: ContractRules.RuleId
  /** The finding's cause when not the name (which holds a value). */
  readonly cause?: string
  /** A deadline case: a success is also judged for coming long after the deadline (`lateSuccess`). */
  readonly late?: boolean
  readonly request: (body: Body) => RawRequest
  /** What is wrong with the answer, if anything. */
  readonly expect: (e: Exchange) => string | undefined
}

const expectStatus =
  (status: number, code?: string, header?: readonly [string, RegExp]) =>
  (e: Exchange): string | undefined => {
    const got = Inspect.statusOf(e)
    if (got === undefined) return "no response"
    if (got !== status)
      return `HTTP ${got}${Inspect.codeOf(e) ? ` ${Inspect.codeOf(e)}` : ""}, expected ${status}`
    if (code !== undefined && Inspect.codeOf(e) !== code)
      return `code ${Inspect.codeOf(e) ?? "(none)"}, expected ${code}`
    if (header !== undefined) {
      const v = Option.getOrUndefined(e.response)?.headers[header[0]]
      if (v === undefined || !header[1].test(v))
        return `header ${header[0]} is ${JSON.stringify(v ?? null)}`
    }
    return undefined
  }

/** 200, or one of the given codes with its status. */
const expectOkOr =
  (...codes: ReadonlyArray<string>) =>
  (e: Exchange): string | undefined => {
    const got = Inspect.statusOf(e)
    if (got === undefined) return "no response"
    if (got === 200) return undefined
    const code = Inspect.codeOf(e)
    return code !== undefined && codes.includes(code)
      ? undefined
      : `HTTP ${got}${code ? ` ${code}` : ""}, expected 200${codes.length === 0 ? "" : ` or ${codes.join(" / ")}`}`
  }

/** Why the answer is not 404 unimplemented, or a 404 without a JSON body: the official stacks' default answer to an unknown route, which readers take as unimplemented (decisions.md section 2). */
const expectUnknownRoute = (e: Exchange): string | undefined => {
  const got = Inspect.statusOf(e)
  if (got === undefined) return "no response"
  const code = Inspect.codeOf(e)
  if (got !== 404) return `HTTP ${got}${code ? ` ${code}` : ""}, expected 404`
  return code === "unimplemented" || Inspect.bareUnknownRoute(e)
    ? undefined
    : `code ${code ?? "(none)"}, expected unimplemented`
}

/**
 * What is wrong with the answer to a request that breaks `rule`: the verdict is the one every
 * answer to a broken must gets (`refusal`), `say` only words what is wrong.
 */
const expectRefusal =
  (rule: ContractRules.RuleId, say: (e: Exchange) => string | undefined) =>
  (e: Exchange): string | undefined => {
    if (Inspect.statusOf(e) === undefined) return "no response"
    const decision = refusal(e, [rule], madeValid)
    return decision?._tag === "Wrong"
      ? (say(e) ?? `${decision.got}, expected ${decision.expected}`)
      : undefined
  }

// ---------------------------------------------------------------------------------------------
// A success long after the deadline
// ---------------------------------------------------------------------------------------------

/** A success this long past its deadline, at the least, is late whatever the target's own latency. */
const LATE_FLOOR_MS = 1000
/** A success is late only past its deadline by this many times the slowest plain call as well. */
const LATE_FACTOR = 4
/** The plain calls (no deadline) that measure the target's latency for the same request. */
const PLAIN_CALLS = 3
/** The deadline call is sent again this many times, and every answer must be late too. */
const LATE_AGAIN = 2
/**
 * The deadlines sent, in milliseconds: one that passes before any call ends, and ones of several
 * seconds (four and five digits) that every call meets, whose answer is judged against the time
 * that passed (`deadlineElapsed`); valid calls send a minute.
 */
const DEADLINES_MS = [1, 2_000, 20_000] as const

const isSuccess = (e: Exchange) => Inspect.statusOf(e) === 200

/**
 * protocol.deadline: a call whose `Connect-Timeout-Ms` deadline passed answers deadline_exceeded,
 * and a success is allowed only when the call finished first (decisions.md sections 2 and 10). A
 * success is judged to have come after the deadline only against the target's own latency for the
 * same request, measured now: it came later than the deadline by the floor and by `LATE_FACTOR`
 * times the slowest of `PLAIN_CALLS` calls without a deadline, and so did each of `LATE_AGAIN`
 * sends of it again. A slow target (whose latency may lie before its deadline clock starts, on
 * the network) is never late by that measure; a target that serves a call more slowly because it
 * carries a deadline is.
 */
const lateSuccess = (
  ctx: Context,
  make: (deadline: boolean) => RawRequest,
  first: Exchange
): Effect.Effect<Outcome | undefined, BudgetExhausted> =>
  Effect.gen(function* () {
    const timeout = Deadline.parseTimeout(first.request.headers[Deadline.TIMEOUT_HEADER])
    if (
      timeout._tag !== "Millis" ||
      !isSuccess(first) ||
      first.durationMs <= timeout.millis + LATE_FLOOR_MS
    )
      return undefined
    const plain: Array<number> = []
    for (let i = 0; i < PLAIN_CALLS; i++) {
      const e = yield* send(ctx, make(false))
      // A plain call that does not succeed measures nothing (and the target's answers are judged elsewhere).
      if (!isSuccess(e)) return undefined
      plain.push(e.durationMs)
    }
    const slowest = Math.max(...plain)
    const threshold = timeout.millis + Math.max(LATE_FLOOR_MS, LATE_FACTOR * slowest)
    if (first.durationMs <= threshold) return undefined
    const again: Array<Exchange> = []
    for (let i = 0; i < LATE_AGAIN; i++) {
      const e = yield* send(ctx, make(true))
      if (!isSuccess(e) || e.durationMs <= threshold) return undefined
      again.push(e)
    }
    const times = [first, ...again].map((e) => `${e.durationMs} ms`).join(", ")
    return fail(
      "protocol.deadline",
      "a success long after the deadline",
      `a call with Connect-Timeout-Ms ${timeout.millis} was answered 200 after ${times}; the same call without a deadline took at most ${slowest} ms (${plain.join(", ")} ms): the deadline had long passed, and a passed deadline is deadline_exceeded`,
      again[again.length - 1] ?? first,
      `${Deadline.TIMEOUT_HEADER}: ${timeout.millis}; answered 200 after ${times}`
    )
  })

const judge = (c: ProtocolCase, e: Exchange): ReadonlyArray<Outcome> => {
  if ((c.mayDrop === true && Option.isNone(e.response)) || Inspect.slowNotHung(e)) return []
  const shape = Inspect.errorShape(e)
  const elapsed = c.late === true ? deadlineElapsed(e) : undefined
  const answer = [
    Inspect.noServerErrors(e),
    ...(shape === undefined ? [] : [shape]),
    ...(elapsed === undefined ? [] : [elapsed])
  ]
  // A rate limit or an overload that answered first says nothing of the case's rule.
  if (Inspect.answeredFirst(e)) return answer
  const problem = c.expect(e)
  return [
    ...answer,
    problem === undefined
      ? pass("protocol", [c.rule])
      : fail(
          c.rule,
          `${c.cause ?? c.name}: ${problem.replace(/".*"/, "…")}`,
          `${c.name}: ${problem}`,
          e,
          Option.match(e.response, {
            onNone: () => undefined,
            onSome: (r) => Inspect.excerpt(r, 200)
          })
        )
  ]
}

const CHECKS: ReadonlyArray<CheckId> = ["protocol", "no-server-errors", "error-shape"]

const protocolSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op))
    return skipped("protocol", op.method, CHECKS, true, "read-only mode")
  // GET is left out: a server may serve Connect GET (decisions.md section 10).
  const cases: Array<ProtocolCase> = [
    ...(["PUT", "DELETE", "PATCH"] as const).map((method): ProtocolCase => ({
      name: `${method} instead of POST`,
      rule: "protocol.method",
      request: (body) => post(op.path, body, { method, contentType: "application/json" }),
      expect: expectRefusal("protocol.method", expectStatus(405, undefined, ["allow", /\bPOST\b/]))
    })),
    // Content types no Connect stack serves (text, a form post); `application/proto` and the gRPC
    // ones are a codec or protocol a server may support (decisions.md section 10).
    ...(
      [
        ["Content-Type text/plain", "text/plain"],
        ["a form post", "application/x-www-form-urlencoded"]
      ] as const
    ).map(([name, contentType]): ProtocolCase => ({
      name,
      rule: "protocol.content-type",
      request: (body) => post(op.path, body, { contentType }),
      expect: expectRefusal("protocol.content-type", expectStatus(415))
    })),
    // The JSON media type spelled with a parameter or in capitals is JSON (media types compare
    // without regard to case, RFC 9110 section 8.3.1; a `charset` changes nothing, RFC 8259), not
    // a wrong content type; each spelling here is one the official Connect stack serves. A sample
    // body that names nothing may be refused for that; a create's may name a taken link. A write
    // gets `{}` where that is invalid: read as JSON it is invalid_argument, not 415, and it makes
    // nothing beyond `--creates-per-operation`.
    ...MEDIA_TYPE_SPELLINGS.map((contentType): ProtocolCase => ({
      name: `Content-Type ${contentType}`,
      rule: "protocol.content-type",
      request: (body) =>
        post(op.path, isWrite(op) && !Gen.isValid(op, {}) ? {} : uniqueNames(op, body), {
          contentType
        }),
      expect: expectOkOr("invalid_argument", "not_found", "already_exists")
    })),
    // A deadline that passes before any call ends, and ones the call has seconds to meet. Those
    // carry `{}` to a write where that is invalid, which makes nothing beyond
    // `--creates-per-operation`: a deadline answered as passed at once shows on a refusal too.
    ...DEADLINES_MS.map((millis): ProtocolCase => ({
      name: `Connect-Timeout-Ms: ${millis}`,
      rule: "protocol.deadline",
      late: true,
      request: (body) =>
        post(
          op.path,
          millis > DEADLINES_MS[0] && isWrite(op) && !Gen.isValid(op, {})
            ? {}
            : uniqueNames(op, body),
          { headers: { [Deadline.TIMEOUT_HEADER]: Deadline.formatTimeout(millis) } }
        ),
      // A sample body that names nothing may be rejected for that, deadline or not; a create's may
      // name a taken link (a call that finishes first is answered as one without a deadline).
      expect: expectOkOr("deadline_exceeded", "invalid_argument", "not_found", "already_exists")
    }))
  ]
  for (const header of Object.keys(op.requiredHeaders)) {
    const isVersion = header.toLowerCase() === "connect-protocol-version"
    cases.push({
      name: `without ${header}`,
      rule: "protocol.version-header",
      request: (body) =>
        isVersion ? post(op.path, body, { protocolVersion: undefined }) : post(op.path, body),
      expect: expectRefusal("protocol.version-header", expectStatus(400, "invalid_argument"))
    })
    if (isVersion) {
      cases.push({
        name: `${header}: 2`,
        rule: "protocol.version-header",
        request: (body) => post(op.path, body, { protocolVersion: "2" }),
        expect: expectRefusal("protocol.version-header", expectStatus(400, "invalid_argument"))
      })
    }
  }
  let body: Body | undefined
  return {
    family: "protocol",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    ordered: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: ProtocolCase) =>
      Effect.gen(function* () {
        const b = (body ??= sampleBody(op, ctx).body)
        const e = yield* send(ctx, c.request(b))
        const verdicts = judge(c, e)
        if (c.late !== true) return verdicts
        const make = (deadline: boolean) => {
          const r = c.request(b)
          if (deadline) return r
          const { [Deadline.TIMEOUT_HEADER]: _, ...headers } = r.headers
          return { ...r, headers }
        }
        const late = yield* lateSuccess(ctx, make, e)
        return late === undefined
          ? verdicts
          : [
              ...verdicts.filter(
                (v) => v.rule !== undefined || !v.rules?.includes("protocol.deadline")
              ),
              late
            ]
      })
  }
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)

/**
 * Paths one step from a route, for every operation, none of them a route: the method's, the
 * service's or the package's case changed, another version of the package or none, the method
 * name one character longer or shorter, a trailing slash, the method under another service and
 * another service's method under this one. No doubled slash: gateways merge slashes by default
 * (nginx's `merge_slashes`) and path-cleaning routers redirect, so a faithful target may serve it. A server that matches routes without
 * regard to case, by a prefix, by the method name alone or without the package serves one of
 * them; the wire matches names exactly (decisions.md section 1: an unknown service or method is
 * 404 unimplemented).
 */
export const nearMisses: ReadonlyArray<{
  readonly path: string
  readonly near: string
  readonly op: Op
}> = (() => {
  const P = Operations.PACKAGE
  const ops = Operations.all as ReadonlyArray<Op>
  const parts = ops.map((op) => ({ op, service: op.service, method: op.method }))
  const out = new Map<string, { readonly path: string; readonly near: string; readonly op: Op }>()
  parts.forEach(({ op, service, method }, i) => {
    const other = parts
      .slice(i + 1)
      .concat(parts.slice(0, i))
      .find((p) => p.service !== service)
    const candidates: Array<readonly [string, string]> = [
      [`/${P}.${service}/${lowerFirst(method)}`, "the method's case"],
      [`/${P}.${lowerFirst(service)}/${method}`, "the service's case"],
      [`/${P.toUpperCase()}.${service}/${method}`, "the package's case"],
      [`/core.v2.${service}/${method}`, "another version of the package"],
      [`/${service}/${method}`, "no package"],
      [`/${P}.${service}/${method}s`, "a longer method name"],
      [`/${P}.${service}/${method.slice(0, -1)}`, "a shorter method name"],
      [`${op.path}/`, "a trailing slash"],
      ...(other === undefined
        ? []
        : ([
            [`/${P}.${other.service}/${method}`, "the method under another service"],
            [`/${P}.${service}/${other.method}`, "another service's method under this service"]
          ] as const))
    ]
    for (const [path, near] of candidates)
      if (!Operations.byPath.has(path) && !out.has(path)) out.set(path, { path, near, op })
  })
  return [...out.values()]
})()

const apiSuite = (ctx: Context): Suite => {
  const services = [...Operations.services.keys()]
  const bodies = new Map<Op, Body>()
  const bodyOf = (op: Op): Body => {
    let b = bodies.get(op)
    if (b === undefined) bodies.set(op, (b = sampleBody(op, ctx).body))
    return b
  }
  const routes: Array<ProtocolCase> = [
    ...[
      ...services.map((s) => `/${Operations.PACKAGE}.${s}/NoSuchMethod`),
      `/${Operations.PACKAGE}.NoSuchService/NoSuchMethod`,
      `/core.v0.${services[0]}/NoSuchMethod`
    ].map((path): ProtocolCase => ({
      name: `POST ${path} (an unknown route)`,
      rule: "protocol.unknown-route",
      request: () => post(path, {}),
      expect: expectRefusal("protocol.unknown-route", expectUnknownRoute)
    })),
    // A near miss carries the valid body of the operation it is near, as a client's typo would.
    ...nearMisses.map(({ near, op, path }): ProtocolCase => ({
      name: `POST ${path} (${near} of ${op.method})`,
      cause: `a near miss: ${near}`,
      rule: "protocol.unknown-route",
      // A read's valid body, as a client's typo sends it; `{}` to a write, which a server that
      // serves the near miss refuses without making anything (this suite runs beside the reads).
      request: () => post(path, isWrite(op) ? {} : bodyOf(op)),
      expect: expectRefusal("protocol.unknown-route", expectUnknownRoute)
    }))
  ]
  const sizes: Array<ProtocolCase> = [
    // At least 1 MiB is served (decisions.md section 10); a body refused for its size is resource_exhausted.
    {
      name: "a valid request of 1 MiB",
      rule: "protocol.body-limit",
      request: () => ({ ...post(plainList.path, undefined), body: padded(MiB - 1024) }),
      expect: expectOkOr()
    },
    {
      name: "a request of 5 MiB",
      rule: "protocol.body-limit",
      mayDrop: true,
      request: () => ({ ...post(plainList.path, undefined), body: padded(5 * MiB) }),
      expect: expectOkOr("resource_exhausted")
    }
  ]
  const cases = [...routes, ...sizes]
  return {
    family: "routes",
    method: "_",
    checks: CHECKS,
    writes: false,
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: ProtocolCase) => Effect.map(send(ctx, c.request({})), (e) => judge(c, e))
  }
}

export const protocol: Family = {
  name: "protocol",
  checks: CHECKS,
  suites: (op, ctx) => [protocolSuite(op, ctx)],
  global: (ctx) => [apiSuite(ctx)]
}
