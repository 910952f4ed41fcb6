// Under the machine's Node only (scripts/node-lines): decoding and encoding by schema, pure data transforms.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import * as ConnectError from "../src/ConnectError.js"
import { decode, reject, wire } from "./util.js"

/** decisions.md section 2, spelled out as the oracle. */
const statuses: Record<string, number> = {
  canceled: 499,
  unknown: 500,
  invalid_argument: 400,
  deadline_exceeded: 504,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  resource_exhausted: 429,
  failed_precondition: 400,
  aborted: 409,
  out_of_range: 400,
  unimplemented: 501,
  internal: 500,
  unavailable: 503,
  data_loss: 500,
  unauthenticated: 401
}

describe("Connect codes", () => {
  it("are the 16 codes", () => {
    expect(ConnectError.codes).toHaveLength(16)
    expect([...ConnectError.codes].sort()).toEqual(Object.keys(statuses).sort())
  })

  it.each(Object.entries(statuses))("%s is HTTP %d", (code, status) => {
    expect(ConnectError.statusOf(code as ConnectError.Code)).toBe(status)
    expect(ConnectError.statusAgrees(code as ConnectError.Code, status)).toBe(true)
    expect(ConnectError.make(code as ConnectError.Code, "m").status).toBe(status)
  })

  it("unimplemented may also be 404 (an unknown route); no other code agrees with a foreign status", () => {
    expect(ConnectError.statusAgrees("unimplemented", 404)).toBe(true)
    expect(ConnectError.statusAgrees("not_found", 404)).toBe(true)
    expect(ConnectError.statusAgrees("invalid_argument", 409)).toBe(false)
    expect(ConnectError.statusAgrees("deadline_exceeded", 408)).toBe(false) // the older table
    expect(ConnectError.statusAgrees("failed_precondition", 412)).toBe(false)
    expect(ConnectError.statusAgrees("canceled", 408)).toBe(false)
  })

  it.each([
    [401, "unauthenticated"],
    [403, "permission_denied"],
    [404, "unimplemented"],
    [429, "unavailable"],
    [502, "unavailable"],
    [503, "unavailable"],
    [504, "unavailable"],
    [400, "unknown"],
    [408, "unknown"],
    [409, "unknown"],
    [412, "unknown"],
    [418, "unknown"],
    [499, "unknown"],
    [500, "unknown"],
    [501, "unknown"],
    [200, "unknown"]
  ] as const)("a bare HTTP %d reads as %s", (status, code) => {
    expect(ConnectError.codeFromStatus(status)).toBe(code)
  })

  it("the code is decoded strictly", () => {
    expect(reject(ConnectError.Code, "NOT_FOUND").tree).toContain(`actual "NOT_FOUND"`)
    expect(reject(ConnectError.Code, "teapot").tree).toContain(`actual "teapot"`)
  })
})

