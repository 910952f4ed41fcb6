import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import { makeFinding, makeReport } from "../src/internal/findings.js"
import type { Exchange } from "../src/internal/http.js"
import { fail } from "../src/internal/outcome.js"

const KEY = "key-0123456789"
const SECRET = "sk-live-secret-42"

// A server that echoes the secret and the key into its error message, a note and a detail.
const exchange: Exchange = {
  request: {
    method: "POST",
    path: "/core.v1.ResourceService/CreateResource",
    key: "valid",
    contentType: "application/json",
    headers: {},
    protocolVersion: "1",
    body: JSON.stringify({ name: `n ${SECRET}`, biVendorA: { apiKey: SECRET } })
  },
  response: Option.some({
    status: 500,
    headers: { "content-type": "application/json" },
    text: JSON.stringify({ code: "internal", message: `${SECRET} with ${KEY}` }),
    json: Option.some({ code: "internal", message: `${SECRET} with ${KEY}` })
  }),
  transportError: undefined,
  receivedAt: 0,
  durationMs: 1
}

describe("makeFinding", () => {
  const outcome = fail(
    "errors.no-internal-for-client-faults",
    `cause ${KEY}`,
    `message ${SECRET}`,
    exchange,
    `detail ${SECRET}`
  )

  it("keeps the API key and the request's secret values out of every text of a finding", () => {
    const finding = makeFinding({
      outcome,
      operation: "CreateResource",
      baseUrl: "http://x",
      secrets: [KEY]
    })
    const text = JSON.stringify(finding)
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(SECRET)
    expect(finding.message).toBe("message [redacted]")
    expect(finding.request.body).toContain("[redacted]")
    expect(finding.curl).toContain("$DATA_ACCESS_API_KEY")
    expect(finding).not.toHaveProperty("side")
    expect([finding.seed, finding.replayId, finding.occurrences, finding.shrinkSteps]).toEqual([
      0,
      "",
      1,
      0
    ])
  })

  it("names the side of a proxy's finding, and shows the exchange given when the outcome has none", () => {
    const finding = makeFinding({
      outcome: { ...outcome, exchange: undefined },
      exchange,
      side: "server",
      operation: "CreateResource",
      baseUrl: "http://x",
      secrets: []
    })
    expect(finding.side).toBe("server")
    expect(finding.request.path).toBe(exchange.request.path)
    expect(JSON.stringify(finding)).not.toContain(SECRET)
  })
})

describe("makeReport", () => {
  it("fills what a report leaves out and keeps the key out of its notes", () => {
    const report = makeReport({
      runId: "r",
      target: "http://x",
      started: Date.now(),
      requests: 3,
      cells: [],
      findings: [],
      notes: [`saw ${KEY}`],
      secrets: [KEY]
    })
    expect(report).toMatchObject({
      seed: 0,
      examples: 3,
      readOnly: false,
      replay: undefined,
      known: [],
      fixed: [],
      observations: [],
      notes: ["saw [redacted]"]
    })
  })
})
