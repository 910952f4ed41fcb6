/**
 * The protocol's own answers: other HTTP methods, other content types, the version header of
 * CreatePermission, unknown routes, body sizes and deadlines.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type ContractRules, Operations } from "@data-access/schema"
import type { CheckId } from "../../Checks.js"
import { type Body, type Context, type Family, isWrite, type Op, send, skipped, type Suite, uniqueNames } from "../context.js"
import * as Gen from "../generate.js"
import { type Exchange, post, type RawRequest } from "../http.js"
import * as Inspect from "../inspect.js"
import { fail, type Outcome, pass } from "../outcome.js"
import { sampleBody } from "./auth.js"

interface ProtocolCase {
  readonly name: string
  /** A server may refuse the body before reading it and close the connection: no answer is not judged. */
  readonly mayDrop?: boolean
  readonly rule: ContractRules.RuleId
  readonly request: (body: Body) => RawRequest
  /** What is wrong with the answer, if anything. */
  readonly expect: (e: Exchange) => string | undefined
}

const expectStatus = (status: number, code?: string, header?: readonly [string, RegExp]) => (e: Exchange): string | undefined => {
  const got = Inspect.statusOf(e)
  if (got === undefined) return "no response"
  if (got !== status) return `HTTP ${got}${Inspect.codeOf(e) ? ` ${Inspect.codeOf(e)}` : ""}, expected ${status}`
  if (code !== undefined && Inspect.codeOf(e) !== code) return `code ${Inspect.codeOf(e) ?? "(none)"}, expected ${code}`
  if (header !== undefined) {
    const v = Option.getOrUndefined(e.response)?.headers[header[0]]
    if (v === undefined || !header[1].test(v)) return `header ${header[0]} is ${JSON.stringify(v ?? null)}`
  }
  return undefined
}

/** 200, or one of the given codes with its status. */
const expectOkOr = (...codes: ReadonlyArray<string>) => (e: Exchange): string | undefined => {
  const got = Inspect.statusOf(e)
  if (got === undefined) return "no response"
  if (got === 200) return undefined
  const code = Inspect.codeOf(e)
  return code !== undefined && codes.includes(code) ? undefined : `HTTP ${got}${code ? ` ${code}` : ""}, expected 200 or ${codes.join(" / ")}`
}

const judge = (c: ProtocolCase, e: Exchange): ReadonlyArray<Outcome> => {
  if ((c.mayDrop === true && Option.isNone(e.response)) || Inspect.slowNotHung(e)) return []
  const shape = Inspect.errorShape(e)
  const answer = [Inspect.noServerErrors(e), ...(shape === undefined ? [] : [shape])]
  // A rate limit or an overload that answered first says nothing of the case's rule.
  if (Inspect.answeredFirst(e)) return answer
  const problem = c.expect(e)
  return [
    ...answer,
    problem === undefined
      ? pass("protocol", [c.rule])
      : fail(c.rule, `${c.name}: ${problem.replace(/".*"/, "…")}`, `${c.name}: ${problem}`, e, Option.match(e.response, { onNone: () => undefined, onSome: (r) => Inspect.excerpt(r, 200) }))
  ]
}

const CHECKS: ReadonlyArray<CheckId> = ["protocol", "no-server-errors", "error-shape"]

