import { ConnectError } from "@data-access/schema"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { ReferenceServer } from "../src/index.js"
import { rpc, serverLayer, TestServer } from "./helpers.js"

const isErrorBody = (json: unknown, status: number) => {
  const decoded = Schema.decodeUnknownEither(ConnectError.ErrorBody)(json)
  return Either.isRight(decoded) && ConnectError.statusAgrees(decoded.right.code, status)
}

layer(serverLayer({ maxBodyBytes: 64 * 1024 }))("Connect protocol", (it) => {
  it.effect("other HTTP methods get 405 with Allow: POST", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const httpMethod of ["GET", "PUT", "DELETE", "PATCH"]) {
        const reply = yield* rpc(server, "GetResource", { id: "x" }, { httpMethod })
        expect(reply.status, httpMethod).toBe(405)
        expect(reply.headers.get("allow")).toBe("POST")
        expect(reply.headers.get("x-request-id")).toMatch(/^req_/)
      }
    })
  )

  it.effect("unknown routes get 404 unimplemented", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const path of [
        "/core.v1.ResourceService/DeleteResource",
        "/core.v1.NoService/GetResource",
        "/",
        "/core.v2.ResourceService/GetResource"
      ]) {
        const reply = yield* rpc(server, path, {})
        expect(reply.status, path).toBe(404)
        expect(reply.json.code).toBe("unimplemented")
        expect(reply.headers.get("x-request-id")).toMatch(/^req_/)
      }
    })
  )

  it.effect("other content types get 415", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const ct of ["text/plain", "application/x-www-form-urlencoded", "application/proto"]) {
        const reply = yield* rpc(
          server,
          "GetResource",
          { id: server.knownIds.resources[0] },
          { headers: { "content-type": ct } }
        )
        expect(reply.status, ct).toBe(415)
      }
      const withCharset = yield* rpc(
        server,
        "GetResource",
        { id: server.knownIds.resources[0] },
        { headers: { "content-type": "application/json; charset=utf-8" } }
      )
      expect(withCharset.status).toBe(200)
    })
  )

  it.effect("a zero-length, malformed or non-object body is invalid_argument", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const raw of [
        "",
        "{",
        "not json",
        "[]",
        "null",
        "42",
        '"text"',
        new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])
      ]) {
        const reply = yield* rpc(server, "GetResource", undefined, { raw })
        expect(reply.status, String(raw)).toBe(400)
        expect(reply.json.code).toBe("invalid_argument")
      }
    })
  )

  it.effect(
    "a body above the size limit is resource_exhausted, and the server answers afterwards",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const reply = yield* rpc(server, "CreatePermission", undefined, {
          raw: JSON.stringify({ name: "big", description: "d", code: "x".repeat(70 * 1024) })
        })
        expect(reply.status).toBe(429)
        expect(reply.json.code).toBe("resource_exhausted")
        const after = yield* rpc(server, "GetResource", { id: server.knownIds.resources[0] })
        expect(after.status).toBe(200)
      })
  )

  it.effect("the default size limit is 4 MiB", () =>
    Effect.gen(function* () {
      const big = yield* ReferenceServer.start({ data: "empty" })
      const under = yield* rpc(big, "CreatePermission", {
        name: "n",
        description: "d",
        code: "x".repeat(4 * 1024 * 1024 - 100)
      })
      expect(under.status).toBe(200)
      const over = yield* rpc(big, "CreatePermission", {
        name: "n",
        description: "d",
        code: "x".repeat(4 * 1024 * 1024)
      })
      expect(over.status).toBe(429)
    }).pipe(Effect.scoped)
  )

  it.effect("CreatePermission requires Connect-Protocol-Version: 1", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const body = { name: "p", description: "d", code: "c" }
      for (const v of [undefined, "2", ""]) {
        const reply = yield* rpc(server, "CreatePermission", body, {
          headers: { "connect-protocol-version": v }
        })
        expect(reply.status, String(v)).toBe(400)
        expect(reply.json.code).toBe("invalid_argument")
        expect(reply.json.message).toMatch(/connect-protocol-version/i)
      }
      // Other operations do not require it.
      const other = yield* rpc(
        server,
        "GetResource",
        { id: server.knownIds.resources[0] },
        { headers: { "connect-protocol-version": undefined } }
      )
      expect(other.status).toBe(200)
    })
  )

  it.effect(
    "Connect-Timeout-Ms interrupts the handler with deadline_exceeded; a malformed value is invalid_argument",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        yield* server.setFaults({
          rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 2_000 } }]
        })
        const started = Date.now()
        const slow = yield* rpc(
          server,
          "GetResource",
          { id: server.knownIds.resources[0] },
          { headers: { "connect-timeout-ms": "100" } }
        )
        expect(slow.status).toBe(504)
        expect(slow.json.code).toBe("deadline_exceeded")
        expect(Date.now() - started).toBeLessThan(1_500)
        yield* server.setFaults({ rules: [] })
        const fine = yield* rpc(
          server,
          "GetResource",
          { id: server.knownIds.resources[0] },
          { headers: { "connect-timeout-ms": "5000" } }
        )
        expect(fine.status).toBe(200)
        for (const bad of ["soon", "-1", "12345678901", "1.5"]) {
          const reply = yield* rpc(
            server,
            "GetResource",
            { id: server.knownIds.resources[0] },
            { headers: { "connect-timeout-ms": bad } }
          )
          expect(reply.status, bad).toBe(400)
          expect(reply.json.code).toBe("invalid_argument")
        }
      })
  )

  it.effect("snake_case names and null are accepted, unknown fields ignored", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* rpc(server, "ListNativeUsers", {
        limit: 2,
        resource_id: server.knownIds.resources[0],
        cursor: null,
        order: null,
        future_field: { x: 1 }
      })
      expect(reply.status, reply.text).toBe(200)
      expect(reply.json.nativeUsers.length).toBe(2)
    })
  )

  it.effect("output is proto3 JSON: zero values left out, int64 as a string", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* rpc(server, "ListLogQueries", { limit: 10 })
      expect(reply.status).toBe(200)
      for (const q of reply.json.savedQueries) expect(typeof q.query.relativeTime).toBe("string")
      const hist = reply.json.savedQueries.filter(
        (q: any) => q.query.histogramGroupByFields === undefined
      )
      expect(hist.length).toBeGreaterThan(0)
      const sat = yield* rpc(server, "ListSatellites", { limit: 500 })
      expect(sat.json.satellites.some((s: any) => !("terminationProtection" in s))).toBe(true)
      expect(sat.text).not.toContain(":false")
      expect(sat.text).not.toContain(':""')
    })
  )

  it.effect("every error is a Connect error body whose code agrees with the status", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const replies = [
        yield* rpc(server, "GetResource", {}),
        yield* rpc(server, "GetResource", { id: "nope" }),
        yield* rpc(server, "GetResource", { id: "x" }, { headers: { "x-api-key": "bad" } }),
        yield* rpc(server, "/core.v1.X/Y", {}),
        yield* rpc(
          server,
          "CreatePermission",
          {},
          { headers: { "connect-protocol-version": undefined } }
        )
      ]
      for (const reply of replies)
        expect(isErrorBody(reply.json, reply.status), reply.text).toBe(true)
      // The protocol answers 405 and 415 carry a Connect body too (no code has those statuses).
      const protocol = [
        yield* rpc(server, "GetResource", {}, { httpMethod: "GET" }),
        yield* rpc(server, "GetResource", {}, { headers: { "content-type": "text/plain" } })
      ]
      expect(protocol.map((r) => [r.status, r.json.code])).toEqual([
        [405, "unimplemented"],
        [415, "unknown"]
      ])
    })
  )

  it.effect("requests are recorded without the API key", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* rpc(server, "GetResource", { id: "recorded" })
      const seen = yield* server.requests
      const last = seen[seen.length - 1]!
      expect(last.method).toBe("GetResource")
      expect(last.code).toBe("not_found")
      expect(last.status).toBe(404)
      expect(JSON.stringify(seen)).not.toContain(server.apiKeys[0])
      expect(last.headers["x-api-key"]).toBeUndefined()
    })
  )

  it.effect("requests are recorded without any credential header", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const credentials = {
        authorization: "Bearer tok-0001",
        cookie: "session=tok-0002",
        "proxy-authorization": "Basic dG9rLTAwMDM="
      }
      yield* rpc(server, "GetResource", { id: "recorded" }, { headers: credentials })
      const seen = yield* server.requests
      const last = seen[seen.length - 1]!
      for (const [name, value] of Object.entries(credentials)) {
        expect(last.headers[name]).toBeUndefined()
        expect(JSON.stringify(seen)).not.toContain(value)
      }
    })
  )

  it.effect(
    "a Content-Encoding of identity in any case is an uncompressed body; another encoding is unimplemented",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const id = server.knownIds.resources[0]
        for (const identity of ["identity", "IDENTITY", "Identity"]) {
          const reply = yield* rpc(
            server,
            "GetResource",
            { id },
            { headers: { "content-encoding": identity } }
          )
          expect(reply.status).toBe(200)
        }
        const zstd = yield* rpc(
          server,
          "GetResource",
          { id },
          { headers: { "content-encoding": "zstd" } }
        )
        expect([zstd.status, zstd.json.code]).toEqual([501, "unimplemented"])
      })
  )
})

layer(serverLayer({ emitDefaults: true, apiKeys: ["k1", "k2"] }))(
  "emitDefaults and several keys",
  (it) => {
    it.effect("every field is written, zero values too, and every configured key works", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        for (const key of ["k1", "k2"]) {
          const reply = yield* rpc(
            server,
            "ListSatellites",
            { limit: 500 },
            { headers: { "x-api-key": key } }
          )
          expect(reply.status).toBe(200)
          for (const s of reply.json.satellites)
            expect(typeof s.terminationProtection).toBe("boolean")
        }
      })
    )
  }
)
