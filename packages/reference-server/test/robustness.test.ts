import { ConnectError, Operations } from "@data-access/schema"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { ReferenceServer } from "../src/index.js"
import { rpc } from "./helpers.js"

const isErrorBody = Schema.is(ConnectError.ErrorBody)
const encoder = new TextEncoder()

const nest = (depth: number, kind: "array" | "object"): string =>
  kind === "array"
    ? "[".repeat(depth) + "]".repeat(depth)
    : '{"a":'.repeat(depth) + "1" + "}".repeat(depth)

/** Hostile bodies: wrong types, deep nesting, huge strings, invalid UTF-8, prototype pollution, noise. */
const hostileBodies = (count: number, seed: number): ReadonlyArray<Uint8Array> => {
  const json = (v: unknown) => encoder.encode(JSON.stringify(v))
  const fieldNames = [
    ...new Set(
      Operations.all.flatMap((op) =>
        [
          "id",
          "limit",
          "name",
          "filter",
          "biVendorA",
          "mdmVendorA",
          "searchFields",
          "cursor",
          "order",
          "email"
        ].concat(Object.keys((op.request as any).fields ?? {}))
      )
    )
  ]
  const arbitraries: ReadonlyArray<FastCheck.Arbitrary<Uint8Array>> = [
    // Any JSON value at the top level.
    FastCheck.jsonValue({ maxDepth: 4 }).map(json),
    // Known field names with values of any type.
    FastCheck.dictionary(
      FastCheck.constantFrom(...fieldNames),
      FastCheck.jsonValue({ maxDepth: 3 }),
      { maxKeys: 6 }
    ).map(json),
    // Prototype-pollution keys, at the top and nested.
    FastCheck.constantFrom(
      '{"__proto__":{"polluted":true},"id":"x","limit":5}',
      '{"constructor":{"prototype":{"polluted":true}},"name":"x"}',
      '{"filter":{"__proto__":{"field":{"key":"name","operator":"equals"}}},"limit":3}',
      '{"biVendorA":{"__proto__":{"apiKey":"k"}},"name":"n"}',
      '{"__proto__":null,"limit":1}',
      '{"toString":1,"valueOf":"x","hasOwnProperty":false,"limit":10}'
    ).map((s) => encoder.encode(s)),
    // Deep nesting.
    FastCheck.tuple(
      FastCheck.integer({ min: 60, max: 5_000 }),
      FastCheck.constantFrom("array" as const, "object" as const)
    ).map(([d, k]) => encoder.encode(`{"limit":1,"filter":${nest(d, k)}}`)),
    FastCheck.integer({ min: 60, max: 200 }).map((d) => {
      let f = '{"field":{"key":"name","operator":"empty"}}'
      for (let i = 0; i < d; i++) f = `{"group":{"operator":"and","filters":[${f}]}}`
      return encoder.encode(`{"limit":5,"filter":${f}}`)
    }),
    // Invalid UTF-8 and random bytes.
    FastCheck.uint8Array({ minLength: 0, maxLength: 64 }),
    FastCheck.uint8Array({ minLength: 1, maxLength: 16 }).map(
      (b) =>
        new Uint8Array([...encoder.encode('{"name":"'), 0xc3, 0x28, ...b, ...encoder.encode('"}')])
    ),
    // Wrong types in filters.
    FastCheck.record({
      limit: FastCheck.jsonValue(),
      filter: FastCheck.record({
        field: FastCheck.record({
          key: FastCheck.jsonValue(),
          operator: FastCheck.jsonValue(),
          value: FastCheck.jsonValue()
        })
      })
    }).map(json),
    // Unicode strings everywhere.
    FastCheck.record({
      id: FastCheck.string({ unit: "binary" }),
      name: FastCheck.string({ unit: "binary" }),
      limit: FastCheck.integer()
    }).map(json)
  ]
  const bodies = FastCheck.sample(FastCheck.oneof(...arbitraries), { numRuns: count, seed })
  // A few huge strings (1 MiB and 3 MiB).
  return [
    ...bodies,
    json({ id: "x".repeat(1 << 20) }),
    json({ name: "é".repeat(1_500_000), limit: 1 }),
    json({ search: "s".repeat(3 << 20), limit: 2 })
  ]
}

/**
 * Bodies drawn for the in-process case: each of the nine kinds of hostile body about 440 times,
 * every operation about 180 (the suite runs under each Node line).
 */
