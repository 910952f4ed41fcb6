import { describe, expect, it } from "vitest"
import * as Answer from "../src/Answer.js"
import * as Code from "../src/Code.js"
import * as Deadline from "../src/Deadline.js"
import * as Issue from "../src/Issue.js"
import * as Operation from "../src/Operation.js"
import * as Paging from "../src/Paging.js"
import * as Request from "../src/Request.js"
import * as Retry from "../src/Retry.js"
import * as Timeout from "../src/Timeout.js"
import * as Transport from "../src/Transport.js"

const headersOf =
  (record: Record<string, string>): Answer.Header =>
  (name) =>
    record[name]

describe("Request", () => {
  it("checks and normalizes the base URL", () => {
    expect(Request.normalizeBaseUrl("https://api.example.com//")).toBe("https://api.example.com")
    expect(Request.normalizeBaseUrl("ftp://api.example.com")).toBeUndefined()
    expect(Request.normalizeBaseUrl("api.example.com")).toBeUndefined()
  })

  it("sends the protocol version, user agent, required headers and the key, the key last", () => {
    const headers = Request.headers(
      { path: "/p", requiredHeaders: { "x-api-key": "spoof", "x-extra": "1" } },
      "ua/1",
      "key"
    )
    expect(headers).toEqual({
      "connect-protocol-version": "1",
      "user-agent": "ua/1",
      "x-extra": "1",
      "x-api-key": "key"
    })
    expect(Request.url("https://h", { path: "/core.v1.S/M" })).toBe("https://h/core.v1.S/M")
  })

  it("knows whether a list of redacted names covers the key", () => {
    expect(Request.redactsApiKey(["X-API-KEY"])).toBe(true)
    expect(Request.redactsApiKey([/api-key/])).toBe(true)
    expect(Request.redactsApiKey(["authorization"])).toBe(false)
  })
})

