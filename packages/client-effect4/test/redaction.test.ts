import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import * as Headers from "effect/http/Headers"
import * as HttpClient from "effect/http/HttpClient"
import { DataAccessClient } from "../src/index.js"
import { makeCapture, printed } from "./capture.js"
import { API_KEY, clientLayer, makeFake, unavailable } from "./fake.js"

// One distinct value per secret field of decisions.md section 8.
const S = {
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
}
const secrets = [API_KEY, ...Object.values(S)]

const bodies = {
  ListNativeUsers: {
    nativeUsers: [{ id: "nu_1", basic: { username: "app", password: S.password }, username: "app", secret: S.secret }],
    listMetadata: { count: 1 }
  },
  GetDataCatalogIntegration: {
    integration: { id: "dc_1", catalogVendorA: { webhookSecret: S.webhookSecret, apiKey: S.catalogApiKey } }
  },
  CreateIntegrationMDM: { integration: { id: "mdm_1", mdmVendorA: { apiKey: S.mdmApiKey } } },
  CreateBIIntegration: { integration: { id: "bi_1", biVendorA: { apiKey: S.biApiKey, apiSecret: S.biApiSecret } } },
  CreateHumanUserPassword: { password: S.humanPassword, username: "ada", expiresAt: "2030-01-01T00:00:00Z", createdAt: "2026-01-01T00:00:00Z" },
  UpdateConnectorHostname: { connectorHostname: { id: "ch_1" } }
}

describe("redaction", () => {
  it.effect("the layer's options, a config error and the client never print the API key", () =>
    Effect.gen(function*() {
      const options = { baseUrl: "not a url", apiKey: Redacted.make(API_KEY) }
      const fake = makeFake([{ status: 200, body: {} }])
      const error = yield* Effect.flip(Layer.build(DataAccessClient.layer(options).pipe(Layer.provide(fake.layer))).pipe(Effect.scoped))
      const client = yield* DataAccessClient.DataAccessClient.pipe(Effect.provide(clientLayer(fake)))
      for (const text of [printed(options), printed(error), printed(client)]) expect(text).not.toContain(API_KEY)
    }))

  it.effect("no secret appears in logs, spans, errors or printed values, with tracing and logging at the most verbose level", () =>
    Effect.gen(function*() {
      const capture = makeCapture()
      // Each call first fails with unavailable (a retry: logs and span events), then succeeds.
      const replies = Object.values(bodies).flatMap((body) => [unavailable, { status: 200, body }])
      const fake = makeFake([...replies, { status: 400, body: { code: "invalid_argument", message: "bad" } }])
      const layer = clientLayer(fake, { retryPolicy: Schedule.recurs(1) })
      const values: Array<unknown> = []
      const errors: Array<unknown> = []
      yield* Effect.gen(function*() {
        const client = yield* DataAccessClient.DataAccessClient
        values.push(yield* Stream.runCollect(client.listNativeUsersStream({ resourceId: "r_1" })))
        values.push(yield* client.getDataCatalogIntegration({ id: "dc_1" }))
        values.push(yield* client.createIntegrationMDM({ name: "mdm", mdmVendorA: { apiKey: Redacted.make(S.mdmApiKey) } }))
        values.push(
          yield* client.createBIIntegration({
            name: "bi",
            biVendorA: { apiKey: Redacted.make(S.biApiKey), apiSecret: Redacted.make(S.biApiSecret) }
          })
        )
        values.push(yield* client.createHumanUserPassword({ username: "ada" }))
        values.push(
          yield* client.updateConnectorHostname({ id: "ch_1", certificate: Redacted.make(S.certificate), privateKey: Redacted.make(S.privateKey) })
        )
        errors.push(yield* Effect.flip(client.getResource({ id: "r_1" })))
        // A request that fails validation on a secret field.
        errors.push(
          yield* Effect.flip(client.updateConnectorHostname({ id: "ch_1", certificate: Redacted.make(`${S.certificate}!!`) }))
        )
        yield* Effect.logDebug("values", ...values)
        yield* Effect.logError("errors", ...errors)
      }).pipe(
        Effect.withSpan("test"),
        Effect.provide(Layer.merge(layer, capture.layer)),
        // The worst case: every header recorded on the HttpClient's spans, and an app that
        // replaced the redacted header names with none. The client puts x-api-key back.
        Effect.provideService(HttpClient.TracerHeaderFilter, () => true),
        Effect.provideService(Headers.CurrentRedactedNames, [])
      )

      // The secrets did go out on the wire (the test can fail) ...
      const wire = JSON.stringify(fake.seen)
      expect(wire).toContain(API_KEY)
      expect(wire).toContain(S.certificate)
      expect(wire).toContain(S.biApiSecret)
      // ... and came back decoded, as Redacted values.
      const bi = values[3] as { integration: { biVendorA: { apiSecret: Redacted.Redacted<string> } } }
      expect(Redacted.value(bi.integration.biVendorA.apiSecret)).toBe(S.biApiSecret)
      // Spans and logs were captured: the retry, the attempts, the HTTP client spans.
      expect(capture.spans.some((s) => s.name === "ResourceService/ListNativeUsers")).toBe(true)
      expect(capture.spans.some((s) => s.events.some((e) => e.name === "retry"))).toBe(true)
      expect(capture.spans.some((s) => s.attributes.get("http.request.header.x-api-key") === "<redacted>")).toBe(true)
      expect(capture.lines.some((l) => l.includes("retrying"))).toBe(true)
      expect(errors).toHaveLength(2)

      const everything = [capture.dump(), ...values.map(printed), ...errors.map(printed)].join("\n")
      for (const secret of secrets) expect(everything).not.toContain(secret)
    }))
})
