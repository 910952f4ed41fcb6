/**
 * The clients' behaviour as data: a call, what the server or a fault does, what the caller sees.
 * Both Effect lines' tests run every case through a fake `HttpClient` and a `TestClock`.
 */

import { resource, unavailable } from "./fake.js"

/** What the fake server does with one request (the last reply repeats). */
export type Reply =
  | {
      readonly status: number
      readonly body?: unknown
      readonly text?: string
      readonly headers?: Readonly<Record<string, string>>
    }
  | { readonly transport: string }
  | { readonly hang: true }

/** A retry policy, described: none, exponential, or a fixed wait a number of times. */
export type Retry =
  | "none"
  | {
      readonly _tag: "exponential"
      readonly baseMillis: number
      readonly retries?: number
      readonly jitter: boolean
    }
  | { readonly _tag: "spaced"; readonly millis: number; readonly times: number }

/** The call a case makes. Durations are milliseconds; `Infinity` is an infinite one. */
export interface Call {
  /** The operation's method name (`GetResource`). */
  readonly method: string
  readonly request: unknown
  /** Collect the List operation's paging stream instead of one call. */
  readonly stream?: boolean
  readonly pageSize?: number
  readonly timeout?: number
  readonly attemptTimeout?: number
  /** The call's own policy. */
  readonly retry?: Retry
  /** The layer's policy (default: the client's default). */
  readonly layerRetry?: Retry
  /** The layer's base URL (default `http://fake.invalid`). */
  readonly baseUrl?: string
  /** The caller gives up (interrupts the call) after this many milliseconds. */
  readonly interruptAfter?: number
}

/** What the caller sees. */
export type Outcome =
  | {
      readonly _tag: "Success"
      /** Matched as a subset (`toMatchObject`). */
      readonly value?: unknown
      /** The items of a stream, matched as a subset. */
      readonly items?: ReadonlyArray<unknown>
    }
  | {
      readonly _tag: "Failure"
      /** The error's fields, matched as a subset (`_tag` included). */
      readonly error: Readonly<Record<string, unknown>>
      /** Whether a `ConnectError`'s code came from the status alone. */
      readonly statusFallback?: boolean
      readonly isRetryable?: boolean
      /** Text the printed error contains. */
      readonly says?: string
      /** Text neither the printed error nor its JSON may contain. */
      readonly neverShows?: string
    }
  | { readonly _tag: "Interrupted" }

/** What was sent. */
export interface Sent {
  /** How many requests were sent, or the range `[min, max]` on the real clock. */
  readonly count: number | readonly [number, number]
  readonly url?: string
  /** Headers of each request (a subset; `undefined`: absent). `USER_AGENT` stands for the line's. */
  readonly headers?: ReadonlyArray<Readonly<Record<string, string | undefined>>>
  readonly bodies?: ReadonlyArray<unknown>
  /** The clock time from each request to the next, each within `[min, max]` milliseconds. */
  readonly gaps?: ReadonlyArray<readonly [number, number]>
  /** How many requests in flight were interrupted (a timeout, or the caller gave up); `each`: every one sent. */
  readonly interrupted?: number | "each"
}

/** One behaviour. */
export interface Case {
  readonly name: string
  readonly call: Call
  readonly replies: ReadonlyArray<Reply>
  /** Run the call this many times, the clock moved by `gapMillis` between runs (default: once). */
  readonly runs?: { readonly times: number; readonly gapMillis: number }
  readonly outcome: Outcome
  readonly sent: Sent
  /** The clock time from the call's start to its end, within `[min, max]` milliseconds. */
  readonly endsAt?: readonly [number, number]
  /** Run on the real clock (the timers as a user meets them) instead of the `TestClock`. */
  readonly live?: boolean
}

/** Stands for the line's `User-Agent` in `Sent.headers`. */
export const USER_AGENT = "<the line's User-Agent>"

export const API_KEY = "test-api-key-5f0c1e9a"

