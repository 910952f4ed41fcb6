/**
 * The redaction check of both lines: calls that send and receive every kind of secret field, each
 * first answered `unavailable` (a retry: a log line and span events) and then answered in full,
 * with tracing and logging at their most verbose; then no secret may appear in logs, spans,
 * errors or printed values, though each did go out on the wire.
 */
import type { CapturedSpan } from "./capture.js"
import { printed } from "./capture.js"
import { API_KEY, type Reply } from "./model.js"
import type { Expect } from "./verify.js"
import { unavailable } from "./fake.js"
import type { Scenario, SentRequest } from "./scenario.js"
import { expectCall, log, recorded } from "./scenario.js"

/** One distinct value per secret field of decisions.md section 8. */
export const SECRETS = {
  password: "pw-basic-9f1d",
  secret: "v1-secret-77ab",
  webhookSecret: "whsec-1234cafe",
  catalogApiKey: "catalog-key-5e5e",
  mdmApiKey: "mdm-key-abcd",
  biApiKey: "bi-key-0f0f",
  biApiSecret: "bi-secret-e1e1",
  humanPassword: "human-pw-4242",
  certificate: "Y2VydGlmaWNhdGUtYmFzZTY0",
  privateKey: "cHJpdmF0ZS1rZXktYmFzZTY0"
} as const

const S = SECRETS

/** A call of the check: a method's call, its paging stream (`stream`), or a call that fails (`fails`). */
export interface RedactionCall {
  readonly method: string
  readonly request: unknown
  readonly stream?: boolean
  readonly fails?: boolean
}

const bodies = [
  {
    nativeUsers: [
      {
        id: "nu_1",
        basic: { username: "app", password: S.password },
        username: "app",
        secret: S.secret
      }
    ],
    listMetadata: { count: 1 }
  },
  {
    integration: {
      id: "dc_1",
      catalogVendorA: { webhookSecret: S.webhookSecret, apiKey: S.catalogApiKey }
    }
  },
  { integration: { id: "mdm_1", mdmVendorA: { apiKey: S.mdmApiKey } } },
  { integration: { id: "bi_1", biVendorA: { apiKey: S.biApiKey, apiSecret: S.biApiSecret } } },
  {
    password: S.humanPassword,
    username: "ada",
    expiresAt: "2030-01-01T00:00:00Z",
    createdAt: "2026-01-01T00:00:00Z"
  },
  { connectorHostname: { id: "ch_1" } }
]

/** What the fake server answers, in order. */
export const redactionReplies: ReadonlyArray<Reply> = [
  ...bodies.flatMap((body): Array<Reply> => [unavailable, { status: 200, body }]),
  { status: 400, body: { code: "invalid_argument", message: "bad" } }
]

/** The calls, in order; `secret` makes a line's `Redacted` value. */
export const redactionCalls = (
  secret: (value: string) => unknown
): ReadonlyArray<RedactionCall> => [
  { method: "ListNativeUsers", request: { resourceId: "r_1" }, stream: true },
  { method: "GetDataCatalogIntegration", request: { id: "dc_1" } },
  {
    method: "CreateIntegrationMDM",
    request: { name: "mdm", mdmVendorA: { apiKey: secret(S.mdmApiKey) } }
  },
  {
    method: "CreateBIIntegration",
    request: {
      name: "bi",
      biVendorA: { apiKey: secret(S.biApiKey), apiSecret: secret(S.biApiSecret) }
    }
  },
  { method: "CreateHumanUserPassword", request: { username: "ada" } },
  {
    method: "UpdateConnectorHostname",
    request: { id: "ch_1", certificate: secret(S.certificate), privateKey: secret(S.privateKey) }
  },
  { method: "GetResource", request: { id: "r_1" }, fails: true },
  // A request that fails validation on a secret field.
  {
    method: "UpdateConnectorHostname",
    request: { id: "ch_1", certificate: secret(`${S.certificate}!!`) },
    fails: true
  }
]

/** What a line's run of the calls observed. */
export interface RedactionObserved {
  /** What each call that succeeded returned, in order. */
  readonly values: ReadonlyArray<unknown>
  /** What each call that fails failed with, in order. */
  readonly errors: ReadonlyArray<unknown>
  /** Every request sent. */
  readonly seen: ReadonlyArray<SentRequest>
  readonly spans: ReadonlyArray<CapturedSpan>
  readonly lines: ReadonlyArray<string>
  /** Everything the tracer and logger recorded, as text. */
  readonly dump: string
  /** The value of a line's `Redacted` (to see that the secrets came back decoded). */
  readonly reveal: (redacted: unknown) => string | undefined
}

/** Checks that the secrets went out and came back, and that none of them shows anywhere. */
export const verifyRedaction = (observed: RedactionObserved, expect: Expect): void => {
  const { errors, seen, spans, values } = observed
  // The secrets did go out on the wire (the test can fail) ...
  const wire = JSON.stringify(seen)
  for (const secret of [API_KEY, S.certificate, S.biApiSecret]) expect(wire).toContain(secret)
  // ... and came back decoded, as Redacted values.
  const bi = values[3] as { integration: { biVendorA: { apiSecret: unknown } } }
  expect(observed.reveal(bi.integration.biVendorA.apiSecret)).toEqual(S.biApiSecret)
  // Spans and logs were captured: the retry, the attempts, the HTTP client spans (the API key redacted).
  expect({
    call: spans.some((s) => s.name === "ResourceService/ListNativeUsers"),
    retry: spans.some((s) => s.events.some((e) => e.name === "retry")),
    httpKey: spans.some(
      (s) => String(s.attributes.get("http.request.header.x-api-key")) === "<redacted>"
    ),
    logged: observed.lines.some((l) => l.includes("retrying")),
    errors: errors.length
  }).toEqual({ call: true, retry: true, httpKey: true, logged: true, errors: 2 })
  const everything = [observed.dump, ...values.map(printed), ...errors.map(printed)].join("\n")
  for (const secret of [API_KEY, ...Object.values(S)]) expect(everything).not.toContain(secret)
}

/**
 * The calls of `redactionCalls` through the line's client, each call that fails failing and each
 * other one succeeding, their values and errors logged, then `verifyRedaction`. The line's client
 * runs over a fake server answering `redactionReplies`, retrying once without waiting.
 */
export const redactionScenario: Scenario = {
  name: "no secret appears in logs, spans, errors or printed values, with tracing and logging at the most verbose level",
  capture: true,
  *run({ expect, reveal, secret }) {
    const values: Array<unknown> = []
    const errors: Array<unknown> = []
    const seen: Array<SentRequest> = []
    for (const c of redactionCalls(secret)) {
      const call = { method: c.method, request: c.request, stream: c.stream === true }
      const { result, sent } = yield* expectCall(
        call,
        c.fails === true ? { _tag: "Failure", error: {} } : { _tag: "Success" },
        expect
      )
      seen.push(...sent)
      if (result._tag === "Success") values.push(result.value)
      else if (result._tag === "Failure") errors.push(result.error)
    }
    yield* log("Debug", "values", values)
    yield* log("Error", "errors", errors)
    const { dump, lines, spans } = yield* recorded()
    verifyRedaction({ values, errors, seen, spans, lines, dump, reveal }, expect)
  }
}
