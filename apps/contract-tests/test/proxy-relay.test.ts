// The relay's transport, against a plain node:http target the test controls: bodies of unknown
// length and longer than the checking limit stream through both ways byte for byte, repeated
// headers stay repeated, the path and query reach the target as sent (under the target's own path),
// a target that does not answer is a Connect `unavailable` answer and a judged exchange, and a
// client that goes away mid-answer leaves the proxy serving, and a body the target answered before
// reading it all does not hold up the client's next request on the same connection, and a long
// answer reaches a client that reads slowly whole.
import { describe, expect, it } from "@effect/vitest"
import * as Undici from "@effect/platform-node/Undici"
import * as Effect from "effect/Effect"
import * as Http from "node:http"
import type * as Net from "node:net"
import * as Proxy from "../src/Proxy.js"

/** A target on an ephemeral port, living as long as the scope. */
const target = (listener: Http.RequestListener) =>
  Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const server = Http.createServer(listener).listen(0, "127.0.0.1", () =>
        resume(Effect.succeed(server))
      )
    }),
    (server) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as Net.AddressInfo).port}`))

interface Answer {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly body: Buffer
}

/** A request with node:http: `chunks` sent one by one with no Content-Length (chunked). */
const request = (
  url: string,
  options: {
    method?: string
    headers?: Http.OutgoingHttpHeaders
    chunks?: ReadonlyArray<Buffer>
  } = {}
) =>
  Effect.async<Answer, Error>((resume) => {
    const req = Http.request(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {} },
      (res) => {
        const parts: Array<Buffer> = []
        res.on("data", (c: Buffer) => parts.push(c))
        res.on("end", () =>
          resume(
            Effect.succeed({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(parts)
            })
          )
        )
        res.on("error", (e) => resume(Effect.fail(e)))
      }
    )
    req.on("error", (e) => resume(Effect.fail(e)))
    const chunks = options.chunks ?? []
    const next = (i: number): void => {
      if (i === chunks.length) return void req.end()
      req.write(chunks[i], () => setTimeout(() => next(i + 1), 2))
    }
    next(0)
  })

const bytes = (n: number, seed: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256))

describe("the proxy's relay", () => {
  it.scoped(
    "bodies of unknown length and over the checking limit stream through both ways, byte for byte; repeated headers stay repeated",
    () =>
      Effect.gen(function* () {
        // Echoes the request body back in chunks, with no Content-Length, and two cookies.
        const url = yield* target((req, res) => {
          const parts: Array<Buffer> = []
          req.on("data", (c: Buffer) => parts.push(c))
          req.on("end", () => {
            res.writeHead(200, {
              "content-type": "application/octet-stream",
              "set-cookie": ["a=1", "b=2"],
              "x-seen-length": String(Buffer.concat(parts).length)
            })
            for (const part of parts) res.write(part)
            res.end()
          })
        })
        const proxy = yield* Proxy.start({ target: url, checkedBytes: 64 })
        const chunks = [bytes(10, 1), bytes(100, 2), bytes(70_000, 3), bytes(1, 4)]
        const sent = Buffer.concat(chunks)
        const direct = yield* request(url, { chunks })
        const relayed = yield* request(proxy.url, { chunks })
        expect(relayed.status).toBe(200)
        expect(relayed.body.equals(sent)).toBe(true)
        expect(relayed.body.equals(direct.body)).toBe(true)
        expect(relayed.headers["set-cookie"]).toEqual(["a=1", "b=2"])
        expect(relayed.headers["x-seen-length"]).toBe(String(sent.length))
        // A body of known length over the limit streams too.
        const known = yield* request(proxy.url, {
          headers: { "content-length": String(sent.length) },
          chunks: [sent]
        })
        expect(known.body.equals(sent)).toBe(true)
        expect((yield* proxy.report).requests).toBe(2)
      })
  )

  it.scoped(
    "the path and query reach the target as sent, under the target's own path; the method and headers too",
    () =>
      Effect.gen(function* () {
        const url = yield* target((req, res) => {
          res.writeHead(200, { "content-type": "application/json" })
          res.end(
            JSON.stringify({
              url: req.url,
              method: req.method,
              custom: req.headers["x-custom"],
              host: req.headers["host"],
              te: req.headers["te"] ?? null
            })
          )
        })
        const proxy = yield* Proxy.start({ target: `${url}/base/` })
        const answer = yield* request(`${proxy.url}/core.v1.x/Y?a=%20b&c&d=%C3%A9`, {
          method: "PUT",
          headers: { "x-custom": "kept", te: "trailers" }
        })
        expect(JSON.parse(answer.body.toString())).toEqual({
          url: "/base/core.v1.x/Y?a=%20b&c&d=%C3%A9",
          method: "PUT",
          custom: "kept",
          host: new URL(url).host,
          te: null
        })
      })
  )

  it.scoped(
    "a target that does not answer: 502 with a Connect unavailable error, and the exchange judged",
    () =>
      Effect.gen(function* () {
        // A port that was listening and is closed now.
        const closed = yield* Effect.scoped(target(() => {}))
        const proxy = yield* Proxy.start({ target: closed })
        const answer = yield* request(`${proxy.url}/core.v1.ResourceService/GetResource`, {
          headers: { "content-type": "application/json" },
          chunks: [Buffer.from("{}")]
        })
        expect(answer.status).toBe(502)
        expect(answer.headers["content-type"]).toBe("application/json")
        const error = JSON.parse(answer.body.toString()) as { code: string; message: string }
        expect(error.code).toBe("unavailable")
        expect(error.message).toContain(`${closed} did not answer`)
        expect((yield* proxy.report).requests).toBe(1)
      })
  )

  it.scoped(
    "a body the target answers before reading it all: the client's next request on the same connection is answered, not stalled and reset",
    () =>
      Effect.gen(function* () {
        // Refuses a body over 1 KiB by its Content-Length, before reading it, as a server's size limit does.
        const url = yield* target((req, res) => {
          const refused = Number(req.headers["content-length"] ?? 0) > 1024
          res.writeHead(refused ? 413 : 200, { "content-type": "text/plain" })
          res.end(refused ? "too large" : "ok")
        })
        const proxy = yield* Proxy.start({ target: url, checkedBytes: 64 })
        // One connection, as an undici pool reuses an idle one: the second request goes on it.
        const client = yield* Effect.acquireRelease(
          Effect.sync(() => new Undici.Client(proxy.url, { pipelining: 1 })),
          (c) => Effect.promise(() => c.destroy())
        )
        const send = (body: Buffer) =>
          Effect.promise(() =>
            client
              .request({
                path: "/core.v1.SatelliteService/ListSatellites",
                method: "POST",
                headers: { "content-type": "application/json" },
                body
              })
              .then(async (r) => `${r.statusCode} ${await r.body.text()}`)
              .catch((e: { readonly code?: string }) => `failed: ${e.code ?? String(e)}`)
          )
        expect(yield* send(bytes(4 << 20, 7))).toBe("413 too large")
        expect(yield* send(Buffer.from("{}"))).toBe("200 ok")
        expect((yield* proxy.report).requests).toBe(2)
      })
  )

  it.scopedLive(
    "a long answer to a client that reads slowly arrives whole: the target is read as the client's socket drains",
    () =>
      Effect.gen(function* () {
        const part = bytes(64 * 1024, 9)
        const parts = 64
        // 4 MiB of unknown length, written as the proxy's socket takes it.
        const url = yield* target((_req, res) => {
          res.writeHead(200, { "content-type": "application/octet-stream" })
          let sent = 0
          const more = (): void => {
            while (sent < parts) {
              sent++
              if (!res.write(part)) return void res.once("drain", more)
            }
            res.end()
          }
          more()
        })
        const proxy = yield* Proxy.start({ target: url, checkedBytes: 64 })
        const received = yield* Effect.async<number, Error>((resume) => {
          Http.get(`${proxy.url}/slow`, (res) => {
            let n = 0
            // Reads nothing for a while, then one chunk a millisecond.
            res.pause()
            res.on("data", (c: Buffer) => {
              n += c.length
              res.pause()
              setTimeout(() => res.resume(), 1)
            })
            res.on("end", () => resume(Effect.succeed(n)))
            res.on("error", (e) => resume(Effect.fail(e)))
            setTimeout(() => res.resume(), 200)
          }).on("error", (e) => resume(Effect.fail(e)))
        })
        expect(received).toBe(parts * part.length)
        expect((yield* proxy.report).requests).toBe(1)
      })
  )

  it.scoped("a client that goes away mid-answer: the proxy goes on serving", () =>
    Effect.gen(function* () {
      const url = yield* target((req, res) => {
        if (req.url === "/slow") {
          res.writeHead(200, { "content-type": "application/octet-stream" })
          res.write(bytes(1000, 5))
          const timer = setInterval(() => res.write(bytes(1000, 6)), 5)
          res.on("close", () => clearInterval(timer))
        } else {
          res.writeHead(200, { "content-type": "text/plain", "content-length": "2" })
          res.end("ok")
        }
      })
      const proxy = yield* Proxy.start({ target: url })
      yield* Effect.async<void>((resume) => {
        const req = Http.request(`${proxy.url}/slow`, (res) => {
          res.once("data", () => {
            req.destroy()
            resume(Effect.void)
          })
        })
        req.end()
      })
      const after = yield* request(`${proxy.url}/fast`, { method: "GET" })
      expect([after.status, after.body.toString()]).toEqual([200, "ok"])
    })
  )

  it.scopedLive(
    "a client that goes away before its answer: the request to the target is abandoned, and nothing is judged",
    () =>
      Effect.gen(function* () {
        let abandoned = false
        // Never answers: the request stays open at the target until the proxy lets it go.
        const url = yield* target((_req, res) => {
          res.on("close", () => (abandoned = !res.writableFinished))
        })
        const proxy = yield* Proxy.start({ target: url })
        const req = Http.request(`${proxy.url}/core.v1.ResourceService/GetResource`, {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": "2" }
        })
        req.on("error", () => {})
        req.end("{}")
        yield* Effect.sleep("100 millis")
        req.destroy()
        for (let i = 0; i < 100 && !abandoned; i++) yield* Effect.sleep("20 millis")
        expect(abandoned).toBe(true)
        expect((yield* proxy.report).requests).toBe(0)
      })
  )
})