const ok: Reply = { status: 200, body: resource }
const getResource = { method: "GetResource", request: { id: "resource_1" } } as const
const createConnector = { method: "CreateConnector", request: { name: "edge-1" } } as const
const created: Reply = { status: 200, body: { connector: { id: "connector_1", name: "edge-1" } } }
const page = (ids: ReadonlyArray<string>, nextCursor?: string): Reply => ({
  status: 200,
  body: {
    nativeUsers: ids.map((id) => ({ id })),
    listMetadata: { count: ids.length, ...(nextCursor ? { nextCursor } : {}) }
  }
})
const noRetryFailure = (status: number, code: string): Case => ({
  name: `a bare ${status} without a Connect body falls back to ${code}`,
  call: { ...getResource, retry: "none" },
  replies: [{ status, text: "Bad Gateway" }],
  outcome: {
    _tag: "Failure",
    error: { _tag: "ConnectError", code, httpStatus: status },
    statusFallback: true
  },
  sent: { count: 1 }
})

const headers: ReadonlyArray<Case> = [
  {
    name: "every call sends the API key, content type, protocol version, user agent, deadline and body",
    call: { ...getResource, timeout: 5000, attemptTimeout: 10_000 },
    replies: [ok],
    outcome: { _tag: "Success", value: { resource: { port: 5432 } } },
    sent: {
      count: 1,
      url: "http://fake.invalid/core.v1.ResourceService/GetResource",
      headers: [
        {
          "x-api-key": API_KEY,
          "content-type": "application/json",
          "connect-protocol-version": "1",
          "user-agent": USER_AGENT,
          "connect-timeout-ms": "5000"
        }
      ],
      bodies: [{ id: "resource_1" }]
    }
  },
  {
    name: "the deadline header is the attempt timeout when it is shorter than the budget",
    call: { ...getResource, timeout: 30_000, attemptTimeout: 2000 },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, headers: [{ "connect-timeout-ms": "2000" }] }
  },
  {
    name: "without a finite deadline no Connect-Timeout-Ms is sent",
    call: { ...getResource, timeout: Infinity, attemptTimeout: Infinity },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, headers: [{ "connect-timeout-ms": undefined }] }
  },
  {
    name: "a deadline longer than 10 digits of milliseconds is sent as the longest",
    call: { ...getResource, timeout: Infinity, attemptTimeout: 400 * 86_400_000 },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, headers: [{ "connect-timeout-ms": "9999999999" }] }
  },
  {
    name: "a trailing slash on the base URL is harmless",
    call: { ...getResource, baseUrl: "http://fake.invalid/" },
    replies: [ok],
    outcome: { _tag: "Success" },
    sent: { count: 1, url: "http://fake.invalid/core.v1.ResourceService/GetResource" }
  },
  {
    name: "a base URL that is not an absolute http(s) URL is a configuration error and nothing is sent",
    call: { ...getResource, baseUrl: "not a url" },
    replies: [ok],
    outcome: { _tag: "Failure", error: {}, says: "baseUrl" },
    sent: { count: 0 }
  },
  {
    name: "a call is a description: each run sends its own request with its own deadline",
    call: { ...getResource, timeout: 3000 },
    replies: [ok],
    runs: { times: 2, gapMillis: 1000 },
    outcome: { _tag: "Success" },
    sent: {
      count: 2,
      bodies: [{ id: "resource_1" }, { id: "resource_1" }],
      headers: [{ "connect-timeout-ms": "3000" }, { "connect-timeout-ms": "3000" }],
      gaps: [[1000, 1000]]
    }
  }
]