describe("ConnectError", () => {
  it.effect("is caught by its tag", () =>
    Effect.gen(function* () {
      const code = yield* Effect.fail(ConnectError.make("not_found", "no resource r1")).pipe(
        Effect.catchTag("ConnectError", (e) => Effect.succeed(e.code))
      )
      expect(code).toBe("not_found")
    })
  )

  it.effect("fails a generator with yield*", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.gen(function* () {
          return yield* new ConnectError.ConnectError({ code: "unavailable", message: "try later" })
        })
      )
      expect(Exit.isFailure(exit)).toBe(true)
      const recovered = yield* Effect.gen(function* () {
        return yield* ConnectError.make("permission_denied", "no")
      }).pipe(
        Effect.catchIf(ConnectError.hasCode("permission_denied"), (e) =>
          Effect.succeed(`caught ${e.code}: ${e.message}`)
        )
      )
      expect(recovered).toBe("caught permission_denied: no")
    })
  )

  it("hasCode and isConnectError", () => {
    const e = ConnectError.make("aborted", "conflict")
    expect(ConnectError.isConnectError(e)).toBe(true)
    expect(ConnectError.isConnectError(new Error("x"))).toBe(false)
    expect(ConnectError.isConnectError({ code: "aborted" })).toBe(false)
    expect(ConnectError.hasCode("aborted")(e)).toBe(true)
    expect(ConnectError.hasCode("internal")(e)).toBe(false)
    expect(e).toBeInstanceOf(Error)
    expect(e.message).toBe("conflict")
  })

  it("isRetryable: transient codes only", () => {
    for (const code of [
      "unavailable",
      "resource_exhausted",
      "deadline_exceeded",
      "aborted"
    ] as const) {
      expect(ConnectError.make(code, "m").isRetryable, code).toBe(true)
    }
    for (const code of [
      "invalid_argument",
      "not_found",
      "already_exists",
      "permission_denied",
      "unauthenticated",
      "failed_precondition",
      "out_of_range",
      "unimplemented",
      "canceled",
      "data_loss"
    ] as const) {
      expect(ConnectError.make(code, "m").isRetryable, code).toBe(false)
    }
    for (const code of ConnectError.codes) {
      expect(ConnectError.make(code, "m").isRetryable).toBe(ConnectError.transientCodes.has(code))
    }
  })

  it("keeps the HTTP status, request id and rate limit when known", () => {
    const e = ConnectError.make("unimplemented", "no route", {
      httpStatus: 404,
      requestId: "req-1",
      rateLimit: { limit: 100, remaining: 0, reset: 1700000000, retryAfterMillis: 2000 },
      operation: "ResourceService/GetResource"
    })
    expect(e.status).toBe(404)
    expect(e.requestId).toBe("req-1")
    expect(e.rateLimit?.retryAfterMillis).toBe(2000)
    expect(e.operation).toBe("ResourceService/GetResource")
  })
})

describe("the error body", () => {
  it("reads a full body and a minimal one", () => {
    const full = decode(ConnectError.ErrorBody, {
      code: "invalid_argument",
      message: "limit: must be from 1 to 500",
      details: [{ type: "google.rpc.BadRequest", value: "CgVsaW1pdA==", debug: { field: "limit" } }]
    })
    expect(full.details?.[0]?.type).toBe("google.rpc.BadRequest")
    expect(decode(ConnectError.ErrorBody, { code: "unavailable" })).toEqual({ code: "unavailable" })
  })

  it("rejects a body that is not a Connect error", () => {
    expect(reject(ConnectError.ErrorBody, { message: "oops" }).issues).toContainEqual({
      _tag: "Missing",
      path: ["code"],
      message: "is missing"
    })
    expect(
      reject(ConnectError.ErrorBody, { code: "oops" }).issues.map((i) => i.path)
    ).toContainEqual(["code"])
    expect(
      reject(ConnectError.ErrorBody, { code: "internal", details: [{ type: "t" }] }).issues.map(
        (i) => i.path
      )
    ).toContainEqual(["details", 0, "value"])
    expect(reject(ConnectError.ErrorBody, "Bad Gateway").tree).toContain(`actual "Bad Gateway"`)
  })

  it("toBody writes the body a server sends, details only when there are some", () => {
    expect(ConnectError.make("not_found", "no satellite s1").toBody()).toEqual({
      code: "not_found",
      message: "no satellite s1"
    })
    const details = [{ type: "t", value: "AA==" }]
    expect(ConnectError.make("internal", "x", { details }).toBody()).toEqual({
      code: "internal",
      message: "x",
      details
    })
    const body = ConnectError.make("resource_exhausted", "slow down").toBody()
    expect(decode(ConnectError.ErrorBody, wire(body))).toEqual(body)
  })

  it.prop("encode then decode keeps the body", { body: ConnectError.ErrorBody }, ({ body }) => {
    // `details: undefined` does not cross the wire: compare what does
    const encode = Schema.encodeSync(ConnectError.ErrorBody)
    const sent = wire(encode(body))
    const received = decode(ConnectError.ErrorBody, sent)
    expect(received.code).toBe(body.code)
    expect(wire(encode(received))).toEqual(sent)
  })

  it.prop(
    "the error itself round trips through its schema",
    { e: ConnectError.ConnectError },
    ({ e }) => {
      const back = decode(
        ConnectError.ConnectError,
        wire(Schema.encodeSync(ConnectError.ConnectError)(e))
      )
      expect(back).toBeInstanceOf(ConnectError.ConnectError)
      expect(back.code).toBe(e.code)
      expect(back.message).toBe(e.message)
      expect(back.status).toBe(e.status)
    }
  )
})

