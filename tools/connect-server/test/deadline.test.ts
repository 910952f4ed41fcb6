// The deadline: connect-node reads Connect-Timeout-Ms into the handler's signal, and the handlers
// answer deadline_exceeded when it passes, not a 200 after the operation finished.
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Server from "../src/server.js"

const getResource = (url: string, apiKey: string, id: string, timeoutMs?: number) =>
  Effect.promise(async () => {
    const started = performance.now()
    const response = await fetch(`${url}/core.v1.ResourceService/GetResource`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": apiKey,
        ...(timeoutMs === undefined ? {} : { "connect-timeout-ms": String(timeoutMs) })
      },
      body: JSON.stringify({ id })
    })
    const body = (await response.json()) as { readonly code?: string }
    return { status: response.status, code: body.code, millis: performance.now() - started }
  })

describe("the deadline of Connect-Timeout-Ms", () => {
  it.live(
    "an operation slower than the deadline is answered deadline_exceeded when it passes",
    () =>
      Effect.gen(function* () {
        // GetResource takes 3 s in the domain: the 100 ms deadline's answer comes long before, on
        // however busy a machine.
        const server = yield* Server.make({
          faults: {
            rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 3_000 } }]
          }
        })
        const id = server.knownIds.resources[0]!
        const late = yield* getResource(server.url, server.apiKeys[0]!, id, 100)
        expect(late.status).toBe(504)
        expect(late.code).toBe("deadline_exceeded")
        expect(late.millis).toBeLessThan(2_500)
        const slow = yield* getResource(server.url, server.apiKeys[0]!, id)
        expect(slow.status).toBe(200)
        expect(slow.millis).toBeGreaterThanOrEqual(2_950)
      }).pipe(Effect.scoped)
  )
})