describe("Answer", () => {
  it("reads a Connect error body, and nothing that is not one", () => {
    expect(
      Answer.readErrorBody({
        code: "not_found",
        message: "m",
        details: [{ type: "t", value: "v", debug: 1 }],
        extra: 1
      })
    ).toEqual({
      code: "not_found",
      message: "m",
      details: [{ type: "t", value: "v", debug: 1 }]
    })
    expect(Answer.readErrorBody({ code: "nope" })).toBeUndefined()
    expect(Answer.readErrorBody({ code: "internal", message: 1 })).toBeUndefined()
    expect(Answer.readErrorBody({ code: "internal", details: {} })).toBeUndefined()
    expect(Answer.readErrorBody({ code: "internal", details: [{ type: "t" }] })).toBeUndefined()
    expect(Answer.readErrorBody(["internal"])).toBeUndefined()
  })

  it("a failure takes its code from the body, else from the status, with request id and rate limit", () => {
    const now = Date.UTC(2026, 0, 1)
    const headers = headersOf({
      "x-request-id": "r1",
      "x-ratelimit-limit": "10",
      "retry-after": "2"
    })
    expect(
      Answer.readFailure("S/M", 400, headers, JSON.stringify({ code: "unavailable" }), now)
    ).toEqual({
      code: "unavailable",
      message: "S/M: [unavailable]",
      rawMessage: "",
      details: [],
      httpStatus: 400,
      operation: "S/M",
      requestId: "r1",
      rateLimit: { limit: 10, retryAfterMillis: 2000 },
      statusFallback: false
    })
    const bare = Answer.readFailure("S/M", 502, headersOf({}), "Bad Gateway", now)
    expect(bare).toEqual({
      code: "unavailable",
      message: "S/M: [unavailable] HTTP 502 without a Connect error body",
      details: [],
      httpStatus: 502,
      operation: "S/M",
      statusFallback: true
    })
  })

  it("a body whose code is none of the 16 keeps its message, details and code, and takes the status's code", () => {
    const now = Date.UTC(2026, 0, 1)
    const body = {
      code: "overloaded",
      message: "try later",
      details: [{ type: "t", value: "v" }]
    }
    expect(Answer.readFailure("S/M", 503, headersOf({}), JSON.stringify(body), now)).toEqual({
      code: "unavailable",
      message:
        'S/M: [unavailable] try later (the code "overloaded" is not a Connect code; unavailable from HTTP 503)',
      rawMessage: "try later",
      rawCode: "overloaded",
      details: [{ type: "t", value: "v" }],
      httpStatus: 503,
      operation: "S/M",
      statusFallback: true
    })
    const bare = Answer.readFailure("S/M", 409, headersOf({}), `{"code":"NOT_FOUND"}`, now)
    expect(bare).toMatchObject({ code: "unknown", rawCode: "NOT_FOUND", rawMessage: "" })
    expect(bare.message).toBe(
      'S/M: [unknown] (the code "NOT_FOUND" is not a Connect code; unknown from HTTP 409)'
    )
    // Not a Connect error body whatever its code: the status alone, nothing of the body kept.
    for (const json of [{ code: 5 }, { code: "x", message: 1 }, { code: "x", details: {} }]) {
      const read = Answer.readFailure("S/M", 503, headersOf({}), JSON.stringify(json), now)
      expect({ json, read }).toEqual({
        json,
        read: {
          code: "unavailable",
          message: "S/M: [unavailable] HTTP 503 without a Connect error body",
          details: [],
          httpStatus: 503,
          operation: "S/M",
          statusFallback: true
        }
      })
    }
  })

  it("a decode failure's message names the operation", () => {
    const read = Answer.readBody("S/M", "{", headersOf({}), () => ({ ok: true, value: 1 }))
    expect(read).toMatchObject({
      ok: false,
      failure: { path: "$", message: "S/M: $: the body is not valid JSON", httpStatus: 200 }
    })
  })

  it("parses JSON without throwing", () => {
    expect(Answer.parseJson("{")).toEqual({ ok: false, message: "the body is not valid JSON" })
    expect(Answer.parseJson("[1]")).toEqual({ ok: true, value: [1] })
  })
})

describe("Code", () => {
  it("falls back from bare statuses as decisions.md section 2 says", () => {
    expect([401, 403, 404, 429, 502, 503, 504, 500, 418].map(Code.codeFromStatus)).toEqual([
      "unauthenticated",
      "permission_denied",
      "unimplemented",
      "unavailable",
      "unavailable",
      "unavailable",
      "unavailable",
      "unknown",
      "unknown"
    ])
    expect(Code.statusAgrees("unimplemented", 404)).toBe(true)
    expect(Code.codes).toHaveLength(16)
  })
})