const errors: ReadonlyArray<Case> = [
  {
    name: "the code comes from the body, not the status",
    call: getResource,
    replies: [
      {
        status: 400,
        body: {
          code: "not_found",
          message: "no such resource",
          details: [{ type: "x", value: "AA==" }]
        },
        headers: { "x-request-id": "req-1" }
      }
    ],
    outcome: {
      _tag: "Failure",
      error: {
        _tag: "ConnectError",
        code: "not_found",
        message: "no such resource",
        httpStatus: 400,
        requestId: "req-1",
        details: [{ type: "x", value: "AA==" }],
        operation: "ResourceService/GetResource"
      },
      statusFallback: false,
      isRetryable: false
    },
    sent: { count: 1 }
  },
  ...(
    [
      [401, "unauthenticated"],
      [403, "permission_denied"],
      [404, "unimplemented"],
      [429, "unavailable"],
      [502, "unavailable"],
      [503, "unavailable"],
      [504, "unavailable"],
      [400, "unknown"],
      [418, "unknown"],
      [500, "unknown"]
    ] as const
  ).map(([status, code]) => noRetryFailure(status, code)),
  {
    name: "an error body that is JSON but not a Connect error also falls back to the status",
    call: getResource,
    replies: [{ status: 403, body: { error: "nope", code: "not-a-code" } }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "ConnectError", code: "permission_denied" },
      statusFallback: true
    },
    sent: { count: 1 }
  },
  {
    name: "rate-limit headers are kept",
    call: { ...getResource, retry: "none" },
    replies: [
      {
        status: 429,
        body: { code: "resource_exhausted", message: "slow down" },
        headers: {
          "retry-after": "2",
          "x-ratelimit-limit": "100",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset": "1700000000"
        }
      }
    ],
    outcome: {
      _tag: "Failure",
      error: {
        _tag: "ConnectError",
        rateLimit: { limit: 100, remaining: 0, reset: 1700000000, retryAfterMillis: 2000 }
      },
      isRetryable: true
    },
    sent: { count: 1 }
  },
  {
    name: "a malformed response is a DecodeError naming the JSON path",
    call: getResource,
    replies: [{ status: 200, body: { resource: { id: "r", port: "not a port" } } }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "DecodeError", path: "$.resource.port", httpStatus: 200 },
      says: "$.resource.port",
      isRetryable: false
    },
    sent: { count: 1 }
  },
  {
    name: "a 200 that is not JSON is a DecodeError at $",
    call: getResource,
    replies: [{ status: 200, text: "<html>" }],
    outcome: { _tag: "Failure", error: { _tag: "DecodeError", path: "$" } },
    sent: { count: 1 }
  },
  {
    name: "a decode error on a secret field never shows the value",
    call: { method: "ListNativeUsers", request: { resourceId: "r", limit: 10 } },
    replies: [
      {
        status: 200,
        body: {
          nativeUsers: [{ id: "u1", secret: { nested: "s3cr3t-value-that-must-not-print" } }],
          listMetadata: {}
        }
      }
    ],
    outcome: {
      _tag: "Failure",
      error: { _tag: "DecodeError", path: "$.nativeUsers[0].secret" },
      neverShows: "s3cr3t-value-that-must-not-print"
    },
    sent: { count: 1 }
  },
  {
    name: "an invalid request is an InvalidRequestError and is not sent",
    call: { method: "ListNativeUsers", request: { resourceId: "r", limit: 0 } },
    replies: [{ status: 200, body: {} }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "InvalidRequestError", path: "$.limit" },
      says: "limit must be from 1 to 500"
    },
    sent: { count: 0 }
  }
]

