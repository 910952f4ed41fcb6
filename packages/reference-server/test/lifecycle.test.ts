import { Operations } from "@data-access/schema"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import * as Http from "node:http"
import * as Net from "node:net"
import { ReferenceServer } from "../src/index.js"

interface Reply {
  readonly status: number | undefined
  readonly connection: string | undefined
  readonly json: any
}

/**
 * A POST on a connection of its own, sent in steps: `connected` once the connection is open,
 * `start` sends the headers (with `Expect: 100-continue` when `started` is wanted), `started` once
 * the server has read them (it answers 100 Continue just before it starts the request), `send`
 * sends the body (and the headers, if not yet sent).
 */
const open = (
  server: ReferenceServer.Running,
  method: Operations.MethodName,
  body: unknown,
  options: { readonly expectContinue?: boolean } = {}
) => {
  const text = JSON.stringify(body)
  const request = Http.request(server.url + Operations.operations[method].path, {
    method: "POST",
    agent: false,
    headers: {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "x-api-key": server.apiKeys[0]!,
      "connect-protocol-version": "1",
      ...(options.expectContinue ? { expect: "100-continue" } : {})
    }
  })
  const connected = new Promise<void>((resolve) =>
    request.once("socket", (socket) =>
      socket.connecting ? socket.once("connect", () => resolve()) : resolve()
    )
  )
  const started = new Promise<void>((resolve) => request.once("continue", () => resolve()))
  const reply = new Promise<Reply>((resolve, reject) => {
    request.once("error", reject)
    request.once("response", (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.once("error", reject)
      response.once("end", () =>
        resolve({
          status: response.statusCode,
          connection: response.headers.connection,
          json: JSON.parse(Buffer.concat(chunks).toString())
        })
      )
    })
  })
  return {
    connected: Effect.promise(() => connected),
    started: Effect.promise(() => started),
    reply: Effect.tryPromise(() => reply),
    start: Effect.sync(() => request.flushHeaders()),
    send: Effect.sync(() => request.end(text))
  }
}

const connect = (url: string) =>
  Effect.async<Net.Socket, Error>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = Net.connect(Number(port), hostname)
    socket.once("connect", () => resume(Effect.succeed(socket)))
    socket.once("error", (error) => resume(Effect.fail(error)))
  })

/** One turn of the event loop, its I/O included: a connection the client has opened is accepted by then. */
const turn = Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))

/** Waits until the server refuses new connections (it has stopped listening). */
const untilRefused = (url: string) =>
  Effect.gen(function* () {
    for (;;) {
      const attempt = yield* Effect.either(connect(url))
      if (attempt._tag === "Left") return
      attempt.right.destroy()
      yield* turn
    }
  })

const slowGets = (millis: number): ReferenceServer.Options => ({
  faults: { rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis } }] }
})

/** A server in `scope` whose Gets take `millis`, and a GetResource sent to it whose answer is awaited. */
const getInFlight = (scope: Scope.CloseableScope, millis: number) =>
  Effect.gen(function* () {
    const server = yield* ReferenceServer.start(slowGets(millis)).pipe(Scope.extend(scope))
    const inFlight = open(
      server,
      "GetResource",
      { id: server.knownIds.resources[0] },
      { expectContinue: true }
    )
    yield* inFlight.start
    yield* inFlight.started
    yield* inFlight.send
    return { server, inFlight }
  })

describe("lifecycle", () => {
  it.live("closing the scope finishes the requests in flight, then refuses new connections", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const { inFlight, server } = yield* getInFlight(scope, 600)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      const reply = yield* inFlight.reply
      expect(reply.status).toBe(200)
      expect(reply.json.resource.id).toBe(server.knownIds.resources[0])
      expect(reply.connection).toBe("close")
      yield* Fiber.join(closing)
      const after = yield* Effect.either(Effect.tryPromise(() => fetch(server.url)))
      expect(after._tag).toBe("Left")
    })
  )

  it.live(
    "while closing, a request on a connection opened before is answered, and connections without a request end",
    () =>
      Effect.gen(function* () {
        const scope = yield* Scope.make()
        const { inFlight, server } = yield* getInFlight(scope, 1_000)
        // A connection opened but silent until the close has begun, and one that stays silent.
        const late = open(server, "GetResource", { id: server.knownIds.resources[1] })
        yield* late.connected
        const silent = yield* connect(server.url)
        const silentEnded = Effect.async<void>(
          (resume) => void silent.once("close", () => resume(Effect.void))
        )
        yield* turn
        const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
        yield* untilRefused(server.url)
        yield* late.send
        const [first, second] = yield* Effect.all([inFlight.reply, late.reply], {
          concurrency: "unbounded"
        })
        expect([first.status, second.status]).toEqual([200, 200])
        expect(second.json.resource.id).toBe(server.knownIds.resources[1])
        expect(second.connection).toBe("close")
        yield* Fiber.join(closing)
        yield* silentEnded
      })
  )

  it.scoped("a port in use is a StartError naming the address", () =>
    Effect.gen(function* () {
      const first = yield* ReferenceServer.start()
      const port = Number(new URL(first.url).port)
      const error = yield* Effect.flip(ReferenceServer.start({ port }))
      expect(error._tag).toBe("StartError")
      expect(error.reason).toBe("Listen")
      expect(error.message).toContain(String(port))
    })
  )
})