describe("Connect error body reader and writer", () => {
  it("reads a Connect error body from text, or nothing", () => {
    expect(ConnectError.parseBody(`{"code":"not_found","message":"no such resource"}`)).toEqual({
      code: "not_found",
      message: "no such resource"
    })
    expect(ConnectError.parseBody(`{"code":"unavailable"}`)).toEqual({ code: "unavailable" })
    for (const bad of [
      "",
      "upstream answered 502",
      "{",
      "[]",
      `{"error":"x"}`,
      `{"code":"bogus"}`,
      `{"code":"internal","message":3}`
    ]) {
      expect(ConnectError.parseBody(bad)).toBeUndefined()
    }
    expect(ConnectError.decodeBody({ code: "aborted", message: "m" })).toEqual({
      code: "aborted",
      message: "m"
    })
    expect(ConnectError.decodeBody(null)).toBeUndefined()
  })

  it("writes code and message, details only when there are some, and reads back what it wrote", () => {
    const plain = ConnectError.make("invalid_argument", "name: must not be empty")
    expect(ConnectError.writeBody(plain)).toBe(
      `{"code":"invalid_argument","message":"name: must not be empty"}`
    )
    const detailed = ConnectError.make("aborted", "try again", {
      details: [{ type: "t", value: "dg==" }]
    })
    expect(JSON.parse(ConnectError.writeBody(detailed))).toEqual({
      code: "aborted",
      message: "try again",
      details: [{ type: "t", value: "dg==" }]
    })
    for (const e of [plain, detailed])
      expect(ConnectError.parseBody(ConnectError.writeBody(e))).toEqual(e.toBody())
    expect(ConnectError.writeBody({ code: "unavailable", message: "down" })).toBe(
      `{"code":"unavailable","message":"down"}`
    )
  })

  it("writes the body's own message of an error a client read, not the message naming the operation", () => {
    const read = ConnectError.make("not_found", "S/M: [not_found] no such resource", {
      rawMessage: "no such resource",
      operation: "S/M"
    })
    expect(ConnectError.writeBody(read)).toBe(`{"code":"not_found","message":"no such resource"}`)
  })
})

describe("the core's reading of an error body agrees with ErrorBody", () => {
  // @data-access/core reads error bodies without Effect (both clients use it); the schema is the
  // contract. Every value here must be read the same way by both.
  const corpus: ReadonlyArray<unknown> = [
    { code: "not_found" },
    { code: "not_found", message: "m" },
    { code: "internal", message: "m", details: [] },
    { code: "internal", details: [{ type: "t", value: "v" }] },
    { code: "internal", details: [{ type: "t", value: "v", debug: { a: [1, null] } }] },
    { code: "internal", details: [{ type: "t", value: "v", extra: 1 }], other: true },
    { code: "internal", details: [{ type: "t" }] },
    { code: "internal", details: [{ type: 1, value: "v" }] },
    { code: "internal", details: {} },
    { code: "internal", details: null },
    { code: "internal", message: null },
    { code: "internal", message: 1 },
    { code: "nope" },
    { code: 13 },
    { message: "no code" },
    null,
    [],
    ["internal"],
    "internal",
    ...ConnectError.codes.map((code) => ({ code, message: code }))
  ]
  it("for every value of the corpus", async () => {
    const { readErrorBody } = await import("@data-access/core/Answer")
    for (const json of corpus) {
      expect({ json, core: readErrorBody(json) }).toEqual({
        json,
        core: ConnectError.decodeBody(json)
      })
    }
  })
})
