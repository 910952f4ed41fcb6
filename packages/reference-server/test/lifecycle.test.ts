import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Scope from "effect/Scope"
import { ReferenceServer } from "../src/index.js"
import { rpc } from "./helpers.js"

describe("lifecycle", () => {
  it.live("closing the scope finishes the requests in flight, then refuses new connections", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const server = yield* ReferenceServer.start({ faults: { rules: [{ methods: ["GetResource"], fault: { _tag: "Latency", millis: 600 } }] } }).pipe(
        Scope.extend(scope)
      )
      const inFlight = yield* Effect.fork(rpc(server, "GetResource", { id: server.knownIds.resources[0] }))
      yield* Effect.sleep("150 millis")
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      const reply = yield* Fiber.join(inFlight)
      expect(reply.status).toBe(200)
      expect(reply.json.resource.id).toBe(server.knownIds.resources[0])
      yield* Fiber.join(closing)
      const after = yield* Effect.either(Effect.tryPromise(() => fetch(server.url)))
      expect(after._tag).toBe("Left")
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