describe("Retry", () => {
  const connect = (
    code: Code.Code,
    statusFallback = false,
    httpStatus?: number
  ): Retry.Failure => ({
    _tag: "ConnectError",
    code,
    statusFallback,
    httpStatus
  })

  it("reads retry transient codes, bare gateway statuses, transport failures and attempt timeouts", () => {
    expect(Retry.isRetryableRead(connect("unavailable"))).toBe(true)
    expect(Retry.isRetryableRead(connect("not_found"))).toBe(false)
    expect(Retry.isRetryableRead(connect("unknown", true, 418))).toBe(true)
    expect(Retry.isRetryableRead(connect("unimplemented", true, 404))).toBe(false)
    expect(Retry.isRetryableRead(connect("unavailable", true, 502))).toBe(true)
    expect(Retry.isRetryableRead({ _tag: "TransportError", phase: "exchange" })).toBe(true)
    expect(Retry.isRetryableRead({ _tag: "TimeoutError", scope: "attempt" })).toBe(true)
    expect(Retry.isRetryableRead({ _tag: "TimeoutError", scope: "overall" })).toBe(false)
    expect(Retry.isRetryableRead({ _tag: "DecodeError" })).toBe(false)
  })

  it("writes retry only when the service certainly did not act", () => {
    expect(Retry.isRetryableWrite(connect("unavailable"))).toBe(true)
    expect(Retry.isRetryableWrite(connect("resource_exhausted"))).toBe(true)
    expect(Retry.isRetryableWrite(connect("unavailable", true, 503))).toBe(false)
    expect(Retry.isRetryableWrite(connect("internal"))).toBe(false)
    expect(Retry.isRetryableWrite({ _tag: "TransportError", phase: "connect" })).toBe(true)
    expect(Retry.isRetryableWrite({ _tag: "TransportError", phase: "exchange" })).toBe(false)
    expect(Retry.isRetryableWrite({ _tag: "TimeoutError", scope: "attempt" })).toBe(false)
    expect(Retry.isRetryable(connect("internal"), true)).toBe(true)
    expect(Retry.isRetryable(connect("internal"), false)).toBe(false)
  })

  it("waits the longer of the policy and Retry-After, in whole milliseconds, and gives up at the deadline", () => {
    const base = { reason: "unavailable", nowMillis: 1000, deadlineMillis: 5000 }
    expect(Retry.next({ ...base, policyDelayMillis: 499.2, retryAfterMillis: undefined })).toEqual({
      _tag: "Retry",
      delayMillis: 500,
      reason: "unavailable"
    })
    expect(Retry.next({ ...base, policyDelayMillis: 500, retryAfterMillis: 2000 })).toMatchObject({
      delayMillis: 2000
    })
    expect(
      Retry.next({ ...base, policyDelayMillis: -5, retryAfterMillis: undefined })
    ).toMatchObject({ delayMillis: 0 })
    expect(Retry.next({ ...base, policyDelayMillis: 500, retryAfterMillis: 4000 })).toEqual({
      _tag: "GiveUp"
    })
  })

  it("reads Retry-After as seconds, HTTP dates and milliseconds, capped at 60 s", () => {
    const now = Date.UTC(2026, 0, 1)
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "1.5" }), now)).toBe(1500)
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "3600" }), now)).toBe(60_000)
    expect(
      Retry.retryAfterMillis(headersOf({ "retry-after-ms": "250", "retry-after": "9" }), now)
    ).toBe(250)
    expect(
      Retry.retryAfterMillis(headersOf({ "retry-after": new Date(now + 5000).toUTCString() }), now)
    ).toBe(5000)
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "-1" }), now)).toBeUndefined()
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "2026-01-01" }), now)).toBeUndefined()
    // Date.parse alone reads "-1" as a date in 2001, which would mean "retry at once"
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "7" }), now)).toBe(7000)
    expect(
      Retry.retryAfterMillis(headersOf({ "retry-after": "Thu, 01 Jan 2026 00:00:12 GMT" }), now)
    ).toBe(12000)
    expect(
      Retry.retryAfterMillis(headersOf({ "retry-after": "Wed, 31 Dec 2025 00:00:00 GMT" }), now)
    ).toBe(0)
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "soon" }), now)).toBeUndefined()
    expect(Retry.retryAfterMillis(headersOf({}), now)).toBeUndefined()
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "0" }), now)).toBe(0)
    expect(Retry.retryAfterMillis(headersOf({ "retry-after": "9".repeat(400) }), now)).toBe(60000)
  })

  it("reads Retry-After from a record of headers the same way", () => {
    const now = Date.UTC(2026, 0, 1)
    expect(Retry.parseRetryAfter({ "retry-after": "1.5" }, now)).toBe(1500)
    expect(Retry.parseRetryAfter({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250)
    expect(Retry.parseRetryAfter({ "retry-after": "3600" }, now)).toBe(60_000)
    expect(
      Retry.parseRetryAfter({ "retry-after": undefined, "retry-after-ms": "x" }, now)
    ).toBeUndefined()
    expect(Retry.parseRetryAfter({ "Retry-After": "7" }, now)).toBeUndefined() // names are lower case
  })

  it("decides from the failure itself, with the retry event's attributes", () => {
    const limited = {
      _tag: "ConnectError",
      code: "resource_exhausted",
      rateLimit: { retryAfterMillis: 3000 }
    }
    expect(Retry.after(limited, 2, 1000, 30_000, 500)).toEqual({
      _tag: "Retry",
      delayMillis: 3000,
      reason: "resource_exhausted",
      event: { "rpc.attempt": 2, "retry.delay_ms": 3000, "retry.reason": "resource_exhausted" }
    })
    expect(Retry.after(limited, 2, 1000, 3500, 500)).toEqual({ _tag: "GiveUp" })
    expect(Retry.after({ _tag: "TransportError" }, 1, 0, 30_000, 250.5)).toMatchObject({
      delayMillis: 251,
      reason: "TransportError"
    })
  })

  it("names the reason by code, else by tag", () => {
    expect(Retry.reasonOf({ _tag: "ConnectError", code: "unavailable" })).toBe("unavailable")
    expect(Retry.reasonOf({ _tag: "TransportError" })).toBe("TransportError")
  })
})