const BODIES = 4_000

layer(ReferenceServer.layerHttpClient())("robustness (in process)", (it) => {
  it.effect(
    `${BODIES.toLocaleString("en")} malformed or hostile bodies get 4xx Connect errors, never a 5xx, and the server answers normally afterwards`,
    () =>
      Effect.gen(function* () {
        const client = yield* HttpClient.HttpClient
        const server = yield* ReferenceServer.InProcess
        const bodies = hostileBodies(BODIES, 1234)
        expect(bodies.length).toBeGreaterThanOrEqual(BODIES)
        const statuses = new Map<number, number>()
        // Every wrong answer, each with its request: one assertion at the end (an `expect` per body
        // was a fifth of this test's time), which prints them all.
        const wrong: Array<string> = []
        let i = 0
        for (const body of bodies) {
          const op = Operations.all[i++ % Operations.all.length]!
          const response = yield* client.execute(
            HttpClientRequest.post(server.url + op.path).pipe(
              HttpClientRequest.bodyUint8Array(body, "application/json"),
              HttpClientRequest.setHeaders({
                "x-api-key": server.apiKeys[0]!,
                "connect-protocol-version": "1"
              })
            )
          )
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          const request = () => `${op.method} ${new TextDecoder().decode(body.slice(0, 200))}`
          if (response.status >= 500) wrong.push(`${response.status} for ${request()}`)
          if (response.status !== 200) {
            const json = yield* response.json
            if (!isErrorBody(json))
              wrong.push(`not a Connect error body: ${JSON.stringify(json)} for ${request()}`)
          }
        }
        expect(wrong).toEqual([])
        expect(statuses.get(400) ?? 0).toBeGreaterThan(BODIES * 0.8)
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        // Still healthy.
        const ok = yield* client.execute(
          HttpClientRequest.post(server.url + Operations.operations.GetResource.path).pipe(
            HttpClientRequest.bodyUnsafeJson({ id: server.knownIds.resources[0] }),
            HttpClientRequest.setHeader("x-api-key", server.apiKeys[0]!)
          )
        )
        expect(ok.status).toBe(200)
      }),
    // A guard against a hang: about 10 s on an idle 2-core machine, over 25 s on a loaded one.
    300_000
  )
})

describe("robustness over HTTP", () => {
  it.scoped("hostile bodies over a socket never crash the server", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const bodies = hostileBodies(300, 99)
      yield* Effect.forEach(
        bodies,
        (body, i) =>
          Effect.gen(function* () {
            const reply = yield* rpc(
              server,
              Operations.all[i % Operations.all.length]!.method,
              undefined,
              { raw: body }
            )
            expect(reply.status).toBeLessThan(500)
            if (reply.status !== 200) expect(isErrorBody(reply.json)).toBe(true)
          }),
        { concurrency: 16, discard: true }
      )
      const ok = yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] })
      expect(ok.status).toBe(200)
    })
  )

  it.scoped("200 concurrent updates lose none", () =>
    Effect.gen(function* () {
      const server = yield* ReferenceServer.start()
      const ids = server.knownIds.satellites.slice(0, 200)
      const replies = yield* Effect.forEach(
        ids,
        (id, i) => rpc(server, "UpdateSatellite", { id, name: `concurrent-${i}` }),
        { concurrency: 200 }
      )
      for (const r of replies) expect(r.status).toBe(200)
      const listed = yield* rpc(server, "ListSatellites", { limit: 500, search: "concurrent-" })
      expect(listed.json.satellites.length).toBe(200)
      // 200 concurrent updates of one object: each moves updatedAt strictly forward.
      const one = server.knownIds.satellites[210]!
      const same = yield* Effect.forEach(
        Array.from({ length: 200 }, (_, i) => i),
        (i) => rpc(server, "UpdateSatellite", { id: one, terminationProtection: i % 2 === 0 }),
        { concurrency: 200 }
      )
      const stamps = new Set(same.map((r) => r.json.satellite.updatedAt))
      expect(stamps.size).toBe(200)
      const decoded = Schema.decodeUnknownEither(
        Schema.Struct({ satellite: Schema.Struct({ id: Schema.String }) })
      )(same[0]!.json)
      expect(Either.isRight(decoded)).toBe(true)
    })
  )
})
