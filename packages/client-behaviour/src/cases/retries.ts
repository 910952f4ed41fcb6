/** Which failures are retried, after which wait, for reads and for writes. */
import { unavailable } from "../fake.js"
import type { Case } from "../model.js"
import { created, createConnector, getResource, ok } from "./shared.js"

export const retries: ReadonlyArray<Case> = [
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
      ["a Connect deadline_exceeded", { status: 504, body: { code: "deadline_exceeded" } }],
      ["a 503 whose code is none of the 16", { status: 503, body: { code: "overloaded" } }]
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
      ["a Connect aborted", { status: 409, body: { code: "aborted" } }],
      ["a 503 whose code is none of the 16", { status: 503, body: { code: "overloaded" } }]
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
