/** Attempt timeouts, the overall budget and interruption. */
import type { Case } from "../model.js"
import { createConnector, getResource, ok } from "./shared.js"

export const deadlines: ReadonlyArray<Case> = [
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
      says: "ConnectorService/CreateConnector: the attempt timeout of 1000 ms"
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
      // The second attempt has 500 ms to reach the server before the overall budget ends, room
      // on a loaded machine.
      attemptTimeout: 1_000,
      timeout: 1_500,
      retry: { _tag: "exponential", baseMillis: 1, jitter: false, retries: 5 }
    },
    replies: [{ hang: true }],
    outcome: {
      _tag: "Failure",
      error: { _tag: "TimeoutError", scope: "overall", timeoutMillis: 1_500 }
    },
    sent: { count: [2, 3], interrupted: "each" },
    endsAt: [1_495, 5_000]
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
