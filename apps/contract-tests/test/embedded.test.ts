/**
 * The embedded run's server in a worker thread of its own (`serverThread: "worker"`):
 * it answers while the runner's thread is busy, it ends with the run's scope, and a start error
 * is typed. The reference server resolves to its build here, whose worker these runs start.
 */
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Net from "node:net"
import { Worker } from "node:worker_threads"
import * as Embedded from "../src/Embedded.js"

/** The target of the run, as its first progress line names it. */
const targetOf = (line: string): string | undefined => / against (http:\/\/\S+)$/.exec(line)?.[1]

/**
 * The status of a POST to `url`, sent from another thread while this one waits for it without
 * running its event loop (`Atomics.wait`): only a server in a third thread can answer it. `-1`
 * when the request failed, `"no answer"` when none came within 20 s.
 */
const statusWhileBlocked = (url: string, headers: Record<string, string>, body: string): number | "no answer" => {
  const shared = new Int32Array(new SharedArrayBuffer(8))
  const asker = new Worker(
    `const { workerData: { url, headers, body, shared } } = require("node:worker_threads")
    fetch(url, { method: "POST", headers, body }).then((r) => r.status, () => -1).then((status) => {
      Atomics.store(shared, 1, status)
      Atomics.store(shared, 0, 1)
      Atomics.notify(shared, 0)
    })`,
    { eval: true, workerData: { url, headers, body, shared } }
  )
  const woke = Atomics.wait(shared, 0, 0, 20_000)
  void asker.terminate()
  return woke === "timed-out" ? "no answer" : Atomics.load(shared, 1)
}

const connects = (url: string) =>
  Effect.async<boolean>((resume) => {
    const { hostname, port } = new URL(url)
    const socket = Net.connect(Number(port), hostname)
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
  })

const options = { seed: 1, examples: 2, operations: ["GetResource"], serverThread: "worker" } as const

describe("the embedded server", () => {
  it.effect("answers while the runner's thread is blocked, and ends with the run's scope", () =>
    Effect.gen(function* () {
      let url: string | undefined
      let status: number | "no answer" | undefined
      const report = yield* Embedded.run({
        ...options,
        // Called in the runner's thread: the first line names the server, asked from it while the runner waits.
        progress: (line) => {
          if (url !== undefined) return
          url = targetOf(line)
          if (url !== undefined) status = statusWhileBlocked(`${url}/core.v1.NoSuchService/NoSuchMethod`, { "content-type": "application/json" }, "{}")
        }
      }).pipe(Effect.scoped)
      expect(report.findings).toEqual([])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(status).toBe(404)
      expect(yield* connects(url!)).toBe(false)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )

  it.effect("fails with a typed start error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Embedded.run({ ...options, server: { latitude: ["no-such-switch" as never] } }).pipe(Effect.scoped))
      expect(error._tag).toBe("StartError")
      expect(error._tag === "StartError" ? error.reason : undefined).toBe("Latitude")
    }).pipe(Effect.provide(NodeHttpClient.layerUndici))
  )
})
