import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as State from "../src/internal/proxy/state.js"
import type { Job } from "../src/internal/proxy/judging.js"

// The judge runs beside the relay on a bounded queue: a burst larger than the queue is relayed
// whole (enqueue never waits nor fails), the exchanges that did not fit are counted in the report,
// and the report still waits for every exchange that was queued.
const job = (i: number): Job => {
  const body = new TextEncoder().encode(JSON.stringify({ id: `r${i}` }))
  return {
    request: { method: "POST", path: "/core.v1.ResourceService/GetResource", query: "", headers: { "content-type": "application/json", "connect-protocol-version": "1" }, keyPresent: true, body, bodyBytes: body.length },
    status: 404,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify({ code: "not_found", message: "no resource" })),
    transportError: undefined,
    started: Date.now(),
    receivedAt: Date.now(),
    key: "a-key-of-twenty-chars"
  }
}

describe("the proxy's judging queue", () => {
  it.live("a burst over the queue is relayed unjudged and counted; the queued ones are all judged", () =>
    Effect.gen(function* () {
      const state = yield* State.make({ target: "http://upstream.invalid", limit: 1 << 20, strict: false, skewMillis: 5000, judgingQueue: 8 })
      // Synchronously, as the relay hands them over: the judge gets no turn in between.
      for (let i = 0; i < 20; i++) state.enqueue(job(i))
      const report = yield* state.report
      expect(report.requests).toBe(8)
      expect(report.notes).toContain("12 exchanges relayed but not judged: the judging queue (8 exchanges) was full")
    }).pipe(Effect.scoped)
  )
})
