/**
 * The protocol's own answers: other HTTP methods, other content types (and the spellings of the
 * JSON one), the version header of CreatePermission, unknown routes (and near misses of every
 * known one), body sizes and deadlines (and a success long after one).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Deadline, Operations } from "@data-access/schema"
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
import * as Dimensions from "../dimensions.js"
import * as Gen from "../generate.js"
import { type Exchange, post, type RawRequest } from "../http.js"
import * as Inspect from "../inspect.js"
import {
  deadlineElapsed,
  expectOkOr,
  expectRefusal,
  expectStatus,
  expectUnknownRoute,
  lateState,
  protocolAnswer,
  type ProtocolExpectation,
  withLateSuccess
} from "../oracles/protocol.js"
import type { Outcome } from "../outcome.js"
import { sampleBody } from "./shared/sampleBodies.js"
import { MEDIA_TYPE_SPELLINGS } from "./shared/mediaTypes.js"
import { MiB, padded, plainList } from "./shared/sizes.js"

/** A case: what the oracle reads of it (a server may refuse a body before reading it: `mayDrop`), and its request. */
interface ProtocolCase extends ProtocolExpectation {
  /** A deadline case: a success is also judged for coming long after the deadline (`lateSuccess`). */
  readonly late?: boolean
  /** The dimensions its input exercises, beyond its body. */
  readonly tags?: ReadonlyArray<Dimensions.Tag>
  readonly request: (body: Body) => RawRequest
}

/** A case's answer judged: on its own (no-server-errors, error-shape), then for the case's rule. */
const judge = (c: ProtocolCase, e: Exchange): ReadonlyArray<Outcome> => {
  if ((c.mayDrop === true && Option.isNone(e.response)) || Inspect.slowNotHung(e)) return []
  const shape = Inspect.errorShape(e)
  const verdict = protocolAnswer(c, e)
  const elapsed = c.late === true ? deadlineElapsed(e) : undefined
  return [
    Inspect.noServerErrors(e),
    ...(shape === undefined ? [] : [shape]),
    ...(elapsed === undefined ? [] : [elapsed]),
    ...(verdict === undefined ? [] : [verdict])
  ]
}

/**
 * The deadlines sent, in milliseconds: one that passes before any call ends, and ones of several
 * seconds (four and five digits) that every call meets, whose answer is judged against the time
 * that passed (`deadlineElapsed`); valid calls send a minute.
 */
const DEADLINES_MS = [1, 2_000, 20_000] as const

/**
 * The longest deadline sent: ten digits (decisions.md section 1 allows 1 to 10), the largest a
 * signed 32-bit millisecond timer holds (a Node timer, the official Connect stack's, fires at once
 * beyond it), answered as a call with no deadline: a server whose arithmetic on it overflows (to
 * microseconds, to nanoseconds in 32 bits) answers deadline_exceeded at once.
 */
const LONGEST_DEADLINE_MS = 2 ** 31 - 1

/**
 * A deadline case: a valid call (or `{}` to a write where that is invalid, which makes nothing
 * beyond `--creates-per-operation`) under `Connect-Timeout-Ms: millis`, a success judged also for
 * coming long after the deadline.
 */
const deadlineCase = (
  op: Op,
  millis: number,
  tags?: ReadonlyArray<Dimensions.Tag>
): ProtocolCase => ({
  name: `Connect-Timeout-Ms: ${millis}`,
  rule: "protocol.deadline",
  late: true,
  request: (body) =>
    post(
      op.path,
      millis > DEADLINES_MS[0] && isWrite(op) && !Gen.isValid(op, {}) ? {} : uniqueNames(op, body),
      { headers: { [Deadline.TIMEOUT_HEADER]: Deadline.formatTimeout(millis) } }
    ),
  // A sample body that names nothing may be rejected for that, deadline or not; a create's may
  // name a taken link (a call that finishes first is answered as one without a deadline).
  expect: expectOkOr("deadline_exceeded", "invalid_argument", "not_found", "already_exists"),
  ...(tags === undefined ? {} : { tags })
})

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
    ...DEADLINES_MS.map((millis) => deadlineCase(op, millis))
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
  // Last, so that the cases before keep their replay indices.
  cases.push(deadlineCase(op, LONGEST_DEADLINE_MS, Dimensions.valid("(body)", "deadline")))
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
        if (c.tags !== undefined) Dimensions.sent(ctx.dimensions, op.method, c.tags)
        const verdicts = judge(c, e)
        if (c.late !== true) return verdicts
        const make = (deadline: boolean) => {
          const r = c.request(b)
          if (deadline) return r
          const { [Deadline.TIMEOUT_HEADER]: _, ...headers } = r.headers
          return { ...r, headers }
        }
        // The calls that tell whether a success came long after its deadline, as the oracle asks for them.
        const plain: Array<Exchange> = []
        const again: Array<Exchange> = []
        let state = lateState({ first: e, plain, again })
        while (state._tag === "Send") {
          const next = yield* send(ctx, make(state.deadline))
          ;(state.deadline ? again : plain).push(next)
          state = lateState({ first: e, plain, again })
        }
        return withLateSuccess(verdicts, state.late)
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
