/** How an answer that is not a success reaches the caller: the Connect error, its fallback code, the decode and request errors. */
import type { Case } from "../model.js"
import { getResource, noRetryFailure } from "./shared.js"

export const errors: ReadonlyArray<Case> = [
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
        message: "ResourceService/GetResource: [not_found] no such resource",
        rawMessage: "no such resource",
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
    name: "a Connect error body whose code is none of the 16 keeps its message, details and code; the code follows the status",
    call: { ...getResource, retry: "none" },
    replies: [
      {
        status: 503,
        body: { code: "overloaded", message: "try later", details: [{ type: "x", value: "AA==" }] }
      }
    ],
    outcome: {
      _tag: "Failure",
      error: {
        _tag: "ConnectError",
        code: "unavailable",
        rawCode: "overloaded",
        rawMessage: "try later",
        details: [{ type: "x", value: "AA==" }],
        httpStatus: 503,
        operation: "ResourceService/GetResource"
      },
      statusFallback: true,
      isRetryable: true,
      says: 'ResourceService/GetResource: [unavailable] try later (the code "overloaded" is not a Connect code'
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
      error: {
        _tag: "DecodeError",
        path: "$.resource.port",
        httpStatus: 200,
        operation: "ResourceService/GetResource"
      },
      says: "ResourceService/GetResource: $.resource.port",
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
      error: {
        _tag: "InvalidRequestError",
        path: "$.limit",
        operation: "ResourceService/ListNativeUsers"
      },
      says: "ResourceService/ListNativeUsers: $.limit: limit must be from 1 to 500"
    },
    sent: { count: 0 }
  }
]