const retries: ReadonlyArray<Case> = [
  {
    name: "a read retries transient errors with the default backoff (2 retries, 500 ms then 1 s, jittered)",
    call: getResource,
    replies: [unavailable, unavailable, ok],
    outcome: { _tag: "Success", value: { resource: { id: "resource_1" } } },
    sent: {
      count: 3,
      gaps: [
        [400, 610],
        [800, 1210]
      ]
    }
  },
  {
    name: "the retries run out after 2 and the last error is returned",
    call: getResource,
    replies: [unavailable],
    outcome: { _tag: "Failure", error: { _tag: "ConnectError", code: "unavailable" } },
    sent: { count: 3 }
  },
  {
    name: "the layer's policy replaces the default",
    call: { ...getResource, layerRetry: { _tag: "spaced", millis: 1000, times: 4 } },
    replies: [unavailable],
    outcome: { _tag: "Failure", error: { _tag: "ConnectError", code: "unavailable" } },
    sent: {
      count: 5,
      gaps: [
        [1000, 1000],
        [1000, 1000],
        [1000, 1000],
        [1000, 1000]
      ]
    }
  },
  {
    name: "a call's policy replaces the layer's",
    call: { ...getResource, layerRetry: { _tag: "spaced", millis: 1000, times: 4 }, retry: "none" },
    replies: [unavailable],
    outcome: { _tag: "Failure", error: { _tag: "ConnectError", code: "unavailable" } },
    sent: { count: 1 }
  },
  {
    name: "Retry-After (seconds) lengthens the wait",
    call: getResource,
    replies: [
      { status: 429, body: { code: "resource_exhausted" }, headers: { "retry-after": "3" } },
      ok
    ],
    outcome: { _tag: "Success" },
    sent: { count: 2, gaps: [[3000, 3000]] }
  },
  {
    name: "retry-after-ms is honoured",
    call: { ...getResource, retry: { _tag: "exponential", baseMillis: 10, jitter: false } },
    replies: [
      { status: 503, body: { code: "unavailable" }, headers: { "retry-after-ms": "1500" } },
      ok
    ],
    outcome: { _tag: "Success" },
    sent: { count: 2, gaps: [[1500, 1500]] }
  },
  {
    name: "a Retry-After as an HTTP date in the past retries after the policy's wait",
    call: { ...getResource, retry: { _tag: "exponential", baseMillis: 100, jitter: false } },
    replies: [
      {
        status: 503,
        body: { code: "unavailable" },
        headers: { "retry-after": "Wed, 31 Dec 1969 00:00:00 GMT" }
      },
      ok
    ],
    outcome: { _tag: "Success" },
    sent: { count: 2, gaps: [[100, 100]] }
  },
  {
    name: "a Retry-After that is not a number nor an HTTP date is ignored",
    call: { ...getResource, retry: { _tag: "exponential", baseMillis: 100, jitter: false } },
    replies: [
      { status: 503, body: { code: "unavailable" }, headers: { "retry-after": "2026-01-02" } },
      ok
    ],
    outcome: { _tag: "Success" },
    sent: { count: 2, gaps: [[100, 100]] }
  },
  {
    name: "a Retry-After beyond the remaining budget ends the retries with the error at once",
    call: { ...getResource, timeout: 5000 },
    replies: [
      { status: 429, body: { code: "resource_exhausted" }, headers: { "retry-after": "20" } }
    ],
    outcome: { _tag: "Failure", error: { _tag: "ConnectError", code: "resource_exhausted" } },
    sent: { count: 1 }
  },
  ...(
    [
      ["a bare 502 from a proxy", { status: 502, text: "Bad Gateway" }],
      ["a bare 504 from a proxy", { status: 504, text: "Gateway Timeout" }],
      ["a reset after the request was sent", { transport: "ECONNRESET" }],
      ["a Connect internal error", { status: 500, body: { code: "internal" } }],
      ["a Connect deadline_exceeded", { status: 504, body: { code: "deadline_exceeded" } }]
    ] as const
  ).map(([what, reply]): Case => ({
    name: `a create is not retried after ${what}`,
    call: createConnector,
    replies: [reply, created],
    outcome: { _tag: "Failure", error: {} },
    sent: { count: 1 }
  })),
  ...(
    [
      ["a Connect unavailable body", unavailable],
      ["a Connect resource_exhausted body", { status: 429, body: { code: "resource_exhausted" } }],
      ["a refused connection", { transport: "ECONNREFUSED" }]
    ] as const
  ).map(([what, reply]): Case => ({
    name: `a create is retried after ${what}`,
    call: createConnector,
    replies: [reply, created],
    outcome: { _tag: "Success", value: { connector: { id: "connector_1" } } },
    sent: { count: 2 }
  })),
  ...(
    [
      ["a bare 502", { status: 502, text: "Bad Gateway" }],
      ["a bare 408", { status: 408, text: "Request Timeout" }],
      ["a reset", { transport: "ECONNRESET" }],
      ["a Connect aborted", { status: 409, body: { code: "aborted" } }]
    ] as const
  ).map(([what, reply]): Case => ({
    name: `a read is retried after ${what}`,
    call: getResource,
    replies: [reply, ok],
    outcome: { _tag: "Success" },
    sent: { count: 2 }
  })),
  ...["not_found", "invalid_argument", "permission_denied"].map((code): Case => ({
    name: `a read is not retried after ${code}`,
    call: getResource,
    replies: [{ status: 400, body: { code } }, ok],
    outcome: { _tag: "Failure", error: { _tag: "ConnectError", code } },
    sent: { count: 1 }
  })),
  {
    name: "a refused connection is a TransportError of the connect phase",
    call: { ...getResource, retry: "none" },
    replies: [{ transport: "ECONNREFUSED" }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "TransportError", phase: "connect", errorCode: "ECONNREFUSED" },
      isRetryable: true
    },
    sent: { count: 1 }
  }
]