const protocolSuite = (op: Op, ctx: Context): Suite => {
  if (ctx.readOnly && isWrite(op)) return skipped("protocol", op.method, CHECKS, true, "read-only mode")
  // GET is left out: a server may serve Connect GET (decisions.md section 10).
  const cases: Array<ProtocolCase> = [
    ...(["PUT", "DELETE", "PATCH"] as const).map(
      (method): ProtocolCase => ({
        name: `${method} instead of POST`,
        rule: "protocol.method",
        request: (body) => post(op.path, body, { method, contentType: "application/json" }),
        expect: expectStatus(405, undefined, ["allow", /\bPOST\b/])
      })
    ),
    // Content types no Connect stack serves (text, a form post); `application/proto` and the gRPC
    // ones are a codec or protocol a server may support (decisions.md section 10).
    ...([["Content-Type text/plain", "text/plain"], ["a form post", "application/x-www-form-urlencoded"]] as const).map(
      ([name, contentType]): ProtocolCase => ({ name, rule: "protocol.content-type", request: (body) => post(op.path, body, { contentType }), expect: expectStatus(415) })
    ),
    // The JSON media type with a parameter is JSON, not a wrong content type (sent to reads: it
    // makes nothing). A sample body that names nothing may be refused for that.
    ...(isWrite(op)
      ? []
      : [
          {
            name: "Content-Type application/json; charset=utf-8",
            rule: "protocol.content-type",
            request: (body: Body) => post(op.path, body, { contentType: "application/json; charset=utf-8" }),
            expect: expectOkOr("invalid_argument", "not_found")
          } satisfies ProtocolCase
        ]),
    {
      name: "Connect-Timeout-Ms: 1",
      rule: "protocol.deadline",
      request: (body) => post(op.path, uniqueNames(op, body), { headers: { "connect-timeout-ms": "1" } }),
      // A sample body that names nothing may be rejected for that, deadline or not.
      expect: expectOkOr("deadline_exceeded", "invalid_argument", "not_found")
    }
  ]
  for (const header of Object.keys(op.requiredHeaders)) {
    const isVersion = header.toLowerCase() === "connect-protocol-version"
    cases.push({
      name: `without ${header}`,
      rule: "protocol.version-header",
      request: (body) => (isVersion ? post(op.path, body, { protocolVersion: undefined }) : post(op.path, body)),
      expect: expectStatus(400, "invalid_argument")
    })
    if (isVersion) {
      cases.push({ name: `${header}: 2`, rule: "protocol.version-header", request: (body) => post(op.path, body, { protocolVersion: "2" }), expect: expectStatus(400, "invalid_argument") })
    }
  }
  let body: Body | undefined
  return {
    family: "protocol",
    method: op.method,
    checks: CHECKS,
    writes: isWrite(op),
    skip: undefined,
    cases: { _tag: "Enumerated", count: cases.length, at: (i) => cases[i] },
    run: (c: ProtocolCase) =>
      Effect.suspend(() => {
        body ??= sampleBody(op, ctx).body
        return Effect.map(send(ctx, c.request(body)), (e) => judge(c, e))
      })
  }
}

/** The first List operation that needs nothing but `limit`: a read to send large bodies to. */
export const plainList = (Operations.all as ReadonlyArray<Op>).find((o) => o.kind === "list" && Gen.isValid(o, { limit: 1 }))!

export const MiB = 1024 * 1024

/** A valid read padded with an unknown field to `bytes` bytes. */
export const padded = (bytes: number): string => {
  const head = `{"limit":1,"ctPadding":"`
  return head + "a".repeat(Math.max(0, bytes - head.length - 2)) + `"}`
}

const apiSuite = (ctx: Context): Suite => {
  const services = [...Operations.services.keys()]
  const routes: Array<ProtocolCase> = [
    ...services.map((s) => `/${Operations.PACKAGE}.${s}/NoSuchMethod`),
    `/${Operations.PACKAGE}.NoSuchService/NoSuchMethod`,
    `/core.v0.${services[0]}/NoSuchMethod`
  ].map((path) => ({ name: `POST ${path} (an unknown route)`, rule: "protocol.unknown-route", request: () => post(path, {}), expect: expectStatus(404, "unimplemented") }))
  const sizes: Array<ProtocolCase> = [
    // At least 1 MiB is served (decisions.md section 10); a body refused for its size is resource_exhausted.
    { name: "a valid request of 1 MiB", rule: "protocol.body-limit", request: () => ({ ...post(plainList.path, undefined), body: padded(MiB - 1024) }), expect: expectOkOr() },
    { name: "a request of 5 MiB", rule: "protocol.body-limit", mayDrop: true, request: () => ({ ...post(plainList.path, undefined), body: padded(5 * MiB) }), expect: expectOkOr("resource_exhausted") }
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
