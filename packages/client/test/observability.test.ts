// Under the machine's Node only (scripts/node-lines): the client's logic over a fake HttpClient, pure Effect code.
import { API_KEY, resource, unavailable } from "@data-access/client-behaviour"
import * as Headers from "@effect/platform/Headers"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { Services } from "../src/index.js"
import { makeCapture } from "./capture.js"
import { clientLayer, makeFake } from "./fake.js"

describe("observability", () => {
  it.effect(
    "one span per call named after the operation, with rpc attributes, the response code and one event per attempt",
    () =>
      Effect.gen(function* () {
        const capture = makeCapture()
        const fake = makeFake([
          unavailable,
          { status: 200, body: resource },
          { status: 404, body: { code: "not_found" } }
        ])
        const layer = Layer.merge(
          clientLayer(fake, { retryPolicy: Schedule.recurs(2) }),
          capture.layer
        )
        yield* Effect.gen(function* () {
          const resources = yield* Services.ResourceService
          yield* resources.getResource({ id: "resource_1" })
          yield* Effect.flip(resources.getResource({ id: "resource_2" }))
        }).pipe(Effect.provide(layer))

        const calls = capture.spans.filter((s) => s.name === "ResourceService/GetResource")
        expect(calls).toHaveLength(2)
        const [ok, notFound] = calls as [(typeof calls)[0], (typeof calls)[0]]
        expect(Object.fromEntries(ok.attributes)).toMatchObject({
          "rpc.system": "connect_rpc",
          "rpc.service": "core.v1.ResourceService",
          "rpc.method": "GetResource",
          "rpc.response.code": "ok",
          "rpc.attempts": 2
        })
        expect(ok.events.filter((e) => e.name === "attempt")).toHaveLength(2)
        expect(ok.events.filter((e) => e.name === "retry")[0]?.attributes).toMatchObject({
          "retry.reason": "unavailable",
          "rpc.attempt": 1
        })
        expect(notFound.attributes.get("rpc.response.code")).toBe("not_found")
        expect(notFound.events.filter((e) => e.name === "attempt")).toHaveLength(1)
        // The HttpClient's own span per request, with the API key header redacted.
        const http = capture.spans.filter((s) => s.attributes.has("http.request.method"))
        expect(http).toHaveLength(3)
        expect(String(http[0]!.attributes.get("http.request.header.x-api-key"))).toBe("<redacted>")
      })
  )

  it.effect(
    "the API key stays redacted in HttpClient spans even when the redacted header list is replaced",
    () =>
      Effect.gen(function* () {
        const capture = makeCapture()
        const fake = makeFake([{ status: 200, body: resource }])
        yield* Effect.flatMap(Services.ResourceService, (s) =>
          s.getResource({ id: "resource_1" })
        ).pipe(
          Effect.locally(Headers.currentRedactedNames, ["authorization"]),
          Effect.provide(Layer.merge(clientLayer(fake), capture.layer))
        )
        const http = capture.spans.find((s) => s.attributes.has("http.request.header.x-api-key"))
        expect(http).toBeDefined()
        expect(String(http!.attributes.get("http.request.header.x-api-key"))).toBe("<redacted>")
        expect(capture.dump()).not.toContain(API_KEY)
      })
  )
})