const deadlines: ReadonlyArray<Case> = [
  {
    name: "an attempt that hangs times out, is retried, and the overall budget ends it with a TimeoutError",
    call: {
      ...getResource,
      attemptTimeout: 1000,
      timeout: 2500,
      retry: { _tag: "exponential", baseMillis: 100, jitter: false, retries: 5 }
    },
    replies: [{ hang: true }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "TimeoutError", scope: "overall", timeoutMillis: 2500 },
      isRetryable: false
    },
    sent: {
      count: 3,
      headers: [
        { "connect-timeout-ms": "1000" },
        { "connect-timeout-ms": "1000" },
        { "connect-timeout-ms": "200" }
      ],
      gaps: [
        [1100, 1100],
        [1200, 1200]
      ],
      interrupted: 3
    }
  },
  {
    name: "a create that times out is not retried",
    call: { ...createConnector, attemptTimeout: 1000 },
    replies: [{ hang: true }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "TimeoutError", scope: "attempt", timeoutMillis: 1000, attempts: 1 },
      says: "attempt timeout of 1000 ms"
    },
    sent: { count: 1, interrupted: 1 },
    endsAt: [1000, 1010]
  },
  {
    name: "on the real clock, an attempt that hangs ends with a TimeoutError after the attempt timeout, and the request is interrupted",
    live: true,
    call: { ...createConnector, attemptTimeout: 150 },
    replies: [{ hang: true }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "TimeoutError", scope: "attempt", timeoutMillis: 150, attempts: 1 }
    },
    sent: { count: 1, interrupted: 1 },
    endsAt: [145, 1500]
  },
  {
    // The second attempt starts about 1 ms after the first times out, with 50 ms of the budget left: a
    // loaded machine has that much slack before the wait would pass the deadline.
    name: "on the real clock, the overall budget ends hanging attempts of a read with a TimeoutError of scope overall",
    live: true,
    call: {
      ...getResource,
      attemptTimeout: 100,
      timeout: 150,
      retry: { _tag: "exponential", baseMillis: 1, jitter: false, retries: 5 }
    },
    replies: [{ hang: true }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "TimeoutError", scope: "overall", timeoutMillis: 150 }
    },
    sent: { count: [2, 3], interrupted: "each" },
    endsAt: [145, 1500]
  },
  {
    name: "interrupting the caller interrupts the request in flight",
    call: { ...getResource, attemptTimeout: 10_000, interruptAfter: 50 },
    replies: [{ hang: true }],
    outcome: { _tag: "Interrupted" },
    sent: { count: 1, interrupted: 1 }
  },
  {
    name: "on the real clock, a response before the deadline is returned and nothing is interrupted",
    live: true,
    call: { ...getResource, attemptTimeout: 100 },
    replies: [ok],
    outcome: { _tag: "Success", value: { resource: { id: "resource_1" } } },
    sent: { count: 1, interrupted: 0 }
  }
]

const paging: ReadonlyArray<Case> = [
  {
    name: "a paging stream follows nextCursor until it is absent, with the page size",
    call: { method: "ListNativeUsers", request: { resourceId: "r" }, stream: true, pageSize: 2 },
    replies: [page(["a", "b"], "c1"), page(["c", "d"], "c2"), page(["e"])],
    outcome: {
      _tag: "Success",
      items: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }, { id: "e" }]
    },
    sent: {
      count: 3,
      bodies: [
        { resourceId: "r", limit: 2 },
        { resourceId: "r", limit: 2, cursor: "c1" },
        { resourceId: "r", limit: 2, cursor: "c2" }
      ]
    }
  },
  {
    name: "the default page size is 100",
    call: { method: "ListLogQueries", request: {}, stream: true },
    replies: [page([])],
    outcome: { _tag: "Success", items: [] },
    sent: { count: 1, bodies: [{ limit: 100 }] }
  },
  {
    name: "a repeated cursor fails with CursorRepeatedError",
    call: { method: "ListNativeUsers", request: { resourceId: "r" }, stream: true },
    replies: [page(["a"], "c1"), page(["b"], "c2"), page(["c"], "c1")],
    outcome: {
      _tag: "Failure",
      error: { _tag: "CursorRepeatedError", page: 3 },
      says: "page 3 returned a cursor that was already followed"
    },
    sent: { count: 3 }
  }
]