describe("Deadline", () => {
  it("bounds each attempt by the shorter of what is left and the attempt timeout", () => {
    expect(Deadline.bound(0, 30_000, 30_000, 10_000)).toEqual({
      _tag: "Bounded",
      limitMillis: 10_000,
      scope: "attempt",
      timeoutMillis: 10_000,
      header: "10000"
    })
    expect(Deadline.bound(25_000.5, 30_000, 30_000, 10_000)).toEqual({
      _tag: "Bounded",
      limitMillis: 4999.5,
      scope: "overall",
      timeoutMillis: 30_000,
      header: "5000"
    })
    expect(Deadline.bound(30_000, 30_000, 30_000, 10_000)).toEqual({ _tag: "Expired" })
    expect(Deadline.bound(0, Infinity, Infinity, Infinity)).toMatchObject({
      _tag: "Bounded",
      header: undefined
    })
  })

  it("writes Connect-Timeout-Ms within its 10 digits", () => {
    expect(Timeout.formatTimeout(0.2)).toBe("1")
    expect(Timeout.formatTimeout(400 * 86_400_000)).toBe("9999999999")
    expect(Timeout.parseTimeout("+1")).toEqual({ _tag: "Invalid", value: "+1" })
  })
})

describe("Paging", () => {
  it("walks cursors and stops at an empty one or a repeated one", () => {
    const first = Paging.start()
    const second = Paging.step(first, "a")
    expect(second).toMatchObject({ _tag: "Next", walk: { cursor: "a", page: 2 } })
    if (second._tag !== "Next") throw new Error("expected Next")
    const third = Paging.step(second.walk, "b")
    if (third._tag !== "Next") throw new Error("expected Next")
    expect(Paging.step(third.walk, "a")).toEqual({ _tag: "Repeated", page: 3 })
    expect(Paging.step(third.walk, "b")).toEqual({ _tag: "Repeated", page: 3 })
    expect(Paging.step(third.walk, "")).toEqual({ _tag: "Last" })
  })

  it("plans the pages of a stream: each page's request and its items", () => {
    const plan = Paging.plan({ itemField: "users" }, { q: 1 }, 20)
    expect(plan.request(undefined)).toEqual({ q: 1, limit: 20 })
    expect(plan.request("c")).toEqual({ q: 1, limit: 20, cursor: "c" })
    expect(plan.page({ users: [1], listMetadata: { nextCursor: "d" } })).toEqual({
      items: [1],
      nextCursor: "d"
    })
  })

  it("sets limit and cursor on each page's request and reads the page", () => {
    expect(Paging.pageRequest({ q: 1, limit: 5 }, 50, undefined)).toEqual({ q: 1, limit: 50 })
    expect(Paging.pageRequest({ q: 1 }, 50, "c")).toEqual({ q: 1, limit: 50, cursor: "c" })
    expect(Paging.pageOf({ users: [1, 2], listMetadata: { nextCursor: "n" } }, "users")).toEqual({
      items: [1, 2],
      nextCursor: "n"
    })
    expect(Paging.pageOf({}, "users")).toEqual({ items: [], nextCursor: "" })
  })
})