/** Every case. */
export const cases: ReadonlyArray<Case> = [
  ...headers,
  ...errors,
  ...retries,
  ...deadlines,
  ...paging
]

/** A request the fake saw. */
export interface Seen {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
  /** The clock time of the request, in milliseconds. */
  readonly at: number
}

/** What a run observed: how the call ended and what was sent. */
export interface Observed {
  readonly result:
    | { readonly _tag: "Success"; readonly value: unknown }
    | {
        readonly _tag: "Failure"
        readonly error: unknown
        readonly statusFallback: boolean | undefined
        readonly isRetryable: boolean | undefined
      }
    | { readonly _tag: "Interrupted" }
  readonly seen: ReadonlyArray<Seen>
  /** How many requests in flight were interrupted. */
  readonly interrupted: number
  /** The clock time from the (last) call's start to its end, in milliseconds. */
  readonly endedAt: number
}

/** The few matchers of `expect` that the checks here use, whichever vitest runs them. */
export interface Expect {
  (
    actual: unknown,
    message?: string
  ): {
    toBe(expected: unknown): void
    toEqual(expected: unknown): void
    toMatchObject(expected: object): void
    toContain(expected: string): void
    toBeGreaterThan(expected: number): void
    toBeGreaterThanOrEqual(expected: number): void
    toBeLessThan(expected: number): void
    toBeLessThanOrEqual(expected: number): void
    toHaveLength(expected: number): void
    toBeTypeOf(expected: "string"): void
    readonly not: { toContain(expected: string): void }
  }
}

/** Compares how a call ended with the outcome a case expects. */
export const verifyOutcome = (
  outcome: Outcome,
  result: Observed["result"],
  expect: Expect
): void => {
  if (outcome._tag === "Interrupted") {
    expect(result._tag).toEqual("Interrupted")
  } else if (outcome._tag === "Success") {
    expect({
      result: result._tag,
      error: result._tag === "Failure" ? String(result.error) : undefined
    }).toEqual({
      result: "Success",
      error: undefined
    })
    if (result._tag !== "Success") return
    if (outcome.value !== undefined) expect(result.value).toMatchObject(outcome.value as object)
    if (outcome.items !== undefined) {
      const items = [...(result.value as Iterable<unknown>)]
      expect(items.length).toEqual(outcome.items.length)
      expect(items).toMatchObject(outcome.items as Array<unknown>)
    }
  } else {
    expect(result._tag).toEqual("Failure")
    if (result._tag !== "Failure") return
    expect(result.error).toMatchObject(outcome.error)
    if (outcome.statusFallback !== undefined)
      expect(result.statusFallback).toEqual(outcome.statusFallback)
    if (outcome.isRetryable !== undefined) expect(result.isRetryable).toEqual(outcome.isRetryable)
    if (outcome.says !== undefined) expect(String(result.error)).toContain(outcome.says)
    if (outcome.neverShows !== undefined) {
      expect(String(result.error)).not.toContain(outcome.neverShows)
      expect(JSON.stringify(result.error)).not.toContain(outcome.neverShows)
    }
  }
}