describe("Issue", () => {
  const secrets = new Set(["password"])
  it("names the path of the first issue and never shows a value", () => {
    expect(
      Issue.describe(
        [{ path: ["resource", "port"], message: 'Expected number, actual "x"' }],
        secrets
      )
    ).toEqual({
      path: "$.resource.port",
      message: "$.resource.port: Expected number"
    })
    expect(
      Issue.describe(
        [{ path: ["users", 0, "password"], message: "Expected string, got 1" }],
        secrets
      )
    ).toEqual({
      path: "$.users[0].password",
      message: "$.users[0].password: invalid value for a secret field (value not shown)"
    })
    expect(
      Issue.describe(
        [
          { path: [], message: "a" },
          { path: [], message: "b" }
        ],
        secrets
      ).message
    ).toBe("$: a (and 1 more issue(s))")
    expect(Issue.describe([], secrets)).toEqual({ path: "$", message: "does not match the schema" })
  })
})

describe("Transport", () => {
  it("a connect-phase code while sending means the connection never opened", () => {
    const cause = { cause: { code: "ECONNREFUSED" } }
    expect(Transport.failure("S/M", true, cause)).toEqual({
      operation: "S/M",
      phase: "connect",
      message: "S/M: the connection could not be opened (ECONNREFUSED)",
      errorCode: "ECONNREFUSED"
    })
    expect(Transport.failure("S/M", false, cause).phase).toBe("exchange")
    expect(Transport.failure("S/M", true, { code: "ECONNRESET" }).phase).toBe("exchange")
    expect(Transport.failure("S/M", true, new Error("x"))).toEqual({
      operation: "S/M",
      phase: "exchange",
      message: "S/M: the exchange failed before a response arrived"
    })
  })

  it("a request that cannot be built names the operation", () => {
    expect(Transport.unbuildableMessage("S/M", "InvalidUrl")).toBe(
      "S/M: InvalidUrl: the request could not be built (check the base URL)"
    )
  })
})

describe("Operation", () => {
  it("assembles one method per operation and a stream per List operation, per service and flat", () => {
    const ops = [
      { service: "A", method: "GetThing", kind: "get" },
      { service: "A", method: "ListThings", kind: "list" },
      { service: "B", method: "CreateOther", kind: "create" }
    ]
    const client = Operation.assemble(
      ops,
      (op) => `call:${op.method}`,
      (call) => `stream:${call}`
    )
    expect(client.services).toEqual({
      A: {
        getThing: "call:GetThing",
        listThings: "call:ListThings",
        listThingsStream: "stream:call:ListThings"
      },
      B: { createOther: "call:CreateOther" }
    })
    expect(Object.keys(client.flat)).toEqual([
      "getThing",
      "listThings",
      "listThingsStream",
      "createOther"
    ])
    expect(client.call("CreateOther")).toBe("call:CreateOther")
    expect(client.stream("ListThings")).toBe("stream:call:ListThings")
    expect(Operation.responseCode({ _tag: "TimeoutError" })).toBe("deadline_exceeded")
    expect(Operation.responseCode({ _tag: "ConnectError", code: "not_found" })).toBe("not_found")
    expect(Operation.spanAttributes(ops[0]!, "core.v1")).toEqual({
      "rpc.system": "connect_rpc",
      "rpc.service": "core.v1.A",
      "rpc.method": "GetThing"
    })
  })
})