/** Compares what a run observed with its case. `userAgent` is the line's. */
export const verify = (c: Case, observed: Observed, expect: Expect, userAgent: string): void => {
  const { result, seen } = observed
  verifyOutcome(c.outcome, result, expect)
  // A call that succeeded or failed other than the case expects has nothing more to compare.
  if (c.outcome._tag !== "Interrupted" && result._tag !== c.outcome._tag) return
  const sent = c.sent
  if (typeof sent.count === "number") expect(seen.length).toEqual(sent.count)
  else {
    expect(seen.length).toBeGreaterThanOrEqual(sent.count[0])
    expect(seen.length).toBeLessThanOrEqual(sent.count[1])
  }
  if (sent.url !== undefined) for (const s of seen) expect(s.url).toEqual(sent.url)
  sent.headers?.forEach((expected, i) => {
    const actual = seen[i]?.headers ?? {}
    for (const [name, value] of Object.entries(expected)) {
      expect({ request: i, name, value: actual[name] }).toEqual({
        request: i,
        name,
        value: value === USER_AGENT ? userAgent : value
      })
    }
  })
  if (sent.bodies !== undefined) expect(seen.map((s) => s.body)).toEqual(sent.bodies)
  if (sent.interrupted !== undefined) {
    expect({ interrupted: observed.interrupted }).toEqual({
      interrupted: sent.interrupted === "each" ? seen.length : sent.interrupted
    })
  }
  if (c.endsAt !== undefined) {
    expect(observed.endedAt).toBeGreaterThanOrEqual(c.endsAt[0])
    expect(observed.endedAt).toBeLessThanOrEqual(c.endsAt[1])
  }
  sent.gaps?.forEach(([min, max], i) => {
    const gap = (seen[i + 1]?.at ?? NaN) - (seen[i]?.at ?? NaN)
    expect(gap).toBeGreaterThanOrEqual(min)
    expect(gap).toBeLessThanOrEqual(max)
  })
}
/**
 * Checks a client against the operation table: the service clients are exactly the table's
 * services, and each of them and the combined client have a method per operation (`getResource`)
 * and a `<method>Stream` per List operation.
 */
export const verifyServices = (
  table: Iterable<readonly [string, Iterable<{ readonly method: string; readonly kind: string }>]>,
  combined: object,
  serviceClients: Readonly<Record<string, object>>,
  expect: Expect
): void => {
  const services = [...table]
  expect(Object.keys(serviceClients).sort()).toEqual(services.map(([service]) => service).sort())
  for (const [service, ops] of services) {
    for (const op of ops) {
      const names =
        op.kind === "list"
          ? [methodName(op.method), methodName(op.method, true)]
          : [methodName(op.method)]
      for (const method of names) {
        const kinds = [combined, serviceClients[service]].map(
          (client) => typeof (client as Record<string, unknown> | undefined)?.[method]
        )
        expect({ service, method, kinds }).toEqual({
          service,
          method,
          kinds: ["function", "function"]
        })
      }
    }
  }
}

/** The `@effect/vitest` functions a line's harness declares the shared tests with. */
export interface Tests<T> {
  readonly describe: (name: string, body: () => void) => void
  /** A test on the `TestClock` (`it.effect`). */
  readonly effect: (name: string, self: () => T) => void
  /** A test on the real clock (`it.live`). */
  readonly live: (name: string, self: () => T) => void
}

/** Declares a test per case, on the real clock for the `live` ones: `run` is the line's run of a case. */
export const testCases = <T>(tests: Tests<T>, run: (c: Case) => T): void =>
  tests.describe("behaviour (the shared cases)", () => {
    for (const c of cases) (c.live === true ? tests.live : tests.effect)(c.name, () => run(c))
  })

/**
 * A call's options for a line's client: its durations and its policy made by the line's
 * `duration` (of milliseconds, `Infinity` included) and `policy`.
 */
export const optionsOf = <D, P>(
  call: Pick<Call, "timeout" | "attemptTimeout" | "retry" | "pageSize">,
  duration: (millis: number) => D,
  policy: (retry: Retry) => P
) => ({
  timeout: call.timeout === undefined ? undefined : duration(call.timeout),
  attemptTimeout: call.attemptTimeout === undefined ? undefined : duration(call.attemptTimeout),
  retryPolicy: call.retry === undefined ? undefined : policy(call.retry),
  pageSize: call.pageSize
})

/** The name of an operation's method on a client (`getResource`), with `Stream` for its paging stream. */
export const methodName = (method: string, stream?: boolean): string =>
  `${method.charAt(0).toLowerCase()}${method.slice(1)}${stream === true ? "Stream" : ""}`

export * from "./requests.js"
export * from "./capture.js"
export * from "./fake.js"
export * from "./integration.js"
export * from "./redaction.js"
export * from "./scenario.js"
export * from "./scenarios.js"
export * from "./testing.js"
